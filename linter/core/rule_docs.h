// SPDX-License-Identifier: Apache-2.0
// Rule documentation parsed from rules/<folder>/<id>.md (embedded at build time).
// Front matter keys: id, name, short, level, precision, tags. What checks a rule
// (lint, probe) is not written there: it comes from the registry (core/registry.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sc {

struct RuleDoc {
  std::string id;                 // "G1"
  std::string name;               // "cuda-major-mismatch"
  std::string short_description;  // one line
  std::string full_description;   // first paragraph of the body
  std::string default_level;      // "error" | "warning" | "note"
  std::string precision;          // "very-high" | "high" | "medium" | "low"
  std::vector<std::string> tags;
  std::vector<std::string> checks;  // "lint", "probe": from registered_checks()
  std::string markdown;           // body without front matter
  std::string source_file;        // "G1-cuda-major-mismatch.md"
};

const std::vector<RuleDoc>& rule_docs();            // in rule order (rule_id_less)
const RuleDoc* find_rule_doc(std::string_view id);  // case-insensitive "g1" ok
int rule_index(std::string_view id);                // index in rule_docs(), -1 if none
// Markdown -> plain text for SARIF help.text (drops fences/markup, keeps words).
std::string markdown_to_text(std::string_view md);

}  // namespace sc

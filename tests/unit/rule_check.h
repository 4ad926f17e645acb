// SPDX-License-Identifier: Apache-2.0
// A project of in-memory files kept for inspection (G1, G2, G9 and query-layer tests).
#pragma once
#include "launch_rules.h"

namespace sc::test {

// Findings at `line` of `path` whose message contains `text`.
inline size_t count(const Collected& c, const std::string& path, int line, const std::string& text = "") {
  size_t n = 0;
  for (const Finding& f : c.findings)
    if (f.loc.path == path && f.loc.range.line == line && f.message.find(text) != std::string::npos) ++n;
  return n;
}

// What a rule found, with count() as a member for short tests.
struct RuleOutput : Collected {
  explicit RuleOutput(Collected c) : Collected(std::move(c)) {}
  size_t count(const std::string& path, int line, const std::string& text = "") const {
    return test::count(*this, path, line, text);
  }
};

// Parses (path, text) pairs and links them; the project stays for queries.
class MemProject {
 public:
  Project p;
  MemProject(std::initializer_list<std::pair<std::string, std::string>> files) {
    for (const auto& [path, text] : files) add_file(p, path, text);
    p.link();
  }
  RuleOutput run(std::string_view rule_id) const { return RuleOutput(run_rule(rule_id, p)); }
};

}  // namespace sc::test

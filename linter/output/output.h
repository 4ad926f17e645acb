// SPDX-License-Identifier: Apache-2.0
// Output formats. Each format is one file in linter/output/ that registers a
// writer with SPARKCHECK_OUTPUT("name", function).
#pragma once
#include <map>
#include <ostream>
#include <string>

#include "engine/engine.h"
#include "core/registry.h"

namespace sc {

struct OutputOptions {
  bool color = false;               // ANSI colours (text formats, only on a terminal)
  std::string command_line;         // for SARIF invocations
  std::string working_directory;    // absolute, for SARIF
  bool show_suppressed = false;     // text formats: list suppressed findings too
  size_t annotation_limit = 10;     // github: per-step cap per level
  std::string summary_file;         // github: $GITHUB_STEP_SUMMARY
  std::string config_file;          // configuration file in use (text summary, SARIF invocation)
  bool unsafe_fixes = false;        // --unsafe-fixes: unsafe fixes count as fixable
  long fixed = -1;                  // --fix: findings fixed (text summary); -1 without --fix
};

using WriterFn = void (*)(const LintResult&, std::ostream&, const OutputOptions&);
std::map<std::string, WriterFn>& output_writers();

struct OutputRegistrar {
  OutputRegistrar(const char* name, WriterFn fn) { output_writers()[name] = fn; }
};

// Shared helpers

// "message. Fix: fix." for formats with one text field (SARIF, GitLab, checkstyle): each part
// ends as a sentence, so the fix never runs on from the explanation.
std::string message_with_fix(const Finding& f);
const char* tool_version();
const char* tool_information_uri();
// GitHub workflow-command escaping (github.cpp): message data, and property values.
std::string gh_escape_data(std::string_view s);
std::string gh_escape_property(std::string_view s);
// XML 1.0 text/attribute escaping; drops characters XML cannot carry (junit.cpp).
std::string xml_escape(std::string_view s);

}  // namespace sc

#define SPARKCHECK_OUTPUT(name, fn) static ::sc::OutputRegistrar SC_CAT(sc_out_reg_, __LINE__)(name, fn)

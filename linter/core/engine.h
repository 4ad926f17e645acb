// The lint run: walk -> read -> classify -> parse -> link -> rules -> findings.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/project.h"

namespace sc {

struct LintOptions {
  std::vector<std::string> paths;     // files or directories; default "."
  std::string root;                   // display paths relative to this; default: cwd or common parent
  bool no_ignore = false;             // do not honour .gitignore
  std::optional<std::string> stdin_text;   // with stdin_filename: lint this text as that file
  std::string stdin_filename;
  std::set<std::string> select;       // empty: all rules
  std::set<std::string> ignore;
  std::vector<std::string> exclude;   // glob patterns on display paths
  size_t max_file_bytes = 10u * 1024 * 1024;  // larger files are skipped with a notification
};

struct LintResult {
  Project project;
  std::vector<Finding> findings;          // sorted by path, line, col, rule
  std::vector<Notification> notifications;
  std::vector<std::string> linted;        // display paths of files parsed
  bool complete = true;                   // false: the run could not finish (e.g. path missing)
};

LintResult run_lint(const LintOptions& opt);

// Fingerprint stable under line moves: rule + path + normalised text of the
// flagged line + occurrence index of that text within the file.
void assign_fingerprints(LintResult& r);

}  // namespace sc

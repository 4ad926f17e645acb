// SPDX-License-Identifier: Apache-2.0
// Inline suppressions: `# sparkcheck: ignore[G9] -- reason` (this line, or the
// next line when the comment stands alone) and `# sparkcheck: file-ignore[G1] --
// reason` (the whole file). Unused suppressions become findings under the
// meta rule `unused-suppression`.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "core/source.h"

namespace sc {

// Id of the meta rule that reports suppressions which suppress nothing.
inline constexpr const char* kUnusedSuppression = "unused-suppression";
// (Its documentation is rules/unused-suppression/unused-suppression.md, like any rule's.)

// Canonical spelling of a rule id ("g9" -> "G9"), or "" when unknown.
// Known: the registered checks (core/registry.h) and the documented rules.
std::string canonical_rule_id(std::string_view id);
// Every known id in rule order: G-numbers, then others (for error messages).
std::vector<std::string> known_rule_ids();
std::string known_rule_list();  // "G1, G2, ..., unused-suppression"

struct SuppressDirective {
  bool file_scope = false;
  struct Id {
    std::string rule;  // canonical
    Range range;       // where the id is written
    int used = 0;      // findings it suppressed
  };
  std::vector<Id> ids;
  std::string reason;  // may be empty when reasonless suppressions are allowed
  Location loc;        // the whole comment
  int first_line = 0, last_line = 0;  // lines covered (line scope)
  bool covers(int line) const { return file_scope || (line >= first_line && line <= last_line); }
};

// Parses every directive of one file. Malformed directives, unknown ids and
// missing reasons (unless allowed) go to `problems` as errors and the directive
// (or the offending id) is dropped.
// With `only_lines`, directives outside those (first, last) line ranges are prose, not comments.
std::vector<SuppressDirective> parse_suppressions(const SourceFile& src, bool allow_reasonless,
                                                  std::vector<Notification>& problems,
                                                  const std::vector<std::pair<int, int>>* only_lines = nullptr);

// Marks findings covered by `directives` as suppressed (findings of other files
// are left alone). Returns the number suppressed.
size_t apply_suppressions(std::vector<SuppressDirective>& directives, std::vector<Finding>& findings);

// Findings for ids that suppressed nothing; `active(rule)` says whether that
// rule ran for this file (otherwise "unused" cannot be judged).
std::vector<Finding> unused_suppressions(const std::vector<SuppressDirective>& directives,
                                         const std::function<bool(const std::string&)>& active);

}  // namespace sc

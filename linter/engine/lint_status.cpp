// SPDX-License-Identifier: Apache-2.0
#include "engine/lint_status.h"

#include <set>

namespace sc {

bool nothing_linted(const LintResult& r, std::string& why) {
  static const std::set<std::string> unread = {"read-error", "not-regular-file", "file-too-large",
                                               "binary-file", "symlink"};
  if (r.files_linted) return false;
  size_t n = 0;
  for (const auto& note : r.notifications) n += unread.count(note.id);
  if (n == 0) return false;
  why = "nothing was linted: " + std::to_string(n) + (n == 1 ? " file" : " files") +
        " could not be read (see the notifications above)";
  return true;
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Applying fixes (--fix, --diff): per file, the edits of the findings' fixes that may apply,
// without overlaps, on the text the rules read.
#pragma once
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sc {

// May `fx` apply: safe fixes always, unsafe ones only with --unsafe-fixes.
inline bool fix_allowed(const Fix& fx, bool unsafe) { return fx.safe || unsafe; }
// The fix --fix would apply for `f` (its first allowed one), or null; none for suppressed findings.
const Fix* applicable_fix(const Finding& f, bool unsafe);

// `text` with `edits` applied: byte ranges [begin, end) into `text`, sorted, not overlapping.
struct ByteEdit {
  size_t begin, end;
  std::string text;
};
std::string apply_byte_edits(const std::string& text, const std::vector<ByteEdit>& edits);

// One file's new text.
struct FilePatch {
  std::string path;      // display path
  std::string abs_path;  // where to write it
  std::string before;    // the text the rules read (a byte-order mark removed)
  std::string after;
  std::vector<ByteEdit> edits;  // sorted; after == apply_byte_edits(before, edits)
  size_t fixes = 0;      // fixes applied
};

// The applicable fixes of `r` applied file by file, in finding order: a fix applies whole or
// not at all, and not when one of its edits overlaps an edit already taken (a later pass
// gets it) or when the file no longer holds an edit's old text at its range.
std::vector<FilePatch> plan_fixes(const LintResult& r, bool unsafe);

}  // namespace sc

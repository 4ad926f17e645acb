// SPDX-License-Identifier: Apache-2.0
// `--diff`: the changes --fix would write, as a unified diff (what `diff -u` prints).
#pragma once
#include <string>

#include "engine/fix.h"

namespace sc {

// "--- a/PATH", "+++ b/PATH" and one hunk per group of nearby edits, `context` lines around.
std::string unified_diff(const FilePatch& p, int context = 3);

// One patch doing `first` then `then` (then.before == first.after): edits on first.before that
// give then.after, one per region either pass touched (--diff shows every fix pass at once).
FilePatch compose_patches(const FilePatch& first, const FilePatch& then);

}  // namespace sc

// `--diff`: the changes --fix would write, as a unified diff (what `diff -u` prints).
#pragma once
#include <string>

#include "engine/fix.h"

namespace sc {

// "--- a/PATH", "+++ b/PATH" and one hunk per group of nearby edits, `context` lines around.
std::string unified_diff(const FilePatch& p, int context = 3);

}  // namespace sc

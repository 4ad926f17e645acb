// SPDX-License-Identifier: Apache-2.0
// Paths tracked in a git repository, read from its index file (no git process).
// git never ignores a tracked file, so the walk needs them to match
// `git check-ignore`. The index is untrusted input: every read is bounds-checked.
#pragma once
#include <string>
#include <unordered_set>

namespace sc {

struct TrackedPaths {
  std::unordered_set<std::string> files;  // '/'-separated, relative to the top
  std::unordered_set<std::string> dirs;   // every directory holding a tracked file
  bool has(const std::string& rel, bool is_dir) const { return is_dir ? dirs.count(rel) > 0 : files.count(rel) > 0; }
};

// Parses index versions 2-4 (SHA-1). Returns false on anything malformed (then
// `out` holds what was read before the problem), also once the paths (with their
// directories) pass 8 bytes per byte of the index plus 1 MB.
bool parse_git_index(const std::string& data, TrackedPaths& out);

// The git directory of the repository whose top is `top`: `top/.git`, or the
// PATH of a `.git` file "gitdir: PATH" (worktrees, submodules); "" when malformed.
std::string git_dir(const std::string& top);

// Reads the index of the repository whose top is `top` (`.git` a directory, or
// a file "gitdir: PATH" as in worktrees). False when there is none or it is unreadable.
bool read_git_index(const std::string& top, TrackedPaths& out);

}  // namespace sc

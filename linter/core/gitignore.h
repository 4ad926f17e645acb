// SPDX-License-Identifier: Apache-2.0
// .gitignore semantics without running git (a stranger's .git/config can make
// `git check-ignore` run commands through core.fsmonitor). See docs/gitignore.md.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sc {

struct IgnorePattern {
  std::vector<std::string> segments;  // split at '/'; "**" is its own segment
  bool negate = false;                // "!pat"
  bool dir_only = false;              // "pat/"
  bool anchored = false;              // had a '/' before its last character
  bool deep = false;                  // has a "**" segment (else it matches paths of its own depth only)
  size_t literal_segments = 0;        // segments other than "**": a path needs at least this many
};

// The patterns of one ignore file, applying to paths below `base`
// ("" = the top, else a '/'-separated relative directory).
struct IgnoreFile {
  std::string base;
  std::vector<IgnorePattern> patterns;
  size_t dropped = 0;  // patterns past the file's segment budget (kMaxSegments), not used
};

// Parses .gitignore text (comments, blank lines, '\' escapes, trailing spaces).
IgnoreFile parse_ignore(std::string_view text, std::string base);

// Stack of ignore files, lowest precedence first (info/exclude, then each
// directory's .gitignore and .ignore from the top down).
class IgnoreStack {
 public:
  void push(IgnoreFile f) { files_.push_back(std::move(f)); }
  void pop() { files_.pop_back(); }
  size_t size() const { return files_.size(); }
  // `rel` is '/'-separated, relative to the top. The last matching pattern wins.
  bool ignored(const std::string& rel, bool is_dir) const;

 private:
  std::vector<IgnoreFile> files_;
};

// "a//b/c" -> {"a", "b", "c"}.
std::vector<std::string> split_segments(std::string_view p);
// Does `pat` (segments, "**" spans any number of segments) match all of `path`?
bool segments_match(const std::vector<std::string>& pat, const std::vector<std::string_view>& path);
// One glob segment ('*', '?', '[...]'; never crosses '/').
bool segment_match(std::string_view pat, std::string_view name);

}  // namespace sc

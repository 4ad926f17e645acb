// SPDX-License-Identifier: Apache-2.0
// Path globs for --exclude, config `exclude` and per-file-ignores (one matcher
// for all three). '/' separates segments: '*', '?' and '[...]' stay inside one
// segment, a whole '**' segment spans any number of them. A pattern without
// '/' (a trailing one aside) matches a name at any depth; a pattern matches a
// path when it matches the path or one of its parent directories.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/gitignore.h"
#include "core/walk.h"

namespace sc {
namespace {

std::vector<std::string> pattern_segments(std::string_view p) {
  if (p.substr(0, 2) == "./") p.remove_prefix(2);
  size_t slash = p.find('/');
  bool anchored = slash != std::string_view::npos && slash + 1 < p.size();
  std::vector<std::string> segs = split_segments(p);
  segs.erase(std::unique(segs.begin(), segs.end(),
                         [](const std::string& a, const std::string& b) { return a == "**" && b == "**"; }),
             segs.end());  // `**/**` is `**`
  if (!anchored && !segs.empty() && segs[0] != "**") segs.insert(segs.begin(), "**");
  return segs;
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& path) {
  std::vector<std::string> pat = pattern_segments(pattern);
  if (pat.empty()) return false;
  std::string_view p(path);
  if (p.substr(0, 2) == "./") p.remove_prefix(2);
  std::vector<std::string> owned = split_segments(p);
  std::vector<std::string_view> segs(owned.begin(), owned.end());
  // the path itself, then each parent directory
  for (; !segs.empty(); segs.pop_back())
    if (segments_match(pat, segs)) return true;
  return false;
}

}  // namespace sc

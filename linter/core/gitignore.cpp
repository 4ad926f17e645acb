// SPDX-License-Identifier: Apache-2.0
#include "core/gitignore.h"

#include <fnmatch.h>

#include <algorithm>

#include "core/source.h"

namespace sc {

namespace {

constexpr size_t kMaxPatterns = 10000;  // per file: a hostile .gitignore stays cheap
// Segments of all patterns of one file: matching a path costs about this times its depth, so a
// file of thousands of `a/**/b/**/...` patterns cannot make each path a million steps. Patterns
// past it are dropped (IgnoreFile::dropped).
constexpr size_t kMaxSegments = 20000;

// `**/**` matches what `**` matches: runs of `**` segments become one.
void collapse_deep(std::vector<std::string>& segs) {
  segs.erase(std::unique(segs.begin(), segs.end(), [](const std::string& a, const std::string& b) {
               return a == "**" && b == "**";
             }),
             segs.end());
}

// Trailing spaces are dropped unless escaped with '\'.
std::string_view trim_trailing(std::string_view l) {
  while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) {
    if (l.size() >= 2 && l[l.size() - 2] == '\\' && l.back() == ' ') break;
    l.remove_suffix(1);
  }
  return l;
}

bool matches(const IgnorePattern& p, const std::vector<std::string_view>& path) {
  if (p.anchored && !p.deep && p.segments.size() != path.size()) return false;
  if (p.literal_segments > path.size()) return false;  // more fixed segments than the path has
  if (p.anchored) return segments_match(p.segments, path);
  // an unanchored pattern (one segment) matches the name at any depth
  return !path.empty() && segment_match(p.segments[0], path.back());
}

}  // namespace

std::vector<std::string> split_segments(std::string_view p) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t i = 0; i <= p.size(); ++i) {
    if (i == p.size() || p[i] == '/') {
      if (i > b) out.emplace_back(p.substr(b, i - b));
      b = i + 1;
    }
  }
  return out;
}

// Does `pat` (segments, "**" spans any number of segments) match all of `path`?
// Dynamic programming over (pattern index, path index): no exponential backtracking.
namespace {
// segments_match over two rows of S + 1 cells each.
bool match_rows(const std::vector<std::string>& pat, const std::vector<std::string_view>& path, char* row, char* next) {
  size_t P = pat.size(), S = path.size();
  std::fill(row, row + S + 1, 0);
  row[S] = 1;  // empty pattern suffix matches empty path suffix
  for (size_t i = P; i-- > 0;) {
    std::fill(next, next + S + 1, 0);
    bool any = false;
    for (size_t j = S + 1; j-- > 0;) {
      if (pat[i] == "**") next[j] = row[j] || (j < S && next[j + 1]);
      else next[j] = j < S && row[j + 1] && segment_match(pat[i], path[j]);
      any = any || next[j];
    }
    if (!any) return false;  // no suffix of the path matches this pattern suffix
    std::swap(row, next);
  }
  return row[0];
}
}  // namespace

bool segments_match(const std::vector<std::string>& pat, const std::vector<std::string_view>& path) {
  if (path.size() < 64) {  // the usual depth: no allocation
    char row[64], next[64];
    return match_rows(pat, path, row, next);
  }
  std::vector<char> row(path.size() + 1), next(path.size() + 1);
  return match_rows(pat, path, row.data(), next.data());
}

// Patterns without wildcards compare as text, "*.ext" as a suffix (fnmatch without flags lets
// '*' match anything, a leading '.' included); the rest go to fnmatch.
bool segment_match(std::string_view pat, std::string_view name) {
  auto wild = [](char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; };
  size_t n_wild = static_cast<size_t>(std::count_if(pat.begin(), pat.end(), wild));
  if (n_wild == 0) return pat == name;
  if (n_wild == 1 && pat[0] == '*') return ends_with(name, pat.substr(1));
  char p[256], n[256];
  if (pat.size() >= sizeof p || name.size() >= sizeof n)
    return fnmatch(std::string(pat).c_str(), std::string(name).c_str(), 0) == 0;
  pat.copy(p, pat.size()), name.copy(n, name.size());
  p[pat.size()] = n[name.size()] = '\0';
  return fnmatch(p, n, 0) == 0;
}

IgnoreFile parse_ignore(std::string_view text, std::string base) {
  IgnoreFile f;
  f.base = std::move(base);
  size_t segments = 0;
  size_t b = 0;
  while (b < text.size() && f.patterns.size() < kMaxPatterns) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string_view l = trim_trailing(text.substr(b, e - b));
    b = e + 1;
    if (l.empty() || l[0] == '#') continue;
    IgnorePattern p;
    if (l[0] == '!') { p.negate = true; l.remove_prefix(1); }
    else if (l[0] == '\\' && l.size() > 1 && (l[1] == '!' || l[1] == '#')) l.remove_prefix(1);
    if (!l.empty() && l.back() == '/') { p.dir_only = true; l.remove_suffix(1); }
    p.anchored = l.find('/') != std::string_view::npos;
    p.segments = split_segments(l);
    collapse_deep(p.segments);
    if (p.segments.empty()) continue;
    if (segments + p.segments.size() > kMaxSegments) {
      ++f.dropped;
      continue;
    }
    segments += p.segments.size();
    p.deep = std::find(p.segments.begin(), p.segments.end(), "**") != p.segments.end();
    p.literal_segments = static_cast<size_t>(std::count_if(p.segments.begin(), p.segments.end(),
                                                           [](const std::string& x) { return x != "**"; }));
    f.patterns.push_back(std::move(p));
  }
  return f;
}

namespace {
// The non-empty '/'-separated segments of `sub`.
void path_segments(std::string_view sub, std::vector<std::string_view>& segs) {
  segs.clear();
  size_t b = 0;
  for (size_t i = 0; i <= sub.size(); ++i) {
    if (i != sub.size() && sub[i] != '/') continue;
    if (i > b) segs.push_back(sub.substr(b, i - b));
    b = i + 1;
  }
}
}  // namespace

bool IgnoreStack::ignored(const std::string& rel, bool is_dir) const {
  std::vector<std::string_view> segs;
  std::string_view r(rel);
  int state = 0;  // 0 no match, 1 ignored, -1 re-included
  for (const auto& f : files_) {
    if (!f.base.empty() && !(r.size() > f.base.size() && r.substr(0, f.base.size()) == f.base && r[f.base.size()] == '/'))
      continue;
    path_segments(f.base.empty() ? r : r.substr(f.base.size() + 1), segs);
    for (const auto& p : f.patterns)
      if ((!p.dir_only || is_dir) && matches(p, segs)) state = p.negate ? -1 : 1;
  }
  return state == 1;
}

}  // namespace sc

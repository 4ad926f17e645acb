// SPDX-License-Identifier: Apache-2.0
#include "output/diff.h"

#include <algorithm>

namespace sc {
namespace {

// Lines with their '\n' (the last may lack it).
std::vector<std::string_view> lines_of(std::string_view t) {
  std::vector<std::string_view> r;
  for (size_t b = 0; b < t.size();) {
    size_t e = t.find('\n', b);
    e = e == std::string_view::npos ? t.size() : e + 1;
    r.push_back(t.substr(b, e - b));
    b = e;
  }
  return r;
}

// A run of old lines [first, last] that edits rewrite, and what they become.
struct Change {
  size_t first, last;
  std::vector<ByteEdit> edits;
  std::vector<std::string> now;
};

struct Lines {
  std::string_view text;
  std::vector<std::string_view> lines;
  std::vector<size_t> starts;
  size_t of(size_t off) const {
    size_t i = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), off) - starts.begin());
    return std::min(i == 0 ? 0 : i - 1, lines.empty() ? 0 : lines.size() - 1);
  }
  size_t end_of(size_t line) const { return line + 1 < starts.size() ? starts[line + 1] : text.size(); }
};

std::vector<Change> changes(const Lines& L, const std::vector<ByteEdit>& edits) {
  std::vector<Change> cs;
  for (const ByteEdit& e : edits) {
    size_t first = L.of(e.begin), last = e.end > e.begin ? L.of(e.end - 1) : first;
    if (!cs.empty() && first <= cs.back().last) cs.back().last = std::max(cs.back().last, last);
    else cs.push_back({first, last, {}, {}});
    cs.back().edits.push_back(e);
  }
  for (Change& c : cs) {
    size_t b = L.lines.empty() ? 0 : L.starts[c.first], e = L.lines.empty() ? 0 : L.end_of(c.last);
    std::vector<ByteEdit> local;
    for (const ByteEdit& x : c.edits) local.push_back({x.begin - b, x.end - b, x.text});
    std::string seg = apply_byte_edits(std::string(L.text.substr(b, e - b)), local);
    for (auto l : lines_of(seg)) c.now.emplace_back(l);
  }
  return cs;
}

void put(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

std::string range_text(size_t start0, size_t count) {
  return std::to_string(count == 0 ? start0 : start0 + 1) + "," + std::to_string(count);
}

// A place in the text after `edits` -> the same place before them. Inside (or at either end
// of) an edit's new text it maps to that edit's start or end: the region grows to hold it.
size_t before_edits(const std::vector<ByteEdit>& edits, size_t at, bool is_end) {
  long shift = 0;  // after - before, for the text ahead of the current edit
  for (const ByteEdit& e : edits) {
    size_t b = static_cast<size_t>(static_cast<long>(e.begin) + shift), end = b + e.text.size();
    if (at < b) break;
    if (at <= end) return is_end ? e.end : e.begin;
    shift += static_cast<long>(e.text.size()) - static_cast<long>(e.end - e.begin);
  }
  return static_cast<size_t>(static_cast<long>(at) - shift);
}

// A region of the original text and how much longer the edits inside it make it.
struct Region {
  size_t begin, end;
  long grow;
};

std::vector<Region> merged_regions(std::vector<Region> rs) {
  std::sort(rs.begin(), rs.end(), [](const Region& a, const Region& b) { return a.begin < b.begin; });
  std::vector<Region> out;
  for (const Region& r : rs) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
      out.back().grow += r.grow;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

long growth(const ByteEdit& e) { return static_cast<long>(e.text.size()) - static_cast<long>(e.end - e.begin); }

// One edit from the first to the last differing byte (when the regions do not add up).
std::vector<ByteEdit> whole_change(const std::string& a, const std::string& b) {
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  if (pre == a.size() && pre == b.size()) return {};
  return {{pre, a.size() - suf, b.substr(pre, b.size() - suf - pre)}};
}

}  // namespace

FilePatch compose_patches(const FilePatch& first, const FilePatch& then) {
  std::vector<Region> rs;
  for (const ByteEdit& e : first.edits) rs.push_back({e.begin, e.end, growth(e)});
  for (const ByteEdit& e : then.edits)
    rs.push_back({before_edits(first.edits, e.begin, false), before_edits(first.edits, e.end, true), growth(e)});
  FilePatch out{first.path, first.abs_path, first.before, then.after, {}, first.fixes + then.fixes};
  long shift = 0;
  for (const Region& r : merged_regions(std::move(rs))) {
    size_t at = static_cast<size_t>(static_cast<long>(r.begin) + shift);
    size_t len = static_cast<size_t>(static_cast<long>(r.end - r.begin) + r.grow);
    if (at + len > out.after.size()) break;
    out.edits.push_back({r.begin, r.end, out.after.substr(at, len)});
    shift += r.grow;
  }
  if (apply_byte_edits(out.before, out.edits) != out.after) out.edits = whole_change(out.before, out.after);
  return out;
}

std::string unified_diff(const FilePatch& p, int context) {
  Lines L{p.before, lines_of(p.before), {}};
  for (size_t s = 0, i = 0; i < L.lines.size(); s += L.lines[i].size(), ++i) L.starts.push_back(s);
  std::vector<Change> cs = changes(L, p.edits);
  std::string out = "--- a/" + p.path + "\n+++ b/" + p.path + "\n";
  const size_t ctx = static_cast<size_t>(context), n = L.lines.size();
  long delta = 0;  // new line number - old line number before the current hunk
  for (size_t i = 0; i < cs.size();) {
    size_t j = i;  // changes i..j share a hunk
    while (j + 1 < cs.size() && cs[j + 1].first <= cs[j].last + 1 + 2 * ctx) ++j;
    size_t from = cs[i].first > ctx ? cs[i].first - ctx : 0;
    size_t to = std::min(n, cs[j].last + 1 + ctx);  // exclusive
    std::string body;
    size_t old_count = 0, new_count = 0, at = from;
    for (size_t k = i; k <= j; ++k) {
      for (; at < cs[k].first && at < n; ++at, ++old_count, ++new_count) put(body, ' ', L.lines[at]);
      for (; at <= cs[k].last && at < n; ++at, ++old_count) put(body, '-', L.lines[at]);
      for (const auto& l : cs[k].now) put(body, '+', l), ++new_count;
    }
    for (; at < to; ++at, ++old_count, ++new_count) put(body, ' ', L.lines[at]);
    out += "@@ -" + range_text(from, old_count) + " +" +
           range_text(static_cast<size_t>(static_cast<long>(from) + delta), new_count) + " @@\n" + body;
    delta += static_cast<long>(new_count) - static_cast<long>(old_count);
    i = j + 1;
  }
  return out;
}

}  // namespace sc

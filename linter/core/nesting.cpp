// SPDX-License-Identifier: Apache-2.0
#include "core/nesting.h"

#include <algorithm>

namespace sc {

namespace {

struct BracketTable {
  bool on[256] = {};
  BracketTable() {
    for (unsigned char c : std::string_view("()[]{}")) on[c] = true;
  }
};
const BracketTable kBrackets;

// The first offset from `i` whose 8-byte block holds a bracket (long runs without any,
// such as base64 images in notebooks, are skipped a block at a time).
size_t next_block_with_bracket(std::string_view t, size_t i) {
  const bool* on = kBrackets.on;
  // 0 or 1 per byte, summed without branches
  auto at = [&](size_t k) { return static_cast<unsigned>(on[static_cast<unsigned char>(t[k])]); };
  while (i + 8 <= t.size() &&
         (at(i) + at(i + 1) + at(i + 2) + at(i + 3) + at(i + 4) + at(i + 5) + at(i + 6) + at(i + 7)) == 0)
    i += 8;
  return i;
}

// One byte of the scan: an opening bracket deepens `d` (a new deepest is noted in `r`), a
// closing one undoes it. False once `limit` is passed.
bool count_bracket(char c, size_t i, int& d, int limit, NestingScan& r) {
  if (c == '(' || c == '[' || c == '{') {
    if (++d > r.depth) {
      r.depth = d;
      r.offset = i;
      if (d > limit) return false;
    }
  } else if ((c == ')' || c == ']' || c == '}') && d > 0) {
    --d;
  }
  return true;
}

}  // namespace

NestingScan max_nesting(std::string_view text, int limit) {
  NestingScan r;
  int d = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((i & 7) == 0) {
      i = next_block_with_bracket(text, i);
      if (i >= text.size()) break;
    }
    if (!count_bracket(text[i], i, d, limit, r)) return r;
  }
  return r;
}

namespace {

// The closing quote of the JSON string opened at `open`: the first one not preceded by an odd
// run of backslashes; npos when there is none.
size_t string_end(std::string_view text, size_t open) {
  for (size_t j = text.find('"', open + 1); j != std::string_view::npos; j = text.find('"', j + 1)) {
    size_t k = j;
    while (k > open + 1 && text[k - 1] == '\\') --k;
    if ((j - k) % 2 == 0) return j;
  }
  return std::string_view::npos;
}

}  // namespace

NestingScan max_json_nesting(std::string_view text, int limit) {
  NestingScan r;
  int d = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {
      i = string_end(text, i);
      if (i == std::string_view::npos) return r;
    } else if (!count_bracket(text[i], i, d, limit, r)) {
      return r;
    }
  }
  return r;
}

bool too_deep(std::string_view text, int* line) {
  NestingScan s = max_nesting(text);
  if (s.depth <= kMaxNesting) return false;
  if (line) *line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(s.offset), '\n'));
  return true;
}

}  // namespace sc

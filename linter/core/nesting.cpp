#include "core/nesting.h"

#include <algorithm>

namespace sc {

NestingScan max_nesting(std::string_view text, int limit) {
  NestingScan r;
  int d = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '{') {
      if (++d > r.depth) {
        r.depth = d;
        r.offset = i;
        if (d > limit) return r;
      }
    } else if ((c == ')' || c == ']' || c == '}') && d > 0) {
      --d;
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

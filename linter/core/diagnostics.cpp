// SPDX-License-Identifier: Apache-2.0
#include "core/diagnostics.h"

#include <ostream>

namespace sc {

std::ostream& operator<<(std::ostream& os, const SharedText& t) { return os << t.str(); }

const char* level_name(Level l) {
  switch (l) {
    case Level::Note: return "note";
    case Level::Warning: return "warning";
    case Level::Error: return "error";
  }
  return "warning";
}

bool parse_level(const std::string& s, Level& out) {
  if (s == "note") out = Level::Note;
  else if (s == "warning") out = Level::Warning;
  else if (s == "error") out = Level::Error;
  else return false;
  return true;
}

size_t headline_end(std::string_view m) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + 1 < m.size(); ++i) {
    char c = m[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '`') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if ((c == ':' || c == ';') && m[i + 1] == ' ' && depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::string_view headline(std::string_view m) {
  size_t e = headline_end(m);
  return e == std::string_view::npos ? m : m.substr(0, e);
}

std::string_view explanation(std::string_view m) {
  size_t e = headline_end(m);
  return e == std::string_view::npos ? std::string_view() : m.substr(e + 2);
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
#include "output/output.h"

#include <cstdio>

namespace sc {

std::map<std::string, WriterFn>& output_writers() {
  static std::map<std::string, WriterFn> m;
  return m;
}

std::string json_escape(std::string_view s) {
  std::string r;
  for (unsigned char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\r': r += "\\r"; break;
      case '\t': r += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          r += b;
        } else {
          r += static_cast<char>(c);
        }
    }
  }
  return r;
}

namespace {
std::string sentence(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == ';' || s.back() == ',')) s.pop_back();
  if (!s.empty() && s.back() != '.' && s.back() != '!' && s.back() != '?') s += '.';
  return s;
}
}  // namespace

std::string message_with_fix(const Finding& f) {
  std::string m = sentence(f.message.str());
  return f.fix.empty() ? m : m + " Fix: " + sentence(f.fix);
}

const char* tool_version() { return SPARKCHECK_VERSION; }
const char* tool_information_uri() { return "https://github.com/sparkcheck/sparkcheck"; }

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
#include "output/output.h"

#include <cstdio>

namespace sc {

std::map<std::string, WriterFn>& output_writers() {
  static std::map<std::string, WriterFn> m;
  return m;
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

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the .gitignore matcher (core/gitignore.h). Input: ignore files and paths,
// split at "\x1e": the first part is the top's ignore file, the second the ignore file of
// the directory "sub" (may be absent), the last the paths to match, one a line ('/' at the
// end: a directory). Every path is matched against the stack; nothing may crash, hang
// (a path and a pattern each take at most the input's length) or throw.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gitignore.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  for (size_t cut; parts.size() < 2 && (cut = in.find('\x1e')) != std::string_view::npos;) {
    parts.push_back(in.substr(0, cut));
    in.remove_prefix(cut + 1);
  }
  parts.push_back(in);
  std::string_view paths = parts.back();
  sc::IgnoreStack stack;
  stack.push(sc::parse_ignore(parts.size() > 1 ? parts[0] : std::string_view(), ""));
  if (parts.size() > 2) stack.push(sc::parse_ignore(parts[1], "sub"));
  while (!paths.empty()) {
    size_t nl = paths.find('\n');
    std::string line(paths.substr(0, nl));
    paths.remove_prefix(nl == std::string_view::npos ? paths.size() : nl + 1);
    bool dir = !line.empty() && line.back() == '/';
    if (dir) line.pop_back();
    (void)stack.ignored(line, dir);
    (void)sc::split_segments(line);
  }
  return 0;
}

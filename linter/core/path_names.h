// SPDX-License-Identifier: Apache-2.0
// The last part of a path or program word, the one helper for it ("a/b/" -> "b", "/usr/bin/env" -> "env").
#pragma once
#include <string>
#include <string_view>

namespace sc {

inline std::string base_name(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace sc

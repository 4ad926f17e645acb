// SPDX-License-Identifier: Apache-2.0
#include "analysis/launch.h"
#include "core/path_names.h"

#include <charconv>
#include <climits>

namespace sc {

IntLiteral read_int(std::string_view s) {
  std::string t = trim(s);
  if (!t.empty() && t[0] == '+') t = t.substr(1);
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos) return {};
  long v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || v > INT_MAX) return {std::nullopt, true};
  return {v, false};
}

std::optional<long> int_literal(std::string_view s) { return read_int(s).value; }


int find_program(const Command& c, const std::vector<std::string>& progs, size_t from) {
  for (size_t i = from; i < c.argv.size(); ++i) {
    std::string b = base_name(c.argv[i].text);
    for (const auto& p : progs)
      if (b == p) return static_cast<int>(i);
  }
  return -1;
}

int find_module(const Command& c, const std::vector<std::string>& modules) {
  for (size_t i = 0; i + 1 < c.argv.size(); ++i) {
    if (c.argv[i].text != "-m") continue;
    for (const auto& m : modules)
      if (starts_with(c.argv[i + 1].text, m)) return static_cast<int>(i + 1);
  }
  return -1;
}

bool is_test_path(std::string_view path) {
  auto folder = [&](std::string_view name) {  // "/name/" in "/" + path
    return starts_with(path, name.substr(1)) || path.find(name) != std::string_view::npos;
  };
  if (folder("/tests/") || folder("/test/")) return true;
  std::string base = base_name(path);
  return (starts_with(base, "test_") && ends_with(base, ".py")) || ends_with(base, "_test.py") ||
         base == "conftest.py";
}

void Layout::fill(int& field, long v, const Location& at) {
  if (v < 0 || field >= 0) return;
  field = static_cast<int>(v);
  if (!where.range.valid()) where = at;
}

Layout merge(const Layout& a, const Layout& b) {
  Layout r = a;
  if (r.nodes < 0) r.nodes = b.nodes;
  if (r.per_node < 0) r.per_node = b.per_node;
  if (!r.where.range.valid()) r.where = b.where;
  return r;
}

}  // namespace sc

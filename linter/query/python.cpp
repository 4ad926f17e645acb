// SPDX-License-Identifier: Apache-2.0
#include "query/python.h"

#include <algorithm>

namespace sc::query {

const PyArg* kwarg(const PyCall& c, std::string_view name) {
  for (const auto& a : c.args)
    if (a.keyword == name) return &a;
  return nullptr;
}

const PyArg* positional(const PyCall& c, size_t index) {
  size_t pos = 0;
  for (const auto& a : c.args)
    if (a.keyword.empty() && pos++ == index) return &a;
  return nullptr;
}

std::string callee_name(const PyCall& c) {
  size_t dot = c.resolved.rfind('.');
  return c.resolved.substr(dot == std::string::npos ? 0 : dot + 1);
}

bool call_matches(const PyCall& c, const knowledge::Entry& e) {
  std::string last = callee_name(c);
  auto has = [&](std::string_view key) {
    const auto& v = e.list(key);
    return std::find(v.begin(), v.end(), last) != v.end();
  };
  const auto& modules = e.list("modules");
  bool module_ok = modules.empty() || std::any_of(modules.begin(), modules.end(), [&](const std::string& m) {
                     return starts_with(c.resolved, m);
                   });
  return module_ok && (e.list("callees").empty() || has("callees")) && !has("not_callees");
}

}  // namespace sc::query

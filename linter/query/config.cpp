// SPDX-License-Identifier: Apache-2.0
#include "query/config.h"

#include <algorithm>

namespace sc::query {

std::optional<long> entry_int(const ConfigEntry& e, Unreadable* bad) {
  return e.scalar ? int_text(e.value, e.value_loc, bad) : std::nullopt;
}

std::optional<IntAt> config_int(const std::vector<ConfigEntry>& cfg, const std::vector<std::string>& keys) {
  for (const auto& e : cfg) {
    if (!e.scalar || std::none_of(keys.begin(), keys.end(), [&](const std::string& k) { return dotted_is(e, k); }))
      continue;
    if (auto v = entry_int(e)) return IntAt{*v, e.value_loc};
  }
  return std::nullopt;
}

std::set<std::string> top_keys(const std::vector<ConfigEntry>& cfg) {
  std::set<std::string> top;
  for (const auto& e : cfg)
    if (e.path.size() == 1) top.insert(e.path[0]);
  return top;
}

namespace {

constexpr int kEnd = -1;  // dotted() ends where `name` does

// Does e.dotted() begin with `name`? Then `next` is the character after it, or kEnd.
bool dotted_begins(const ConfigEntry& e, std::string_view name, int& next) {
  size_t at = 0;      // characters of `name` matched so far
  bool any = false;   // has dotted() any character yet (a '.' goes before the next key)
  for (const std::string& p : e.path) {
    if (any && (p.empty() || p[0] != '[')) {
      if (at == name.size()) return next = '.', true;
      if (name[at++] != '.') return false;
    }
    size_t n = std::min(p.size(), name.size() - at);
    if (n > 0 && (p[0] != name[at] || name.compare(at, n, p, 0, n) != 0)) return false;
    if (n < p.size()) return next = static_cast<unsigned char>(p[n]), true;
    at += n;
    any = any || !p.empty();
  }
  next = kEnd;
  return at == name.size();
}

}  // namespace

bool dotted_is(const ConfigEntry& e, std::string_view name, bool or_below) {
  int next = kEnd;
  return dotted_begins(e, name, next) && (next == kEnd || (or_below && next == '.'));
}

std::string parent_key(const ConfigEntry& e) { return e.path.size() >= 2 ? e.path[e.path.size() - 2] : ""; }

}  // namespace sc::query

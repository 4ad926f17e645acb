#include "query/config.h"

#include <algorithm>

namespace sc::query {

std::optional<long> entry_int(const ConfigEntry& e, Unreadable* bad) {
  return e.scalar ? int_text(e.value, e.value_loc, bad) : std::nullopt;
}

std::optional<IntAt> config_int(const std::vector<ConfigEntry>& cfg, const std::vector<std::string>& keys) {
  for (const auto& e : cfg) {
    if (!e.scalar || std::find(keys.begin(), keys.end(), e.dotted()) == keys.end()) continue;
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

std::string parent_key(const ConfigEntry& e) { return e.path.size() >= 2 ? e.path[e.path.size() - 2] : ""; }

}  // namespace sc::query

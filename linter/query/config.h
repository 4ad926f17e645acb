// SPDX-License-Identifier: Apache-2.0
// Questions about config files (YAML / JSON / TOML entries).
#pragma once
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "query/commands.h"

namespace sc::query {

// The first scalar entry whose dotted path is one of `keys` and whose value is a whole number.
std::optional<IntAt> config_int(const std::vector<ConfigEntry>& cfg, const std::vector<std::string>& keys);
// A scalar entry's value as an integer (nullopt for text, lists, variables). Never throws;
// a number too large to read is added to `bad` when given.
std::optional<long> entry_int(const ConfigEntry& e, Unreadable* bad = nullptr);
// The keys at the top level of a file.
std::set<std::string> top_keys(const std::vector<ConfigEntry>& cfg);
// Is the entry's dotted path (ConfigEntry::dotted) `name`, or with `or_below` a key inside
// it ("name.x")? Compared element by element: no string is built.
bool dotted_is(const ConfigEntry& e, std::string_view name, bool or_below = false);
// The section enclosing an entry ("parallelism" for parallelism.tensor_parallel_degree), or "".
std::string parent_key(const ConfigEntry& e);

}  // namespace sc::query

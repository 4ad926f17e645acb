// SPDX-License-Identifier: Apache-2.0
// Domain tables loaded from knowledge/*.yaml (packed into the binary at build time). Each table is a
// list of entries; an entry is a map of string or string-list fields plus its source.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace re2 {
class RE2;
}

namespace sc::knowledge {

struct Entry {
  std::map<std::string, std::string, std::less<>> fields;               // scalar fields
  std::map<std::string, std::vector<std::string>, std::less<>> lists;   // list fields
  std::string source;  // the entry's own source, else its table's
  // A scalar field, or "" when absent.
  const std::string& get(std::string_view key) const;
  const std::vector<std::string>& list(std::string_view key) const;
  int number(std::string_view key, int fallback = 0) const;  // never throws
  // The entry's `pattern` matched against `text` (unanchored): the first capture group
  // (or the whole match when the pattern has none); nullopt when it does not match.
  std::optional<std::string> capture(std::string_view text) const;
  std::shared_ptr<const re2::RE2> re;  // compiled `pattern` (set by the loader)
};

class Table {
 public:
  std::string name, about, file;
  std::string source;  // the table's own `source:` (entries without one take it), or ""
  std::vector<Entry> entries;

  // The entry whose `key` field equals `value` (case-sensitive), or null.
  const Entry* find(std::string_view value, std::string_view key = "name") const;
  // Every entry whose `key` field equals `value`, in file order.
  std::vector<const Entry*> find_all(std::string_view value, std::string_view key = "name") const;
  bool contains(std::string_view value, std::string_view key = "name") const { return find(value, key); }
  // Every value of `key`, in file order.
  std::vector<std::string> values(std::string_view key = "name") const;
  // Entries with a `pattern` field: the first (in file order) whose RE2 pattern matches
  // `text` anywhere, or null. Patterns are compiled once, when the tables load.
  const Entry* match(std::string_view text) const;
  // Every entry whose pattern matches `text`.
  std::vector<const Entry*> matches(std::string_view text) const;

  Table();
  ~Table();
  Table(Table&&) noexcept;
  Table& operator=(Table&&) noexcept;

  // Loader only: compiles the `pattern` fields; returns an error text or "".
  std::string compile_patterns();
  // Loader only: indexes every scalar field's values (find and find_all then hash, not scan).
  void index_fields();

 private:
  struct PatternSet;                       // RE2::Set over all patterns (knowledge.cpp)
  std::shared_ptr<PatternSet> set_;
  std::vector<size_t> pattern_entry_;      // RE2Set index -> entry index
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <class V> using ByName = std::unordered_map<std::string, V, Hash, std::equal_to<>>;
  // field -> value -> entries (file order); few fields, so they are compared, not hashed
  std::vector<std::pair<std::string, ByName<std::vector<size_t>>>> index_;
  const ByName<std::vector<size_t>>* field_index(std::string_view field) const;
  bool indexed_ = false;
};

// A table by name. An unknown name is a programming error: std::logic_error.
const Table& table(std::string_view name);
// Shorthand: is `value` the `name` of an entry in `table_name`?
bool in(std::string_view table_name, std::string_view value);
// All tables (for tests and `sparkcheck knowledge`), sorted by name.
std::vector<const Table*> all_tables();
// Problems found while loading (bad YAML, entry without source, bad pattern...): empty when sound.
const std::vector<std::string>& load_errors();

}  // namespace sc::knowledge

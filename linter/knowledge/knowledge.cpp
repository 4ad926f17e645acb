// SPDX-License-Identifier: Apache-2.0
#include "knowledge/knowledge.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

namespace sc {
// Generated at build time by cmake/knowledge_pack.cpp from knowledge/*.yaml.
std::string_view packed_knowledge();
}  // namespace sc

namespace sc::knowledge {

const std::string& Entry::get(std::string_view key) const {
  static const std::string empty;
  auto it = fields.find(key);
  return it == fields.end() ? empty : it->second;
}

const std::vector<std::string>& Entry::list(std::string_view key) const {
  static const std::vector<std::string> empty;
  auto it = lists.find(key);
  return it == lists.end() ? empty : it->second;
}

int Entry::number(std::string_view key, int fallback) const {
  const std::string& s = get(key);
  int v = fallback;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() ? v : fallback;
}

std::optional<std::string> Entry::capture(std::string_view text) const {
  if (!re) return std::nullopt;
  re2::StringPiece in(text.data(), text.size()), groups[2];
  int n = re->NumberOfCapturingGroups() > 0 ? 2 : 1;
  if (!re->Match(in, 0, in.size(), RE2::UNANCHORED, groups, n)) return std::nullopt;
  const re2::StringPiece& g = groups[n - 1];
  return std::string(g.data(), g.size());
}

namespace {

bool ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Literals (lower case) of which every pattern needs one in the text it matches: RE2's
// FilteredRE2 atoms. None when some pattern needs no literal, or when a pattern ignores case
// (RE2 folds some non-ASCII letters, the Kelvin sign, onto ASCII ones).
std::vector<std::string> required_literals(const std::vector<std::string>& patterns) {
  re2::FilteredRE2 f(3);
  for (const std::string& p : patterns) {
    int id = 0;
    if (p.find("(?i") != std::string::npos || f.Add(p, RE2::Options(), &id) != RE2::NoError) return {};
  }
  std::vector<std::string> atoms;
  f.Compile(&atoms);
  std::vector<int> unfiltered;  // the patterns that pass with no literal found
  f.AllPotentials({}, &unfiltered);
  if (!unfiltered.empty() || !std::all_of(atoms.begin(), atoms.end(), ascii)) return {};
  return atoms;
}

}  // namespace

struct Table::PatternSet {
  RE2::Set set{RE2::Options(), RE2::UNANCHORED};
  std::vector<std::string> literals;  // required_literals of the patterns; empty: none known

  // False when `text` holds none of the literals, so no pattern can match: most texts are
  // turned away here, without running the set.
  bool may_match(std::string_view text) const {
    if (literals.empty()) return true;
    thread_local std::string low;
    low.assign(text);
    for (char& c : low)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return std::any_of(literals.begin(), literals.end(), [](const std::string& l) { return low.find(l) != std::string::npos; });
  }
};

Table::Table() = default;
Table::~Table() = default;
Table::Table(Table&&) noexcept = default;
Table& Table::operator=(Table&&) noexcept = default;

const Entry* Table::find(std::string_view value, std::string_view key) const {
  if (!indexed_ || value.empty()) {
    for (const Entry& e : entries)
      if (e.get(key) == value) return &e;
    return nullptr;
  }
  const auto* field = field_index(key);
  if (!field) return nullptr;
  auto it = field->find(value);
  return it == field->end() ? nullptr : &entries[it->second.front()];
}

std::vector<const Entry*> Table::find_all(std::string_view value, std::string_view key) const {
  std::vector<const Entry*> out;
  if (!indexed_ || value.empty()) {
    for (const Entry& e : entries)
      if (e.get(key) == value) out.push_back(&e);
    return out;
  }
  const auto* field = field_index(key);
  if (!field) return out;
  auto it = field->find(value);
  if (it != field->end())
    for (size_t i : it->second) out.push_back(&entries[i]);
  return out;
}

const Table::ByName<std::vector<size_t>>* Table::field_index(std::string_view field) const {
  for (const auto& [name, values] : index_)
    if (name == field) return &values;
  return nullptr;
}

void Table::index_fields() {
  index_.clear();
  for (size_t i = 0; i < entries.size(); ++i)
    for (const auto& kv : entries[i].fields) {
      const auto& field = kv.first;  // a plain name: lambdas may not capture structured bindings (C++20 before P1091)
      auto at = std::find_if(index_.begin(), index_.end(), [&](const auto& f) { return f.first == field; });
      if (at == index_.end()) at = index_.insert(at, {field, {}});
      at->second[kv.second].push_back(i);
    }
  indexed_ = true;
}

std::vector<std::string> Table::values(std::string_view key) const {
  std::vector<std::string> v;
  for (const Entry& e : entries)
    if (e.fields.count(key)) v.push_back(e.get(key));
  return v;
}

std::vector<const Entry*> Table::matches(std::string_view text) const {
  std::vector<const Entry*> out;
  if (!set_) return out;
  re2::StringPiece in(text.data(), text.size());
  std::vector<int> hit;  // (most texts match nothing: asked first without a list, which allocates nothing)
  if (!set_->may_match(text) || !set_->set.Match(in, nullptr) || !set_->set.Match(in, &hit)) return out;
  std::sort(hit.begin(), hit.end());
  for (int i : hit) out.push_back(&entries[pattern_entry_[static_cast<size_t>(i)]]);
  return out;
}

const Entry* Table::match(std::string_view text) const {
  auto m = matches(text);
  return m.empty() ? nullptr : m.front();
}

std::string Table::compile_patterns() {
  auto set = std::make_shared<PatternSet>();
  pattern_entry_.clear();
  std::vector<std::string> patterns;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& p = entries[i].get("pattern");
    if (p.empty()) continue;
    std::string err;
    if (set->set.Add(p, &err) < 0) return "pattern '" + p + "': " + err;
    entries[i].re = std::make_shared<const RE2>(p);
    pattern_entry_.push_back(i);
    patterns.push_back(p);
  }
  if (pattern_entry_.empty()) return "";
  if (!set->set.Compile()) return "patterns do not compile together";
  set->literals = required_literals(patterns);
  set_ = std::move(set);
  return "";
}

namespace {

struct Store {
  std::map<std::string, Table, std::less<>> tables;
  std::unordered_map<std::string_view, const Table*> by_name;  // table() runs per query: a hash, not a tree
  std::vector<std::string> errors;
};

// One token of the packed tables (cmake/knowledge_pack.cpp): <tag><length>:<bytes>.
struct Token {
  char tag = 0;  // 0: the end, or a malformed token
  std::string_view text;
};

Token next_token(std::string_view& in) {
  size_t colon = in.find(':');
  size_t n = 0;
  if (colon == std::string_view::npos || colon < 2) return {};
  auto [p, ec] = std::from_chars(in.data() + 1, in.data() + colon, n);
  if (ec != std::errc() || p != in.data() + colon || n > in.size() - colon - 1) return {};
  Token t{in[0], in.substr(colon + 1, n)};
  in.remove_prefix(colon + 1 + n);
  return t;
}

// Builds the tables from the tokens, checking what the YAML files cannot say for themselves.
class Unpacker {
 public:
  explicit Unpacker(Store& st) : st_(st) {}
  void take(const Token& t);
  void finish();  // the table read so far, into the store

 private:
  void field(char tag, std::string text);
  Store& st_;
  std::string file_, source_, key_;  // the table's source; the field or list being read
  std::optional<Table> table_;
  Entry* entry_ = nullptr;
};

void Unpacker::take(const Token& t) {
  std::string text(t.text);
  switch (t.tag) {
    case 'f': finish(); file_ = text; return;
    case 'x': st_.errors.push_back(file_ + ": " + text); return;
    case 't': finish(); table_.emplace(); table_->name = text; table_->file = file_; return;
    default: break;
  }
  if (!table_) return;
  if (t.tag == 'a') table_->about = text;
  else if (t.tag == 's') source_ = table_->source = text;
  else if (t.tag == 'e') entry_ = &table_->entries.emplace_back();
  else if (entry_) field(t.tag, std::move(text));
}

void Unpacker::field(char tag, std::string text) {
  if (tag == 'k') key_ = std::move(text);
  else if (tag == 'v') entry_->fields[key_] = std::move(text);
  else if (tag == 'l') key_ = std::move(text), entry_->lists[key_];  // an empty list is a list
  else if (tag == 'i') entry_->lists[key_].push_back(std::move(text));
}

void Unpacker::finish() {
  if (!table_) return;
  Table& t = *table_;
  for (Entry& e : t.entries) {
    e.source = e.get("source").empty() ? source_ : e.get("source");
    if (e.source.empty()) st_.errors.push_back(t.file + ": " + t.name + ": an entry has no source");
  }
  if (std::string err = t.compile_patterns(); !err.empty()) st_.errors.push_back(t.file + ": " + t.name + ": " + err);
  t.index_fields();
  if (st_.tables.count(t.name)) st_.errors.push_back(t.file + ": table " + t.name + " is defined twice");
  st_.tables.emplace(t.name, std::move(t));
  table_.reset();
  entry_ = nullptr;
  source_.clear();
}

const Store& store() {
  static const Store st = [] {
    Store s;
    Unpacker u(s);
    std::string_view in = packed_knowledge();
    for (Token t = next_token(in); t.tag; t = next_token(in)) u.take(t);
    u.finish();
    if (!in.empty()) s.errors.push_back("the packed knowledge tables are cut short");
    for (const auto& [name, t] : s.tables) s.by_name.emplace(name, &t);
    return s;
  }();
  return st;
}

}  // namespace

// Names are mostly literals: a small per-thread memo keyed by the name's address skips hashing
// it (the name is still compared, so an address reused for another name finds nothing wrong).
const Table& table(std::string_view name) {
  struct Slot { const char* at = nullptr; const Table* t = nullptr; };
  thread_local std::array<Slot, 64> memo;
  Slot& slot = memo[(reinterpret_cast<uintptr_t>(name.data()) >> 3) & 63];
  if (slot.at == name.data() && slot.t->name == name) return *slot.t;
  const Store& st = store();
  auto it = st.by_name.find(name);
  if (it == st.by_name.end()) throw std::logic_error("no knowledge table named " + std::string(name));
  slot = {name.data(), it->second};
  return *it->second;
}

bool in(std::string_view table_name, std::string_view value) { return table(table_name).contains(value); }

std::vector<const Table*> all_tables() {
  std::vector<const Table*> v;
  for (auto& [n, t] : store().tables) v.push_back(&t);
  return v;
}

const std::vector<std::string>& load_errors() { return store().errors; }

}  // namespace sc::knowledge

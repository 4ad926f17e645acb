// SPDX-License-Identifier: Apache-2.0
// TOML configs via toml++ (Debian libtomlplusplus-dev): a TOML 1.0-conformant
// parser that records the source line/column of every key and value.
#include <toml++/toml.h>

#include <sstream>

#include "core/source.h"
#include "parsers/config.h"

namespace sc {
namespace {

Range to_range(const toml::source_region& r) {
  Range out;
  out.line = static_cast<int>(r.begin.line);
  out.col = static_cast<int>(r.begin.column);
  out.end_line = static_cast<int>(r.end.line);
  out.end_col = static_cast<int>(r.end.column);
  if (out.end_line < out.line || (out.end_line == out.line && out.end_col < out.col)) {
    out.end_line = out.line;
    out.end_col = out.col;
  }
  return out;
}

std::string scalar_text(const toml::node& n) {
  if (auto s = n.as_string()) return s->get();
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (auto b = n.as_boolean()) return b->get() ? "true" : "false";
  if (auto f = n.as_floating_point()) {
    std::ostringstream o;
    o << f->get();
    return o.str();
  }
  std::ostringstream o;
  if (auto d = n.as_date()) o << d->get();
  else if (auto t = n.as_time()) o << t->get();
  else if (auto dt = n.as_date_time()) o << dt->get();
  return o.str();
}

struct TomlWalker {
  PathRef path;
  std::vector<ConfigEntry>& out;
  int depth = 0;

  void node(const toml::node& n, std::vector<std::string>& keys, Location kl) {
    if (++depth > 200) { --depth; return; }
    ConfigEntry e;
    e.path = keys;
    e.key_loc = kl;
    e.value_loc = {path, to_range(n.source())};
    if (auto t = n.as_table()) {
      e.scalar = false;
      if (!keys.empty()) out.push_back(e);
      for (auto&& [k, v] : *t) {
        keys.emplace_back(k.str());
        node(v, keys, Location{path, to_range(k.source())});
        keys.pop_back();
      }
    } else if (auto a = n.as_array()) {
      e.scalar = false;
      if (!keys.empty()) out.push_back(e);
      for (size_t i = 0; i < a->size(); ++i) {
        keys.push_back("[" + std::to_string(i) + "]");
        const toml::node& item = *a->get(i);
        node(item, keys, Location{path, to_range(item.source())});
        keys.pop_back();
      }
    } else {
      e.value = scalar_text(n);
      if (!keys.empty()) out.push_back(e);
    }
    --depth;
  }
};

}  // namespace

void toml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag) {
  try {
    toml::table tbl = toml::parse(std::string_view(src.text()), std::string_view(src.path()));
    TomlWalker w{src.path(), out};
    std::vector<std::string> keys;
    w.node(tbl, keys, Location{src.path(), {}});
  } catch (const toml::parse_error& e) {
    Range r = to_range(e.source());
    r.end_col = r.col + 1;
    r.end_line = r.line;
    diag.error(src.path(), r, "TOML syntax error: " + std::string(e.description()));
  }
}

namespace {
class TomlParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Toml; }
  bool accepts(const FileInfo& f) const override { return ends_with(lower(f.name), ".toml"); }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    toml_entries(src, out.config.edit(), diag);
  }
};
}  // namespace
SPARKCHECK_PARSER(TomlParser);

}  // namespace sc

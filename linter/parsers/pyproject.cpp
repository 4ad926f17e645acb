// SPDX-License-Identifier: Apache-2.0
// pyproject.toml: dependency lists ([project], [dependency-groups], [tool.uv],
// [build-system]) and package indexes ([[tool.uv.index]], legacy uv/poetry keys).
// toml++ (Debian libtomlplusplus-dev) is TOML 1.0-conformant and keeps the source
// position of every node, so each requirement points at its own string.
#include <toml++/toml.h>

#include "core/registry.h"
#include "parsers/config.h"
#include "parsers/packaging.h"

namespace sc {
namespace {

Location toml_loc(PathRef path, const toml::source_region& r) {
  Range out{static_cast<int>(r.begin.line), static_cast<int>(r.begin.column), static_cast<int>(r.end.line),
            static_cast<int>(r.end.column)};
  if (out.end_line < out.line || (out.end_line == out.line && out.end_col < out.col)) {
    out.end_line = out.line;
    out.end_col = out.col;
  }
  return {path, out};
}

// One [tool.uv.sources] entry (a table, or an array of tables) that sends a package to the
// index `name`: its marker, "" when it has none.
void markers_for(const toml::node& entry, const std::string& name, std::vector<std::string>& out) {
  auto one = [&](const toml::table& t) {
    if (t["index"].value_or(std::string()) == name) out.push_back(t["marker"].value_or(std::string()));
  };
  if (auto t = entry.as_table()) one(*t);
  if (auto a = entry.as_array())
    for (const toml::node& el : *a)
      if (auto t = el.as_table()) one(*t);
}

// An explicit uv index serves only what [tool.uv.sources] sends to it.
void source_markers(const toml::table& tbl, const toml::node* name, IndexUrl& ix) {
  ix.by_source = true;
  std::string n = name ? name->value_or(std::string()) : std::string();
  if (n.empty()) return;
  if (auto sources = tbl["tool"]["uv"]["sources"].as_table())
    for (auto&& [pkg, entry] : *sources) markers_for(entry, n, ix.source_markers);
}

class PyprojectParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Pyproject; }
  int priority() const override { return 10; }
  bool accepts(const FileInfo& f) const override { return lower(f.name) == "pyproject.toml"; }

  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    toml::table tbl;
    try {
      tbl = toml::parse(std::string_view(src.text()), std::string_view(src.path()));
    } catch (const toml::parse_error& e) {
      Location l = toml_loc(src.path(), e.source());
      l.range.end_line = l.range.line;
      l.range.end_col = l.range.col + 1;
      diag.error(src.path(), l.range,
                 src.path() + ":" + std::to_string(l.range.line) + ": TOML syntax error: " + std::string(e.description()));
      return;
    }
    Install in;
    in.tool = Installer::PyprojectDeps;
    in.loc = {src.path(), {1, 1, 1, 1 + utf8_cols(src.line(1), src.line(1).size())}};
    if (auto p = tbl["project"].as_table()) in.loc = toml_loc(src.path(), p->source());
    auto add_list = [&](const toml::node* n) {
      const toml::array* arr = n ? n->as_array() : nullptr;
      if (!arr) return;
      for (const toml::node& el : *arr) {
        auto s = el.as_string();
        if (!s) continue;
        Requirement r;
        if (!parse_requirement(s->get(), r)) {
          diag.warn(src.path(), toml_loc(src.path(), el.source()).range,
                    "not a valid dependency specifier: '" + s->get() + "'", "requirement-syntax");
          continue;
        }
        r.loc = toml_loc(src.path(), el.source());
        in.packages.push_back(std::move(r));
      }
    };
    auto add_groups = [&](const toml::node* n) {
      const toml::table* t = n ? n->as_table() : nullptr;
      if (!t)
        return;
      for (auto&& [k, v] : *t) add_list(&v);
    };
    add_list(tbl["project"]["dependencies"].node());
    add_groups(tbl["project"]["optional-dependencies"].node());
    add_groups(tbl["dependency-groups"].node());
    add_list(tbl["tool"]["uv"]["override-dependencies"].node());
    add_list(tbl["tool"]["uv"]["constraint-dependencies"].node());
    add_list(tbl["tool"]["uv"]["dev-dependencies"].node());
    add_list(tbl["build-system"]["requires"].node());

    auto add_index = [&](const toml::node* n, IndexRole role) {
      if (!n) return;
      if (auto s = n->as_string()) in.indexes.push_back({s->get(), role, toml_loc(src.path(), n->source())});
      if (auto a = n->as_array())
        for (const toml::node& el : *a)
          if (auto s = el.as_string()) in.indexes.push_back({s->get(), role, toml_loc(src.path(), el.source())});
    };
    if (auto idx = tbl["tool"]["uv"]["index"].as_array())
      for (const toml::node& el : *idx)
        if (auto t = el.as_table()) {
          add_index(t->get("url"), IndexRole::UvIndex);
          if (auto ex = t->get("explicit"); ex && ex->value_or(false) && !in.indexes.empty() && t->get("url"))
            source_markers(tbl, t->get("name"), in.indexes.back());
        }
    add_index(tbl["tool"]["uv"]["index-url"].node(), IndexRole::IndexUrl);
    add_index(tbl["tool"]["uv"]["extra-index-url"].node(), IndexRole::ExtraIndexUrl);
    add_index(tbl["tool"]["uv"]["find-links"].node(), IndexRole::FindLinks);
    if (auto srcs = tbl["tool"]["poetry"]["source"].as_array())
      for (const toml::node& el : *srcs)
        if (auto t = el.as_table()) add_index(t->get("url"), IndexRole::ExtraIndexUrl);

    for (auto& ix : in.indexes) out.indexes.push_back(ix);
    out.installs.push_back(std::move(in));
    ParseDiag ignored;  // syntax errors were reported above
    toml_entries(src, out.config.edit(), ignored);
  }
};

}  // namespace
SPARKCHECK_PARSER(PyprojectParser);
}  // namespace sc

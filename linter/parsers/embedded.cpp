// SPDX-License-Identifier: Apache-2.0
#include "parsers/embedded.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "parsers/shell.h"

namespace sc {

void EmbedMap::add(const SourceFile& real, int real_line, std::string_view view_line) {
  Line l{real_line, 0};
  if (real_line >= 1 && real_line <= real.line_count()) {
    std::string_view rl = real.line(real_line);
    if (!rl.empty() && rl.back() == '\r') rl.remove_suffix(1);
    if (!view_line.empty() && view_line.back() == '\r') view_line.remove_suffix(1);
    if (ends_with(rl, view_line)) l.cols = utf8_cols(rl, rl.size() - view_line.size());
    else if (size_t k = rl.find(view_line); k != std::string_view::npos) l.cols = utf8_cols(rl, k);
  }
  lines.push_back(l);
}

Range embed_range(const EmbedMap& m, Range r) {
  if (!r.valid() || m.lines.empty()) return r;
  auto at = [&](int vl) -> const EmbedMap::Line& {
    size_t i = static_cast<size_t>(std::max(1, vl) - 1);
    return m.lines[std::min(i, m.lines.size() - 1)];
  };
  const EmbedMap::Line& b = at(r.line);
  const EmbedMap::Line& e = at(r.end_line > 0 ? r.end_line : r.line);
  bool past = r.end_line > static_cast<int>(m.lines.size());  // end of text after the last newline
  Range out{b.line, r.col + b.cols, e.line, past ? e.cols + 1 : r.end_col + e.cols};
  if (r.end_line <= 0) { out.end_line = 0; out.end_col = 0; }
  return out;
}

namespace {

void install_locations(Install& in, const std::function<void(Location&)>& fn) {
  fn(in.loc);
  for (Requirement& r : in.packages) fn(r.loc);
  for (auto& [s, l] : in.requirement_files) fn(l);
  for (auto& [s, l] : in.constraint_files) fn(l);
  for (IndexUrl& u : in.indexes) fn(u.loc);
}

void each_location(FileFacts& f, const std::function<void(Location&)>& fn) {
  auto cmd = [&](Command& c) {
    fn(c.loc);
    for (Word& w : c.argv) fn(w.loc);
    for (auto& [n, w] : c.env) fn(w.loc);
  };
  for (Install& in : f.installs) install_locations(in, fn);
  for (IndexUrl& u : f.indexes) fn(u.loc);
  for (Image& im : f.images) fn(im.loc);
  for (EnvSetting& e : f.env) fn(e.loc);
  for (FileRef& r : f.refs) fn(r.loc);
  for (Command& c : f.commands) cmd(c);
  for (Command& c : f.sbatch) cmd(c);
  for (Command& c : f.arg_lists) cmd(c);
  for (ConfigEntry& e : f.config) { fn(e.key_loc); fn(e.value_loc); }
  for (PyImport& i : f.python.imports) fn(i.loc);
  for (PyCall& c : f.python.calls) {
    fn(c.loc);
    for (PyArg& a : c.args) fn(a.loc);
  }
  for (PyAssign& a : f.python.assigns) fn(a.loc);
  for (auto& [s, l] : f.python.strings) fn(l);
  for (Expansion& x : f.expansions) { fn(x.written); fn(x.used); }
  for (BuildSpec& b : f.builds) {
    fn(b.loc);
    for (EnvSetting& e : b.args) fn(e.loc);
  }
}

template <class T> void append(FactList<T>& into, FactList<T>& from) {
  for (T& x : from) into.push_back(std::move(x));
}

}  // namespace

void embed_remap(FileFacts& f, ParseDiag& d, const EmbedMap& m) {
  each_location(f, [&](Location& l) { l.range = embed_range(m, l.range); });
  for (Notification& n : d.notes) n.range = embed_range(m, n.range);
}

void embed_merge(FileFacts& into, FileFacts&& from, int stage_shift) {
  auto shift = [&](int& s) { if (s >= 0) s += stage_shift; };
  for (Install& x : from.installs) shift(x.stage);
  for (Image& x : from.images) { shift(x.stage); shift(x.parent_stage); }
  for (EnvSetting& x : from.env) shift(x.stage);
  for (FileRef& x : from.refs) shift(x.stage);
  for (Command& x : from.commands) shift(x.stage);
  for (Command& x : from.arg_lists) shift(x.stage);
  append(into.installs, from.installs);
  append(into.indexes, from.indexes);
  append(into.images, from.images);
  append(into.env, from.env);
  append(into.refs, from.refs);
  append(into.commands, from.commands);
  append(into.config, from.config);
  append(into.python.imports, from.python.imports);
  append(into.python.calls, from.python.calls);
  append(into.python.assigns, from.python.assigns);
  append(into.python.strings, from.python.strings);
  append(into.sbatch, from.sbatch);
  append(into.arg_lists, from.arg_lists);
  append(into.expansions, from.expansions);
  append(into.builds, from.builds);
  for (auto& [k, v] : from.locked) into.locked.emplace(k, v);
}

bool parse_embedded(const SourceFile& real, const std::string& name, std::string text, const EmbedMap& m,
                    FileFacts& out, ParseDiag& diag) {
  FileInfo info{real.path(), name, {}};
  const Parser* p = parser_for(info);
  if (!p) return false;
  SourceFile view(real.path(), std::move(text));
  FileFacts tmp;
  tmp.kind = p->kind();
  ParseDiag d;
  p->parse(view, tmp, d);
  embed_remap(tmp, d, m);
  int shift = static_cast<int>(out.images.size());  // a stage is an image's index (Dockerfile, compose image:)
  embed_merge(out, std::move(tmp), shift);
  for (Notification& n : d.notes) diag.notes.push_back(std::move(n));
  return true;
}

EmbedMap yaml_scalar_map(const SourceFile& real, const ConfigEntry& e) {
  EmbedMap m;
  int line = e.value_loc.range.line;
  for (const std::string& l : split(e.value, '\n')) {
    int at = line;
    for (int k = line; k <= std::min(real.line_count(), line + 50); ++k)
      if (real.line(k).find(l) != std::string_view::npos) {
        at = k;
        break;
      }
    m.add(real, at, l);
    line = at + 1;
  }
  return m;
}

void embed_shell(const SourceFile& real, std::string text, const EmbedMap& m,
                 const std::map<std::string, std::string>& vars, CommandContext context, FileFacts& out,
                 ParseDiag& diag) {
  SourceFile view(real.path(), std::move(text));
  FileFacts tmp;
  ParseDiag d;
  parse_shell(view, vars, -1, context, tmp, d);
  embed_remap(tmp, d, m);
  embed_merge(out, std::move(tmp), 0);
  for (Notification& n : d.notes) diag.notes.push_back(std::move(n));
}

void yaml_image(const ConfigEntry& e, const std::string& ref, FileFacts& out) {
  Expanded x = expand_word(ref, {});
  if (!x.resolved || x.text.empty()) return;
  Image im;
  im.ref = x.text;
  im.stage = -1;
  im.loc = e.value_loc;
  out.images.push_back(std::move(im));
}

// `-c`, `-lc`, `-ec`, `-euxc`: a shell's short options ending the list with `-c`.
static bool shell_c_option(const std::string& a) {
  if (a.size() < 2 || a.size() > 6 || a[0] != '-' || a.back() != 'c') return false;
  return std::all_of(a.begin() + 1, a.end(), [](char ch) { return std::strchr("celux", ch) != nullptr; });
}

const ConfigEntry* yaml_argv(const std::vector<const ConfigEntry*>& items, CommandContext context,
                             FileFacts& out) {
  Command c;
  c.context = context;
  c.loc = items[0]->value_loc;
  for (const ConfigEntry* e : items) c.argv.push_back(Word{e->value, e->value, true, e->value_loc});
  out.commands.push_back(c);
  const std::string& a0 = c.argv[0].text;
  std::string prog = a0.substr(a0.rfind('/') == std::string::npos ? 0 : a0.rfind('/') + 1);
  if (shell_c_option(a0) && items.size() == 2) return items[1];  // `[-lc, "..."]` for a shell entrypoint
  if (prog != "bash" && prog != "sh") return nullptr;
  for (size_t i = 1; i + 1 < items.size(); ++i)
    if (starts_with(items[i]->value, "-") && items[i]->value.find('c') != std::string::npos) return items[i + 1];
  return nullptr;
}

}  // namespace sc

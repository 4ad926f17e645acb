#include "parsers/embedded.h"

#include <functional>

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

void each_location(FileFacts& f, const std::function<void(Location&)>& fn) {
  auto cmd = [&](Command& c) {
    fn(c.loc);
    for (Word& w : c.argv) fn(w.loc);
    for (auto& [n, w] : c.env) fn(w.loc);
  };
  for (Install& in : f.installs) {
    fn(in.loc);
    for (Requirement& r : in.packages) fn(r.loc);
    for (auto& [s, l] : in.requirement_files) fn(l);
    for (auto& [s, l] : in.constraint_files) fn(l);
    for (IndexUrl& u : in.indexes) fn(u.loc);
  }
  for (IndexUrl& u : f.indexes) fn(u.loc);
  for (Image& im : f.images) fn(im.loc);
  for (EnvSetting& e : f.env) fn(e.loc);
  for (FileRef& r : f.refs) fn(r.loc);
  for (Command& c : f.commands) cmd(c);
  for (Command& c : f.sbatch) cmd(c);
  for (ConfigEntry& e : f.config) { fn(e.key_loc); fn(e.value_loc); }
  for (PyImport& i : f.python.imports) fn(i.loc);
  for (PyCall& c : f.python.calls) {
    fn(c.loc);
    for (PyArg& a : c.args) fn(a.loc);
  }
  for (PyAssign& a : f.python.assigns) fn(a.loc);
  for (auto& [s, l] : f.python.strings) fn(l);
}

template <class T> void append(std::vector<T>& into, std::vector<T>& from) {
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
  int shift = p->kind() == FileKind::Dockerfile ? static_cast<int>(out.images.size()) : 0;
  embed_merge(out, std::move(tmp), shift);
  for (Notification& n : d.notes) diag.notes.push_back(std::move(n));
  return true;
}

}  // namespace sc

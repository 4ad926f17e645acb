// SPDX-License-Identifier: Apache-2.0
// Makefiles (Makefile, GNUmakefile, *.mk): recipe lines (tab-indented, `\` continued)
// are parsed as shell, each where it stands (make's $(VAR) reads as an unknown value);
// variable assignments (`NVCC_FLAGS += -gencode ...`) become EnvSetting facts and a
// Command whose argv is the name then the value's words, so flags in them keep their place.
#include <algorithm>

#include "parsers/embedded.h"
#include "parsers/shell.h"

namespace sc {
namespace {

// `NAME = v`, `NAME := v`, `NAME ?= v`, `NAME += v`, `export NAME = v`: the name's end and
// the value's start, or {0, 0}.
std::pair<size_t, size_t> assignment(std::string_view l) {
  size_t s = l.find_first_not_of(' ');
  for (std::string_view kw : {"export ", "override "})
    if (s != std::string_view::npos && l.substr(s, kw.size()) == kw) s = l.find_first_not_of(' ', s + kw.size());
  if (s == std::string_view::npos) return {0, 0};
  size_t e = s;
  while (e < l.size() && (std::isalnum(static_cast<unsigned char>(l[e])) || l[e] == '_')) ++e;
  if (e == s) return {0, 0};
  size_t op = l.find_first_not_of(' ', e);
  if (op == std::string_view::npos) return {0, 0};
  for (std::string_view o : {"::=", ":=", "?=", "+=", "="})
    if (l.substr(op, o.size()) == o) {
      size_t v = l.find_first_not_of(' ', op + o.size());
      return {e, v == std::string_view::npos ? l.size() : v};
    }
  return {0, 0};
}

// A recipe line as the shell sees it, every column kept: `$$` is a literal `$` (read as
// ` $`); make's own references, $(VAR), ${VAR}, $(shell ...), $@, $<, become a shell
// variable of the same length that nothing sets (an unknown value).
// The end of the $(...) / ${...} opening at `k + 1` (its closing bracket), or npos.
size_t reference_end(const std::string& s, size_t k) {
  char open = s[k + 1], close = open == '(' ? ')' : '}';
  int depth = 0;
  for (size_t e = k + 1; e < s.size(); ++e) {
    if (s[e] == open) ++depth;
    if (s[e] == close && --depth == 0) return e;
  }
  return std::string::npos;
}

std::string make_to_shell(std::string s) {
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (s[k] != '$') continue;
    char n = s[k + 1];
    if (n == '$') {
      s[k++] = ' ';
    } else if (n == '(' || n == '{') {
      size_t e = reference_end(s, k);
      if (e == std::string::npos) continue;
      std::fill(s.begin() + static_cast<long>(k) + 1, s.begin() + static_cast<long>(e) + 1, '_');
      k = e;
    } else if (std::string_view("@<^?*+%").find(n) != std::string_view::npos) {
      s[++k] = '_';
    }
  }
  return s;
}

class MakeReader {
 public:
  MakeReader(const SourceFile& src, FileFacts& out, ParseDiag& diag) : src_(src), out_(out), diag_(diag) {}

  void run() {
    for (int ln = 1; ln <= src_.line_count();) {
      std::string_view l = src_.line(ln);
      int last = ln;
      while (last < src_.line_count() && ends_with(src_.line(last), "\\")) ++last;
      if (!l.empty() && l[0] == '\t') recipe(ln, last);
      else variable(ln, last);
      ln = last + 1;
    }
  }

 private:
  const SourceFile& src_;
  FileFacts& out_;
  ParseDiag& diag_;

  void recipe(int first, int last) {
    std::string text;
    EmbedMap m;
    for (int ln = first; ln <= last; ++ln) {
      std::string_view l = src_.line(ln);
      size_t s = l.find_first_not_of(" \t@-+");
      std::string view(s == std::string_view::npos ? std::string_view() : l.substr(s));
      m.add(src_, ln, view);
      text += make_to_shell(view) + "\n";
    }
    embed_shell(src_, text, m, {}, CommandContext::Make, out_, diag_);
  }

  // An assignment, its `\`-continued lines read whole: every word keeps its own place.
  void variable(int ln, int last) {
    std::string_view l = src_.line(ln);
    auto [name_end, value] = assignment(l);
    if (!name_end || l.substr(0, 1) == "#") return;
    size_t base = src_.line_start(ln);
    size_t ns = l.find_last_of(' ', name_end - 1);
    ns = ns == std::string_view::npos || ns > name_end ? 0 : ns + 1;
    std::string name(l.substr(ns, name_end - ns));
    Command c;
    c.context = CommandContext::Make;
    c.argv.push_back(Word{name, name, true, src_.loc(base + ns, base + name_end)});
    std::string v;
    for (int k = ln; k <= last; ++k) {
      std::string_view t = src_.line(k);
      if (k < last && ends_with(t, "\\")) t.remove_suffix(1);
      value_words(t, k == ln ? value : 0, src_.line_start(k), c, v);
    }
    size_t end = src_.line_start(last) + src_.line(last).size();
    out_.env.push_back({name, v, EnvOrigin::Make, -1, src_.loc(base + value, end)});
    c.loc = src_.loc(base + ns, end);
    out_.commands.push_back(std::move(c));
  }

  // The words of `l` from byte `from` on (line start `base`) appended to `c` and to the value `v`.
  void value_words(std::string_view l, size_t from, size_t base, Command& c, std::string& v) {
    for (size_t k = from; k < l.size();) {
      size_t s = l.find_first_not_of(" \t", k);
      if (s == std::string_view::npos) break;
      size_t e = std::min(l.find_first_of(" \t", s), l.size());
      std::string w(l.substr(s, e - s));
      c.argv.push_back(Word{w, w, w.find('$') == std::string::npos, src_.loc(base + s, base + e)});
      v += (v.empty() ? "" : " ") + w;
      k = e;
    }
  }
};

class MakeParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Makefile; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return n == "makefile" || n == "gnumakefile" || ends_with(n, ".mk");
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Makefile;
    MakeReader(src, out, diag).run();
  }
};

}  // namespace

SPARKCHECK_PARSER(MakeParser);

}  // namespace sc

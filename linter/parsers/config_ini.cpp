// SPDX-License-Identifier: Apache-2.0
// INI-style text (Markdown ```ini / ```cfg / ```conf blocks): `[section]` headers and
// `key = value` / `key: value` lines become config entries (section.key); `;` and `#`
// start comments. systemd units written that way also run things: `Environment=`
// assignments become environment settings and `ExecStart=` (and its Pre/Post/Reload
// forms) a command line, read as shell with those variables known.
#include <map>

#include "parsers/config.h"
#include "parsers/embedded.h"

namespace sc {
namespace {

bool exec_key(const std::string& k) {
  return k == "ExecStart" || k == "ExecStartPre" || k == "ExecStartPost" || k == "ExecReload" || k == "ExecStop";
}

class IniReader {
 public:
  IniReader(const SourceFile& src, FileFacts& out, ParseDiag& diag) : src_(src), out_(out), diag_(diag) {}

  void run() {
    for (int l = 1; l <= src_.line_count(); ++l) l = line(l);
  }

 private:
  const SourceFile& src_;
  FileFacts& out_;
  ParseDiag& diag_;
  std::string section_;
  std::map<std::string, std::string> vars_;

  Location at(int l, size_t b, size_t e) const { return src_.loc(src_.line_start(l) + b, src_.line_start(l) + e); }

  // Reads line `l` (and its `\` continuations); returns the last line read.
  int line(int l) {
    std::string_view t = src_.line(l);
    size_t b = t.find_first_not_of(" \t");
    if (b == std::string_view::npos || t[b] == ';' || t[b] == '#') return l;
    if (t[b] == '[') {
      size_t e = t.find(']', b);
      if (e != std::string_view::npos) section_ = trim(t.substr(b + 1, e - b - 1));
      return l;
    }
    size_t sep = t.find_first_of("=:", b);
    if (sep == std::string_view::npos) return l;
    std::string key = trim(t.substr(b, sep - b));
    size_t vb = t.find_first_not_of(" \t", sep + 1);
    if (key.empty()) return l;
    if (vb == std::string_view::npos) vb = t.size();
    ConfigEntry e;
    e.path = section_.empty() ? KeyPath::Parts{key} : KeyPath::Parts{section_, key};
    e.value = trim(t.substr(vb));
    e.key_loc = at(l, b, b + key.size());
    e.value_loc = at(l, vb, t.size());
    out_.config.push_back(e);
    if (key == "Environment") environment(l, vb);
    if (exec_key(key)) return exec(l, vb);
    return l;
  }

  // Environment="A=1" "B=2" / Environment=A=1 B=2
  void environment(int l, size_t vb) {
    std::string_view t = src_.line(l);
    size_t i = vb;
    while (i < t.size()) {
      while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
      if (i >= t.size()) break;
      bool q = t[i] == '"';
      size_t b = q ? i + 1 : i;
      size_t e = q ? t.find('"', b) : t.find_first_of(" \t", b);
      if (e == std::string_view::npos) e = t.size();
      std::string_view w = t.substr(b, e - b);
      size_t eq = w.find('=');
      if (eq != std::string_view::npos && eq > 0) {
        std::string name(w.substr(0, eq)), value(w.substr(eq + 1));
        vars_[name] = value;
        out_.env.push_back({name, value, EnvOrigin::Env, -1, at(l, b + eq + 1, e)});
      }
      i = q ? e + 1 : e;
    }
  }

  // ExecStart=-/usr/bin/vllm serve ... \  (prefixes - @ + ! : are systemd's, not the program's)
  int exec(int l, size_t vb) {
    std::string_view first = src_.line(l);
    while (vb < first.size() && std::string_view("-@+!:").find(first[vb]) != std::string_view::npos) ++vb;
    EmbedMap m;
    std::string text;
    int last = l;
    for (int k = l; k <= src_.line_count(); ++k) {
      std::string_view t = src_.line(k);
      std::string_view part = k == l ? t.substr(std::min(vb, t.size())) : t;
      m.add(src_, k, part);
      text += std::string(part) + "\n";
      last = k;
      std::string tt = trim(part);
      if (tt.empty() || tt.back() != '\\') break;
    }
    embed_shell(src_, std::move(text), m, vars_, CommandContext::Script, out_, diag_);
    return last;
  }
};

}  // namespace

void ini_entries(const SourceFile& src, FileFacts& out, ParseDiag& diag) { IniReader(src, out, diag).run(); }

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Dockerfile / Containerfile parser (hand-written, line based, following
// BuildKit's rules): parser directives, escape-char continuations (comment and
// blank lines inside a continuation are dropped), heredocs, ARG/ENV
// substitution, stages, COPY/ADD sources, and RUN/CMD/ENTRYPOINT bodies handed
// to the shell layer as views that map back to Dockerfile positions.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

#include "parsers/dockerfile.h"
#include "parsers/shell.h"

namespace sc {
namespace {

struct Segment {
  int line;          // 1-based real line
  size_t col;        // byte column in that line where this segment starts
  std::string text;  // segment text (continuation escape already removed)
  bool continued;    // ended with the escape char
};

// Argument text of one instruction joined the way BuildKit joins it, with the
// file byte offset of every character.
struct Joined {
  std::string text;
  std::vector<size_t> off;
};

struct Heredoc {
  std::string delim;
  bool strip_tabs = false;
  bool quoted = false;
  std::vector<int> lines;  // body lines (real line numbers)
  int end_line = 0;        // the delimiter line, 0 when unterminated
};

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string docker_subst(const std::string& s, const std::map<std::string, std::string>& vars, char esc,
                         bool* unresolved = nullptr) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == esc && i + 1 < s.size() && s[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    if (c != '$' || i + 1 >= s.size()) {
      out += c;
      continue;
    }
    std::string name, op, word;
    size_t j = i + 1;
    if (s[j] == '{') {
      size_t close = s.find('}', j);
      if (close == std::string::npos) {
        out += c;
        continue;
      }
      std::string inner = s.substr(j + 1, close - j - 1);
      size_t k = 0;
      while (k < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[k])) || inner[k] == '_')) ++k;
      name = inner.substr(0, k);
      std::string rest = inner.substr(k);
      if (starts_with(rest, ":-") || starts_with(rest, ":+") || starts_with(rest, ":?")) {
        op = rest.substr(0, 2);
        word = rest.substr(2);
      } else if (!rest.empty() && (rest[0] == '-' || rest[0] == '+' || rest[0] == '?')) {
        op = rest.substr(0, 1);
        word = rest.substr(1);
      }
      i = close;
    } else if (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_') {
      size_t k = j;
      while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
      name = s.substr(j, k - j);
      i = k - 1;
    } else {
      out += c;
      continue;
    }
    auto it = vars.find(name);
    bool set = it != vars.end();
    bool nonempty = set && !it->second.empty();
    if (op == ":-") out += nonempty ? it->second : docker_subst(word, vars, esc, unresolved);
    else if (op == "-") out += set ? it->second : docker_subst(word, vars, esc, unresolved);
    else if (op == ":+") out += nonempty ? docker_subst(word, vars, esc, unresolved) : "";
    else if (op == "+") out += set ? docker_subst(word, vars, esc, unresolved) : "";
    else if (set) out += it->second;
    else if (unresolved) *unresolved = true;
  }
  return out;
}

struct Tok {
  std::string text;  // quotes removed (when unquote)
  size_t b, e;       // indexes into Joined::text
};

// Split on white space; with `quotes`, '...' and "..." group and are removed.
std::vector<Tok> split_words(const std::string& s, bool quotes, char esc) {
  std::vector<Tok> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    Tok t{"", i, i};
    char q = 0;
    while (i < s.size() && (q || !std::isspace(static_cast<unsigned char>(s[i])))) {
      char c = s[i];
      if (quotes && !q && (c == '"' || c == '\'')) { q = c; ++i; continue; }
      if (quotes && q && c == q) { q = 0; ++i; continue; }
      if (quotes && c == esc && i + 1 < s.size() && q != '\'') { t.text += s[i + 1]; i += 2; continue; }
      t.text += c;
      ++i;
    }
    t.e = i;
    out.push_back(t);
  }
  return out;
}

// A JSON array of strings with the position of each element. Returns false when
// the text is not one.
bool json_array(const std::string& s, std::vector<Tok>& out) {
  size_t i = 0;
  auto ws = [&] { while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i; };
  ws();
  if (i >= s.size() || s[i] != '[') return false;
  ++i;
  ws();
  if (i < s.size() && s[i] == ']') { ++i; ws(); return i == s.size(); }
  while (true) {
    ws();
    if (i >= s.size() || s[i] != '"') return false;
    Tok t{"", i, i};
    ++i;
    bool closed = false;
    while (i < s.size()) {
      char c = s[i];
      if (c == '"') { closed = true; ++i; break; }
      if (c == '\\' && i + 1 < s.size()) {
        char n = s[i + 1];
        switch (n) {
          case 'n': t.text += '\n'; break;
          case 't': t.text += '\t'; break;
          case 'u': t.text += '?'; i += 4; break;
          default: t.text += n;
        }
        i += 2;
        continue;
      }
      t.text += c;
      ++i;
    }
    if (!closed) return false;
    t.e = i;
    out.push_back(t);
    ws();
    if (i < s.size() && s[i] == ',') { ++i; continue; }
    if (i < s.size() && s[i] == ']') { ++i; ws(); return i == s.size(); }
    return false;
  }
}

CommandContext command_context(const std::string& kw) {
  if (kw == "CMD") return CommandContext::Cmd;
  if (kw == "ENTRYPOINT") return CommandContext::Entrypoint;
  return CommandContext::Run;
}

const std::set<std::string>& known_instructions() {
  static const std::set<std::string> s = {"FROM", "RUN", "CMD", "ENTRYPOINT", "LABEL", "MAINTAINER",
                                          "EXPOSE", "ENV", "ADD", "COPY", "VOLUME", "USER", "WORKDIR",
                                          "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"};
  return s;
}

class DockerfileParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Dockerfile; }
  int priority() const override { return 20; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    if (ends_with(n, ".dockerignore")) return false;
    if (ends_with(n, ".dockerfile") || ends_with(n, ".containerfile")) return true;
    for (const char* base : {"dockerfile", "containerfile"}) {
      if (n == base) return true;
      size_t k = std::strlen(base);
      if (starts_with(n, base) && n.size() > k + 1) {
        if (n[k] == '.') return true;                                                   // Dockerfile.cuda
        if (n[k] == '-' || n[k] == '_') return n.find('.', k) == std::string::npos;     // Dockerfile-arm64, not _guide.rst
      }
    }
    return false;
  }

  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    static const std::map<std::string, BuildArgValue> none;
    State st(src, out, diag, none);
    st.run();
  }

  struct State {
    State(const SourceFile& s, FileFacts& o, ParseDiag& d, const std::map<std::string, BuildArgValue>& a)
        : src(s), out(o), diag(d), build_args(a) {}
    const SourceFile& src;
    FileFacts& out;
    ParseDiag& diag;
    const std::map<std::string, BuildArgValue>& build_args;  // given from outside (compose build.args)
    char esc = '\\';
    // BuildKit's automatic platform ARGs, global (usable in FROM; a stage reads them after a bare
    // `ARG TARGETARCH`), as a native build on the DGX Spark sets them: linux/arm64
    // (https://docs.docker.com/build/building/variables/#multi-platform-build-arguments).
    std::map<std::string, std::string> global_args = {
        {"TARGETPLATFORM", "linux/arm64"}, {"TARGETOS", "linux"}, {"TARGETARCH", "arm64"}, {"TARGETVARIANT", ""},
        {"BUILDPLATFORM", "linux/arm64"},  {"BUILDOS", "linux"},  {"BUILDARCH", "arm64"},  {"BUILDVARIANT", ""}};
    std::map<std::string, std::string> vars;  // current stage ARG + ENV
    std::vector<std::map<std::string, std::string>> stage_env;  // ENV per stage (inherited by FROM <stage>)
    std::vector<std::set<int>> needs;  // per stage: the earlier stages it builds on, copies or mounts from
    int stage = -1;
    int n = 0;

    std::string where(int line) const { return src.path() + ":" + std::to_string(line); }

    // The build arg a text uses ($NAME, ${NAME...}), or null.
    const std::pair<const std::string, BuildArgValue>* uses_build_arg(std::string_view text) const {
      for (const auto& kv : build_args) {
        const std::string& n = kv.first;
        for (size_t k = text.find(n); k != std::string_view::npos; k = text.find(n, k + 1)) {
          bool ref = k > 0 && (text[k - 1] == '$' || (text[k - 1] == '{' && k > 1 && text[k - 2] == '$'));
          bool end = k + n.size() >= text.size() ||
                     !(std::isalnum(static_cast<unsigned char>(text[k + n.size()])) || text[k + n.size()] == '_');
          if (ref && end) return &kv;
        }
      }
      return nullptr;
    }

    // Where a value written as `raw` at `at` is written: the build arg it uses, if any
    // (recording `at` as the place that uses it), else `at`.
    Location written_at(std::string_view raw, const Location& at) {
      const auto* given = uses_build_arg(raw);
      if (!given) return at;
      out.expansions.push_back({given->second.loc, at, "build arg " + given->first + " used here"});
      return given->second.loc;
    }

    // Commands added from `first` on: their words that use a build arg move to where it is written.
    void relocate(size_t first) {
      if (build_args.empty()) return;
      for (size_t i = first; i < out.commands.size(); ++i)
        for (Word& w : out.commands[i].argv) w.loc = written_at(w.raw, w.loc);
    }
    Range line_range(int line) const {
      return {line, 1, line, 1 + utf8_cols(src.line(line), src.line(line).size())};
    }

    void run() {
      n = src.line_count();
      int ln = directives();
      bool any = false;
      while (ln <= n) {
        std::string_view l = src.line(ln);
        std::string t = trim(l);
        if (t.empty() || t[0] == '#') { ++ln; continue; }
        std::vector<Segment> segs;
        ln = collect(ln, segs);
        any = true;
        ln = instruction(segs, ln);
      }
      if (stage < 0) {
        Range r = any ? line_range(1) : Range{1, 1, 1, 1};
        diag.error(src.path(), r, src.path() + ": no FROM instruction; not a valid Dockerfile", "dockerfile-syntax");
      }
      mark_unused();
    }

    // `--from=NAME` or `--from=0`: the earlier stage it names, or -1 (an image, or unknown).
    int stage_named(const std::string& ref) const {
      if (!ref.empty() && std::all_of(ref.begin(), ref.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return ref.size() < 4 && std::stoi(ref) < stage ? std::stoi(ref) : -1;
      std::string l = lower(ref);
      for (const Image& prev : out.images)
        if (!prev.stage_name.empty() && lower(prev.stage_name) == l) return prev.stage;
      return -1;
    }
    void uses_stage(const std::string& ref) {
      int s = stage_named(docker_subst(ref, vars, esc));
      if (s >= 0 && stage >= 0) needs[static_cast<size_t>(stage)].insert(s);
    }

    // Stages the last one does not reach through FROM, COPY --from or RUN --mount=from=. A file
    // whose stages never use one another is a set of alternatives (chosen by --target, or all
    // built by the legacy builder): each is judged.
    void mark_unused() {
      if (std::all_of(needs.begin(), needs.end(), [](const std::set<int>& n) { return n.empty(); })) return;
      std::vector<bool> reached(out.images.size(), false);
      std::vector<int> todo = {static_cast<int>(out.images.size()) - 1};
      while (!todo.empty()) {
        int s = todo.back();
        todo.pop_back();
        if (reached[static_cast<size_t>(s)]) continue;
        reached[static_cast<size_t>(s)] = true;
        todo.insert(todo.end(), needs[static_cast<size_t>(s)].begin(), needs[static_cast<size_t>(s)].end());
      }
      for (size_t i = 0; i < reached.size(); ++i) out.images[i].unused = !reached[i];
    }

    // Parser directives at the top: "# escape=`", "# syntax=...".
    int directives() {
      int ln = 1;
      for (; ln <= n; ++ln) {
        std::string t = trim(src.line(ln));
        if (ln == 1 && starts_with(t, "\xEF\xBB\xBF")) t = t.substr(3);
        if (t.empty() || t[0] != '#') break;
        std::string body = trim(std::string_view(t).substr(1));
        size_t eq = body.find('=');
        if (eq == std::string::npos) break;
        std::string key = lower(trim(std::string_view(body).substr(0, eq)));
        std::string val = trim(std::string_view(body).substr(eq + 1));
        if (key == "escape") {
          if (val == "`" || val == "\\") esc = val[0];
          else diag.warn(src.path(), line_range(ln), where(ln) + ": escape directive must be \\ or `", "dockerfile-syntax");
        } else if (key != "syntax" && key != "check") {
          break;
        }
      }
      return ln;
    }

    // Physical lines of one instruction; returns the next line to read.
    int collect(int ln, std::vector<Segment>& segs) {
      bool first = true;
      while (ln <= n) {
        std::string_view l = src.line(ln);
        if (!first) {
          std::string t = trim(l);
          if (t.empty() || t[0] == '#') { ++ln; continue; }  // dropped inside continuations
        }
        size_t b = 0;
        if (first) while (b < l.size() && is_space(l[b])) ++b;
        size_t e = l.size();
        while (e > b && is_space(l[e - 1])) --e;
        bool cont = e > b && l[e - 1] == esc;
        Segment s{ln, b, std::string(l.substr(b, (cont ? e - 1 : l.size()) - b)), cont};
        segs.push_back(std::move(s));
        ++ln;
        first = false;
        if (!cont) break;
      }
      return ln;
    }

    Joined join(const std::vector<Segment>& segs, size_t skip_first) const {
      Joined j;
      for (size_t k = 0; k < segs.size(); ++k) {
        size_t from = k == 0 ? skip_first : 0;
        size_t base = src.line_start(segs[k].line) + segs[k].col;
        for (size_t i = from; i < segs[k].text.size(); ++i) {
          j.text += segs[k].text[i];
          j.off.push_back(base + i);
        }
      }
      return j;
    }

    Location loc_of(const Joined& j, size_t b, size_t e) const {
      if (j.off.empty()) return {src.path(), {}};
      b = std::min(b, j.off.size() - 1);
      size_t eb = e > b ? j.off[std::min(e, j.off.size()) - 1] + 1 : j.off[b];
      return src.loc(j.off[b], eb);
    }

    Location whole(const std::vector<Segment>& segs) const {
      const Segment& l = segs.back();
      size_t b = src.line_start(segs[0].line) + segs[0].col;
      size_t e = src.line_start(l.line) + l.col + l.text.size() + (l.continued ? 1 : 0);
      return src.loc(b, e);
    }

    // Heredoc markers in the instruction text ("<<EOF", "<<-'EOF'", "<< 'EOF'": BuildKit 0.22
    // allows blanks after `<<`, moby/buildkit#5817, not after `<<-`); bodies follow.
    int heredocs(const std::string& text, int ln, std::vector<Heredoc>& docs, int inst_line) {
      for (size_t i = 0; i + 2 < text.size(); ++i) {
        if (text[i] != '<' || text[i + 1] != '<') continue;
        if (i > 0 && text[i - 1] == '<') continue;
        size_t j = i + 2;
        if (j < text.size() && text[j] == '<') { i = j; continue; }  // here-string
        Heredoc h;
        if (j < text.size() && text[j] == '-') { h.strip_tabs = true; ++j; }
        else while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        char q = 0;
        if (j < text.size() && (text[j] == '"' || text[j] == '\'')) { q = text[j]; ++j; h.quoted = true; }
        size_t k = j;
        while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_' || text[k] == '-' || text[k] == '.')) ++k;
        if (k == j) continue;
        h.delim = text.substr(j, k - j);
        if (q && (k >= text.size() || text[k] != q)) continue;
        docs.push_back(h);
        i = k;
      }
      for (auto& h : docs) {
        while (ln <= n) {
          std::string_view l = src.line(ln);
          std::string_view cmp = l;
          if (h.strip_tabs) while (!cmp.empty() && cmp[0] == '\t') cmp.remove_prefix(1);
          if (cmp == h.delim) { h.end_line = ln; ++ln; break; }
          h.lines.push_back(ln);
          ++ln;
        }
        if (!h.end_line) {
          diag.error(src.path(), line_range(inst_line),
                     where(inst_line) + ": heredoc <<" + h.delim + " is never terminated (no line '" + h.delim + "')",
                     "dockerfile-syntax");
          break;
        }
      }
      return ln;
    }

    int instruction(std::vector<Segment>& segs, int next) {
      const Segment& s0 = segs[0];
      size_t k = 0;
      while (k < s0.text.size() && !std::isspace(static_cast<unsigned char>(s0.text[k]))) ++k;
      std::string kw = s0.text.substr(0, k);
      for (auto& c : kw) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      size_t argstart = k;
      while (argstart < s0.text.size() && std::isspace(static_cast<unsigned char>(s0.text[argstart]))) ++argstart;
      int line = s0.line;
      if (!known_instructions().count(kw)) {
        // the keyword is the file's text: at most 80 bytes of it are echoed (cut at a character boundary)
        size_t shown = std::min<size_t>(k, 80);
        while (shown < k && shown > 0 && (static_cast<unsigned char>(s0.text[shown]) & 0xC0) == 0x80) --shown;
        diag.error(src.path(), line_range(line),
                   where(line) + ": unknown instruction '" + s0.text.substr(0, shown) + (shown < k ? "...'" : "'") +
                       (shown < k ? " (" + std::to_string(k) + " bytes)" : ""),
                   "dockerfile-syntax");
        return next;
      }
      Joined args = join(segs, argstart);
      std::vector<Heredoc> docs;
      if (kw == "RUN" || kw == "COPY" || kw == "ADD") next = heredocs(args.text, next, docs, line);
      if (kw == "FROM") { from(args, line); return next; }
      if (stage < 0 && kw != "ARG") {
        diag.error(src.path(), line_range(line), where(line) + ": " + kw + " before the first FROM", "dockerfile-syntax");
        return next;
      }
      if (kw == "ARG") arg(args);
      else if (kw == "ENV") env(args);
      else if (kw == "COPY" || kw == "ADD") copy(args, kw);
      else if (kw == "RUN" || kw == "CMD" || kw == "ENTRYPOINT") command(segs, argstart, args, docs, kw);
      return next;
    }

    void from(const Joined& a, int line) {
      auto toks = split_words(a.text, false, esc);
      size_t i = 0;
      while (i < toks.size() && starts_with(toks[i].text, "--")) ++i;
      if (i >= toks.size()) {
        diag.error(src.path(), line_range(line), where(line) + ": FROM without an image", "dockerfile-syntax");
        return;
      }
      Image img;
      img.ref = docker_subst(toks[i].text, global_args, esc);
      img.loc = loc_of(a, toks[i].b, toks[i].e);
      img.loc = written_at(toks[i].text, img.loc);
      if (i + 2 < toks.size() && lower(toks[i + 1].text) == "as") img.stage_name = toks[i + 2].text;
      ++stage;
      img.stage = stage;
      vars.clear();
      std::map<std::string, std::string> envs;
      std::string lref = lower(img.ref);
      for (const Image& prev : out.images) {
        if (!prev.stage_name.empty() && lower(prev.stage_name) == lref) {
          img.from_stage = true;
          img.parent_stage = prev.stage;
          envs = stage_env[prev.stage];
        }
      }
      vars = envs;
      stage_env.push_back(envs);
      needs.emplace_back();
      if (img.from_stage) needs.back().insert(img.parent_stage);
      out.images.push_back(img);
    }

    void arg(const Joined& a) {
      for (auto& t : split_words(a.text, true, esc)) arg_one(a, t);
    }

    // One `NAME[=default]` of an ARG instruction.
    void arg_one(const Joined& a, const Tok& t) {
      size_t eq = t.text.find('=');
      std::string name = t.text.substr(0, eq);
      bool has_default = eq != std::string::npos;
      std::string value;
      if (auto given = build_args.find(name); given != build_args.end()) {
        (stage < 0 ? global_args : vars)[name] = given->second.value;
        return;  // the compose file states it (an EnvSetting there)
      }
      if (stage < 0) {
        value = has_default ? docker_subst(t.text.substr(eq + 1), global_args, esc) : "";
        if (has_default) global_args[name] = value;
        else global_args.emplace(name, "");
      } else {
        if (has_default) value = docker_subst(t.text.substr(eq + 1), vars, esc);
        else {
          auto g = global_args.find(name);
          if (g == global_args.end()) return;  // declared without a value: unknown
          value = g->second;
        }
        vars[name] = value;
      }
      Location loc = loc_of(a, t.b, t.e);
      if (has_default) {
        // point at the value: the raw text after '='
        size_t raw_eq = a.text.find('=', t.b);
        if (raw_eq != std::string::npos && raw_eq + 1 < t.e) loc = loc_of(a, raw_eq + 1, t.e);
      }
      out.env.push_back({name, value, EnvOrigin::Arg, stage, loc});
    }

    void env(const Joined& a) {
      auto toks = split_words(a.text, true, esc);
      if (toks.empty()) return;
      auto add = [&](const std::string& name, const std::string& raw_value, Location loc) {
        std::string v = docker_subst(raw_value, vars, esc);
        vars[name] = v;
        if (stage >= 0) stage_env[stage][name] = v;
        out.env.push_back({name, v, EnvOrigin::Env, stage, written_at(raw_value, loc)});
      };
      if (toks[0].text.find('=') == std::string::npos) {
        // legacy "ENV NAME value with spaces"
        std::string name = toks[0].text;
        if (toks.size() < 2) {
          add(name, "", loc_of(a, toks[0].b, toks[0].e));
          return;
        }
        size_t vb = toks[1].b;
        std::string raw = a.text.substr(vb);
        auto vt = split_words(raw, true, esc);
        std::string v;
        for (size_t i = 0; i < vt.size(); ++i) v += (i ? " " : "") + vt[i].text;
        add(name, v, loc_of(a, vb, toks.back().e));
        return;
      }
      for (auto& t : toks) {
        size_t eq = t.text.find('=');
        if (eq == std::string::npos) continue;
        size_t raw_eq = a.text.find('=', t.b);
        Location loc = (raw_eq != std::string::npos && raw_eq + 1 < t.e) ? loc_of(a, raw_eq + 1, t.e)
                                                                         : loc_of(a, t.b, t.e);
        add(t.text.substr(0, eq), t.text.substr(eq + 1), loc);
      }
    }

    void copy(const Joined& a, const std::string& kw) {
      std::vector<Tok> toks;
      std::string rest = a.text;
      size_t base = 0;
      // leading flags
      auto words = split_words(a.text, false, esc);
      size_t i = 0;
      while (i < words.size() && starts_with(words[i].text, "--")) {
        if (starts_with(words[i].text, "--from=")) return uses_stage(words[i].text.substr(7));  // another stage/image
        ++i;
      }
      if (i >= words.size()) return;
      base = words[i].b;
      rest = a.text.substr(base);
      if (!rest.empty() && rest[0] == '[') {
        if (!json_array(rest, toks)) {
          diag.warn(src.path(), loc_of(a, base, a.text.size()).range,
                    where(loc_of(a, base, base + 1).range.line) + ": " + kw + " argument looks like a JSON array but is not valid JSON",
                    "dockerfile-syntax");
          toks = split_words(rest, false, esc);
        }
      } else {
        toks = split_words(rest, false, esc);
      }
      if (toks.size() < 2) {
        diag.warn(src.path(), loc_of(a, base, a.text.size()).range,
                  where(loc_of(a, base, base + 1).range.line) + ": " + kw + " needs a source and a destination",
                  "dockerfile-syntax");
        return;
      }
      std::string dest = docker_subst(toks.back().text, vars, esc);
      for (size_t k = 0; k + 1 < toks.size(); ++k) {
        if (starts_with(toks[k].text, "<<")) continue;  // heredoc source
        FileRef r;
        r.target = docker_subst(toks[k].text, vars, esc);
        r.kind = RefKind::Copy;
        r.dest = dest;
        r.stage = stage;
        r.loc = loc_of(a, base + toks[k].b, base + toks[k].e);
        out.refs.push_back(r);
      }
    }

    // Build a view of lines [segments] for the shell layer.
    void shell_view(const std::vector<std::pair<int, size_t>>& lines, const std::vector<std::string>& texts,
                    const std::string& context) {
      std::string text;
      std::vector<SourceFile::LineMapEntry> map;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (i) text += '\n';
        text += texts[i];
        map.push_back({lines[i].first, lines[i].second, src.line(lines[i].first)});
      }
      SourceFile view(src.path(), text);
      view.set_line_map(std::move(map));
      size_t cmds = out.commands.size();
      parse_shell(view, vars, stage, command_context(context), out, diag);
      relocate(cmds);
    }

    // `--mount=type=bind,from=builder,source=/wheels,target=/w`: the stage it mounts from.
    void mount_from(const std::string& options) {
      for (size_t b = 0; b < options.size();) {
        size_t e = std::min(options.find(',', b), options.size());
        if (options.compare(b, 5, "from=") == 0) uses_stage(options.substr(b + 5, e - b - 5));
        b = e + 1;
      }
    }

    void command(const std::vector<Segment>& segs, size_t argstart, const Joined& a,
                 const std::vector<Heredoc>& docs, const std::string& kw) {
      // RUN flags: --mount=..., --network=..., --security=...
      size_t skip = 0;
      if (kw == "RUN") {
        auto words = split_words(a.text, false, esc);
        for (auto& w : words) {
          if (!starts_with(w.text, "--")) break;
          if (starts_with(w.text, "--mount=")) mount_from(w.text.substr(8));
          skip = w.e;
        }
        while (skip < a.text.size() && std::isspace(static_cast<unsigned char>(a.text[skip]))) ++skip;
      }
      std::string body = a.text.substr(std::min(skip, a.text.size()));
      if (trim(body).empty() && docs.empty()) return;
      if (!body.empty() && body[0] == '[') {
        std::vector<Tok> toks;
        if (json_array(body, toks)) {
          exec_form(a, skip, toks, kw, whole(segs));
          return;
        }
        diag.warn(src.path(), loc_of(a, skip, a.text.size()).range,
                  where(segs[0].line) + ": " + kw + " argument looks like a JSON array but is not valid JSON; Docker runs it as a shell command",
                  "dockerfile-syntax");
      }
      // Heredoc script: "RUN <<EOF" (optionally "RUN bash <<EOF" / "RUN sh -ex <<EOF").
      if (!docs.empty()) {
        std::string cmdpart = body;
        size_t mark = cmdpart.find("<<");
        std::string before = trim(std::string_view(cmdpart).substr(0, mark));
        auto bw = split_words(before, false, esc);
        bool script = bw.empty() || ((bw[0].text == "bash" || bw[0].text == "sh" || bw[0].text == "/bin/bash" ||
                                      bw[0].text == "/bin/sh") &&
                                     std::all_of(bw.begin() + 1, bw.end(), [](const Tok& t) { return starts_with(t.text, "-"); }));
        if (script) {
          std::vector<std::pair<int, size_t>> lines;
          std::vector<std::string> texts;
          for (auto& h : docs)
            for (int l : h.lines) {
              lines.push_back({l, 0});
              texts.emplace_back(src.line(l));
            }
          if (!lines.empty()) shell_view(lines, texts, kw);
          return;
        }
      }
      // Shell form: the segments (continuations become "\\\n" for the shell), then heredoc bodies.
      std::vector<std::pair<int, size_t>> lines;
      std::vector<std::string> texts;
      for (size_t k = 0; k < segs.size(); ++k) {
        size_t from = k == 0 ? argstart + skip : 0;
        std::string t = from <= segs[k].text.size() ? segs[k].text.substr(from) : std::string();
        // the escape char (and blanks after it) becomes a backslash-newline for the shell
        if (segs[k].continued) t += '\\';
        lines.push_back({segs[k].line, segs[k].col + from});
        texts.push_back(t);
      }
      for (auto& h : docs) {
        for (int l : h.lines) {
          lines.push_back({l, 0});
          texts.emplace_back(src.line(l));
        }
        if (h.end_line) {
          lines.push_back({h.end_line, 0});
          texts.emplace_back(src.line(h.end_line));
        }
      }
      shell_view(lines, texts, kw);
    }

    void exec_form(const Joined& a, size_t base, const std::vector<Tok>& toks, const std::string& kw, Location whole_loc) {
      if (toks.empty()) return;
      // ["sh", "-c", "script"] -> parse the script as shell when it has no JSON escapes.
      std::string prog = toks[0].text;
      size_t slash = prog.rfind('/');
      if (slash != std::string::npos) prog = prog.substr(slash + 1);
      if ((prog == "sh" || prog == "bash") && toks.size() == 3 && toks[1].text == "-c") {
        const Tok& t = toks[2];
        std::string raw = a.text.substr(base + t.b + 1, t.e - t.b - 2);
        if (raw == t.text && raw.find('\n') == std::string::npos) {
          Location l = loc_of(a, base + t.b + 1, base + t.b + 2);
          int line = l.range.line;
          size_t col_bytes = a.off[base + t.b + 1] - src.line_start(line);
          shell_view({{line, col_bytes}}, {raw}, kw);
          return;
        }
      }
      Command c;
      for (auto& t : toks) {
        Word w;
        w.text = t.text;  // exec form: no variable substitution
        w.raw = a.text.substr(base + t.b, t.e - t.b);
        w.loc = loc_of(a, base + t.b, base + t.e);
        c.argv.push_back(w);
      }
      c.stage = stage;
      c.context = command_context(kw);
      c.loc = whole_loc;
      out.commands.push_back(std::move(c));
    }
  };
};

}  // namespace
SPARKCHECK_PARSER(DockerfileParser);

void parse_dockerfile(const SourceFile& src, const std::map<std::string, BuildArgValue>& args, FileFacts& out,
                      ParseDiag& diag) {
  DockerfileParser::State st(src, out, diag, args);
  st.run();
}

}  // namespace sc

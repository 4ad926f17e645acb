// SPDX-License-Identifier: Apache-2.0
// CMake files (CMakeLists.txt, *.cmake): every command invocation becomes a Command
// (argv[0] the lower-case command name, then its arguments; a quoted argument holding
// several flags, "${CMAKE_CUDA_FLAGS} -gencode arch=...", is split into words so each
// flag keeps its own place). `set(VAR value...)` and the CUDA_ARCHITECTURES target
// property become EnvSetting facts, so architecture lists read like any other setting.
#include <algorithm>
#include <cctype>

#include "core/registry.h"

namespace sc {
namespace {

struct Arg {
  std::string text;
  size_t begin = 0, end = 0;
  bool quoted = false;
};

class CMakeReader {
 public:
  CMakeReader(const SourceFile& src, FileFacts& out, ParseDiag& diag)
      : src_(src), t_(src.text()), out_(out), diag_(diag) {}

  void run() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '#') skip_comment();
      else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') invocation();
      else ++i_;
    }
  }

 private:
  const SourceFile& src_;
  const std::string& t_;
  FileFacts& out_;
  ParseDiag& diag_;
  size_t i_ = 0;

  void skip_comment() {
    size_t nl = t_.find('\n', i_);
    if (t_.compare(i_, 3, "#[[") == 0) nl = t_.find("]]", i_);
    i_ = nl == std::string::npos ? t_.size() : nl + 1;
  }

  void invocation() {
    size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
    std::string name = lower(t_.substr(b, i_ - b));
    size_t p = i_;
    while (p < t_.size() && (t_[p] == ' ' || t_[p] == '\t')) ++p;
    if (p >= t_.size() || t_[p] != '(') return;
    i_ = p + 1;
    std::vector<Arg> args = arguments();
    if (i_ >= t_.size() && (t_.empty() || t_.back() != ')')) {
      diag_.warn(src_.path(), src_.range(b, p + 1), "CMake syntax error: " + name + "( is never closed; its arguments are not read",
                 "cmake-syntax");
      return;
    }
    command(name, b, args);
  }

  std::vector<Arg> arguments() {
    std::vector<Arg> args;
    int depth = 0;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == ')' && depth == 0) { ++i_; break; }
      if (c == '#') { skip_comment(); continue; }
      if (std::isspace(static_cast<unsigned char>(c))) { ++i_; continue; }
      if (c == '(' || c == ')') { depth += c == '(' ? 1 : -1; ++i_; continue; }
      args.push_back(c == '"' ? quoted() : unquoted());
    }
    return args;
  }

  Arg quoted() {
    Arg a{"", i_ + 1, i_ + 1, true};
    for (++i_; i_ < t_.size() && t_[i_] != '"'; ++i_) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) ++i_;
      a.text += t_[i_];
    }
    a.end = i_;
    if (i_ < t_.size()) ++i_;
    return a;
  }

  Arg unquoted() {
    Arg a{"", i_, i_, false};
    while (i_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[i_])) && t_[i_] != '(' && t_[i_] != ')' &&
           t_[i_] != '#')
      a.text += t_[i_++];
    a.end = i_;
    return a;
  }

  Word word(const std::string& text, size_t b, size_t e) {
    return Word{text, t_.substr(b, e - b), text.find("${") == std::string::npos, src_.loc(b, e)};
  }

  // A quoted argument with blanks is several words (flags); others are one.
  void add_words(Command& c, const Arg& a) {
    bool plain = a.text.size() == a.end - a.begin;  // no escapes: offsets line up
    if (!a.quoted || !plain || a.text.find_first_of(" \t\n") == std::string::npos) {
      c.argv.push_back(word(a.text, a.begin, a.end));
      return;
    }
    for (size_t k = 0; k < a.text.size();) {
      size_t s = a.text.find_first_not_of(" \t\n", k);
      if (s == std::string::npos) break;
      size_t e = std::min(a.text.find_first_of(" \t\n", s), a.text.size());
      c.argv.push_back(word(a.text.substr(s, e - s), a.begin + s, a.begin + e));
      k = e;
    }
  }

  void setting(const std::string& name, const std::vector<Arg>& values, size_t from, size_t to) {
    if (from >= to) return;
    std::string v;
    for (size_t k = from; k < to; ++k) v += (v.empty() ? "" : ";") + values[k].text;
    out_.env.push_back({name, v, EnvOrigin::Cmake, -1, src_.loc(values[from].begin, values[to - 1].end)});
  }

  void command(const std::string& name, size_t b, const std::vector<Arg>& args) {
    Command c;
    c.context = CommandContext::Cmake;
    c.loc = src_.loc(b, i_);
    c.argv.push_back(word(name, b, b + name.size()));
    for (const Arg& a : args) add_words(c, a);
    out_.commands.push_back(std::move(c));
    if (name == "set" && args.size() >= 2) {
      size_t to = 1;
      while (to < args.size() && args[to].text != "CACHE" && args[to].text != "PARENT_SCOPE") ++to;
      setting(args[0].text, args, 1, to);
    }
    // set_target_properties(t PROPERTIES CUDA_ARCHITECTURES v) / set_property(... PROPERTY CUDA_ARCHITECTURES v...)
    for (size_t k = 0; k + 1 < args.size(); ++k)
      if (args[k].text == "CUDA_ARCHITECTURES" && k > 0 &&
          (args[k - 1].text == "PROPERTY" || name == "set_target_properties"))
        setting("CUDA_ARCHITECTURES", args, k + 1, name == "set_property" ? args.size() : k + 2);
  }
};

class CMakeParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::CMake; }
  int priority() const override { return 5; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return n == "cmakelists.txt" || ends_with(n, ".cmake");
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::CMake;
    CMakeReader(src, out, diag).run();
  }
};

// The replacement of a sed `s/old/new/` expression ("" when it is none).
std::string sed_replacement(const std::string& e) {
  if (e.size() < 4 || e[0] != 's') return "";
  char d = e[1];
  size_t a = e.find(d, 2);
  if (a == std::string::npos) return "";
  size_t b = e.find(d, a + 1);
  return e.substr(a + 1, (b == std::string::npos ? e.size() : b) - a - 1);
}

// `sed -i 's/.../set(CMAKE_CUDA_ARCHITECTURES 121)/' CMakeLists.txt`: the list the edit writes
// is a setting like one written in the CMake file itself (at the expression's place).
void sed_into_cmake(FileFacts& f) {
  std::vector<EnvSetting> found;
  for (const Command& c : f.commands) {
    if (c.argv.empty() || c.argv[0].text != "sed") continue;
    bool cmake = std::any_of(c.argv.begin(), c.argv.end(), [](const Word& w) {
      return ends_with(w.text, "CMakeLists.txt") || ends_with(w.text, ".cmake");
    });
    for (size_t k = 1; cmake && k < c.argv.size(); ++k) {
      std::string r = sed_replacement(c.argv[k].text);
      size_t p = r.find("set(");
      if (p == std::string::npos) continue;
      std::string inner = r.substr(p + 4, r.find(')', p) - p - 4);
      size_t sp = inner.find(' ');
      if (sp == std::string::npos) continue;
      std::string value = trim(inner.substr(sp + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      found.push_back({inner.substr(0, sp), value, EnvOrigin::Sed, c.stage, c.argv[k].loc});
    }
  }
  auto& env = f.env.edit();
  env.insert(env.end(), found.begin(), found.end());
}

}  // namespace

SPARKCHECK_PARSER(CMakeParser);
SPARKCHECK_POST_PARSE(sed_into_cmake);

}  // namespace sc

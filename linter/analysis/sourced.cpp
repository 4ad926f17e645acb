// SPDX-License-Identifier: Apache-2.0
// Settings files that a script sources (`source ./models.conf`, `. "$(dirname "$0")/env.sh"`):
// the script is read again with the variables and bash arrays they set, from the `source`
// line on, so `vllm serve "${ENGINE_ARGS[@]}"` sees the flags written in models.conf. A
// finding lands on the word where it is written; the script's use is a related place.
// A script that sources its own argument (`source "$1"`) is read once per settings file the
// project passes it (`./serve.sh recipes/llama-tp2.env` in a README or another script).
#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "analysis/paths.h"
#include "analysis/project.h"
#include "core/registry.h"
#include "parsers/shell.h"

namespace sc {
namespace {

constexpr size_t kMaxReadings = 16;          // readings of one script (settings files passed to it)
constexpr size_t kReadingBytes = 1u << 20;  // and at most this much script text read again in all

// The part of a sourced path that names a project file: `$(dirname "$0")/conf/x.env` and
// `${SCRIPT_DIR}/x.env` mean a file beside the script. Empty for a home-relative or
// unknown path.
std::string written_path(const Word& w) {
  std::string t = w.text;
  if (t.empty() || t[0] == '~' || t.find("$HOME") != std::string::npos || t.find("${HOME") != std::string::npos)
    return "";
  size_t dollar = t.rfind('$');
  if (dollar != std::string::npos) {
    size_t slash = t.find('/', dollar);
    if (slash == std::string::npos) return "";
    t = t.substr(slash + 1);
    if (t.find('$') != std::string::npos) return "";
  }
  while (starts_with(t, "./")) t = t.substr(2);
  return t;
}

bool is_source(const Command& c) {
  return c.argv.size() >= 2 && (c.argv[0].text == "source" || c.argv[0].text == ".");
}

// A script argument a sourced word reads: its number (0 for none) and the default written
// with it (`${1:-recipes/default.env}`).
struct Positional {
  size_t n = 0;
  std::string fallback;
};

// `$1`, `${2}`, `${1:-x.env}`, `${1-x.env}`, `${1:?usage}` (quotes removed): the argument read.
Positional argument_in(std::string t) {
  if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front()) t = t.substr(1, t.size() - 2);
  auto digit = [](char c) { return c >= '1' && c <= '9'; };
  if (t.size() == 2 && t[0] == '$' && digit(t[1])) return {static_cast<size_t>(t[1] - '0'), ""};
  if (t.size() < 4 || t.compare(0, 2, "${") != 0 || !digit(t[2]) || t.back() != '}') return {};
  std::string rest = t.substr(3, t.size() - 4);
  if (starts_with(rest, ":")) rest.erase(0, 1);
  if (!rest.empty() && rest[0] != '-' && rest[0] != '?') return {};
  bool fallback = !rest.empty() && rest[0] == '-';  // `${1:?usage}` stops the script instead
  return {static_cast<size_t>(t[2] - '0'), fallback ? rest.substr(1) : ""};
}

// The argument a sourced word reads: written in the word (`"$1"`), or through a variable the
// script set to one before (`ENV_FILE="$1"` ... `source "$ENV_FILE"`).
Positional positional(const Word& w, const FileFacts& script) {
  Positional direct = argument_in(w.raw);
  if (direct.n) return direct;
  std::string t = w.raw;
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  if (starts_with(t, "${") && ends_with(t, "}")) t = "$" + t.substr(2, t.size() - 3);
  if (t.size() < 2 || t[0] != '$') return {};
  const EnvSetting* set = nullptr;
  for (const EnvSetting& e : script.env)
    if (e.name == t.substr(1) && e.loc.range.line < w.loc.range.line) set = &e;
  return set ? argument_in(set->value) : Positional{};
}

// Where the script word of a command that runs a script stands (`bash -x s.sh`: 2); npos if none.
size_t script_word(const Command& c) {
  std::string s = script_of(c);
  if (s.empty()) return std::string::npos;
  for (size_t i = 0; i < c.argv.size(); ++i)
    if (c.argv[i].text == s) return i;
  return std::string::npos;
}

class SourceLinker {
 public:
  explicit SourceLinker(const Project& p) : p_(p) {}

  // One SourcedFiles per reading of the script: the files it names, plus (for `source "$1"`)
  // each settings file the project passes it as that argument.
  std::vector<SourcedFiles> readings(const ParsedFile& script) {
    std::vector<SourcedFiles> out{sourced(script)};
    size_t cap = std::clamp<size_t>(kReadingBytes / std::max<size_t>(1, script.src.text().size()), 1, kMaxReadings);
    for (const Command& c : script.facts->commands) {
      Positional arg = is_source(c) ? positional(c.argv[1], *script.facts) : Positional{};
      if (!arg.n) continue;
      std::vector<const ParsedFile*> files = passed(script, arg.n);
      if (files.empty() && !arg.fallback.empty()) {  // nothing passes it: the default is read
        Word fallback;
        fallback.text = fallback.raw = arg.fallback;
        if (const ParsedFile* t = target(script, fallback)) files.push_back(t);
      }
      std::vector<SourcedFiles> next;
      for (const ParsedFile* t : files)
        for (size_t k = 0; k < out.size() && next.size() < cap; ++k) {
          next.push_back(out[k]);
          next.back()[c.argv[1].text] = env_of(*t);
        }
      if (!next.empty()) out = std::move(next);
    }
    std::erase_if(out, [](const SourcedFiles& s) { return s.empty(); });
    return out;
  }

  // The sourced files a script names that the project holds, by the word as written.
  SourcedFiles sourced(const ParsedFile& script) {
    SourcedFiles out;
    for (const Command& c : script.facts->commands) {
      if (!is_source(c) || out.count(c.argv[1].text) || positional(c.argv[1], *script.facts).n) continue;
      const ParsedFile* t = target(script, c.argv[1]);
      if (!t) continue;
      const ShellEnv& e = env_of(*t);
      if (!e.written.empty()) out[c.argv[1].text] = e;
    }
    return out;
  }

 private:
  // Settings files the project passes as argument `n` of `script`, in the order met.
  std::vector<const ParsedFile*> passed(const ParsedFile& script, size_t n) {
    if (!calls_) index_calls();
    std::vector<const ParsedFile*> out;
    auto it = calls_->find(&script);
    if (it == calls_->end()) return out;
    for (const Call& call : it->second) {
      if (call.at + n >= call.c->argv.size()) continue;
      const ParsedFile* t = target(*call.from, call.c->argv[call.at + n]);
      if (t && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
    return out;
  }

  const ShellEnv& env_of(const ParsedFile& f) {
    auto it = envs_.find(&f);
    if (it == envs_.end()) it = envs_.emplace(&f, shell_env(f.src)).first;
    return it->second;
  }

  // A command that runs a project script: where, and the index of the script word.
  struct Call {
    const ParsedFile* from;
    const Command* c;
    size_t at;
  };
  const Project& p_;
  std::map<const ParsedFile*, ShellEnv> envs_;
  std::optional<std::map<const ParsedFile*, std::vector<Call>>> calls_;  // by the script run

  void index_calls() {
    calls_.emplace();
    for (const auto& up : p_.files)
      for (const Command& c : up->facts->commands) {
        size_t at = script_word(c);
        if (at == std::string::npos) continue;
        if (const ParsedFile* s = p_.resolve_relative(*up, c.argv[at].text)) (*calls_)[s].push_back({up.get(), &c, at});
      }
  }

  const ParsedFile* target(const ParsedFile& script, const Word& w) const {
    std::string path = written_path(w);
    if (path.empty()) return nullptr;
    const ParsedFile* f = p_.resolve_relative(script, path);
    for (const char* suffix : kSettingsTemplateSuffixes) {  // only its committed template exists
      if (f || path[0] == '/') break;
      f = p_.resolve(script, path + suffix);
    }
    if (!f || f == &script || f->facts->kind != FileKind::Shell) return nullptr;
    return f;
  }
};

}  // namespace

void Project::link_sourced_files() {
  SourceLinker linker(*this);
  std::vector<std::pair<const ParsedFile*, SourcedFiles>> found;
  for (const auto& up : files) {
    if (up->facts->kind != FileKind::Shell) continue;
    bool any = false;
    for (const Command& c : up->facts->commands) any = any || is_source(c);
    if (!any) continue;
    for (SourcedFiles& s : linker.readings(*up)) found.emplace_back(up.get(), std::move(s));
  }
  std::map<const ParsedFile*, FileFacts> read;  // each script's readings, commands one after another
  std::map<const ParsedFile*, SourcedFiles> first;
  for (auto& [script, s] : found) {
    FileFacts v;
    v.kind = FileKind::Shell;
    ParseDiag ignored;  // the script's own parse reported its problems
    parse_shell(script->src, {}, -1, CommandContext::Script, v, ignored, &s);
    for (PostParsePass pass : post_parse_passes()) pass(v);
    auto [at, fresh] = read.try_emplace(script, std::move(v));
    if (!fresh) {
      for (Command& c : v.commands) at->second.commands.push_back(std::move(c));
      for (Expansion& x : v.expansions) at->second.expansions.push_back(std::move(x));
    }
    first.try_emplace(script, std::move(s));
  }
  for (auto& [script, v] : read) {
    ParsedFile* f = own(script);
    if (!f) continue;
    v.sections = f->facts->sections;  // banner comments: the text is the same
    f->facts = std::move(v);
    sourced_[f] = std::move(first[script]);
  }
}

const SourcedFiles* Project::sourced_by(const ParsedFile* script) const {
  auto it = sourced_.find(script);
  return it == sourced_.end() ? nullptr : &it->second;
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Scripts that a compose service runs: named by its `command:`/`entrypoint:`, or by the
// CMD/ENTRYPOINT of the Dockerfile it builds, found through a bind mount or a COPY. The
// service's `environment:` is known to that script (`${TP:-2}` takes the compose value), so
// the script's commands are read again once per such service, and those readings replace
// its own: a command is judged with the values some service runs it with. A word that
// reads a compose variable names the compose line (an Expansion).
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "analysis/paths.h"
#include "analysis/project.h"
#include "core/registry.h"
#include "parsers/shell.h"

namespace sc {
namespace {

// A container path -> the project file a bind mount of the service puts there.
const ParsedFile* mounted(const Project& p, const ParsedFile& compose, const ComposeService& s,
                          const std::string& path) {
  for (const auto& [host, target] : s.mounts) {
    std::string t = target;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    std::string rest;
    if (path == t) rest = "";
    else if (starts_with(path, t + "/")) rest = path.substr(t.size());
    else continue;
    Expanded h = expand_word(host, {});  // `${ENTRYPOINT_FILE:-./entrypoint.sh}`: its default
    if (!h.resolved) continue;
    if (const ParsedFile* f = p.find(path_in_dir(folder_of(compose.src.path()), h.text + rest))) return f;
  }
  return nullptr;
}

// The Dockerfile's final stage as written (stages a compose build adds come after it).
int final_stage(const ParsedFile& df) {
  int best = -1, line = -1;
  for (size_t i = 0; i < df.facts->images.size(); ++i)
    if (df.facts->images[i].loc.range.line > line) {
      line = df.facts->images[i].loc.range.line;
      best = static_cast<int>(i);
    }
  return best;
}

struct ServiceRun {
  const ParsedFile* compose;
  const ComposeService* service;
};

class ScriptLinker {
 public:
  explicit ScriptLinker(Project& p) : p_(p) {}

  void service(const ParsedFile& compose, const ComposeService& s) {
    BuildSpec b;
    b.dockerfile = s.dockerfile;
    const ParsedFile* df = s.dockerfile.empty() ? nullptr : built_dockerfile(p_, compose, b);
    const auto& cmds = compose.facts->commands;
    for (size_t i = s.first_command; i < s.end_command && i < cmds.size(); ++i) add(compose, s, df, cmds[i], -1);
    if (s.first_command != s.end_command || !df) return;
    int stage = final_stage(*df);
    for (const Command& c : df->facts->commands)
      if (c.stage == stage && (c.context == CommandContext::Cmd || c.context == CommandContext::Entrypoint))
        add(compose, s, df, c, stage);
  }

  std::map<const ParsedFile*, std::vector<ServiceRun>> runs;

 private:
  Project& p_;

  void add(const ParsedFile& compose, const ComposeService& s, const ParsedFile* df, const Command& c, int stage) {
    std::string path = script_of(c);
    if (path.empty() || path.find('$') != std::string::npos) return;
    const ParsedFile* f = mounted(p_, compose, s, path);
    if (!f && df) f = container_file(p_, *df, stage >= 0 ? stage : final_stage(*df), 0, path, true);
    if (!f || f->facts->kind != FileKind::Shell) return;
    for (const ServiceRun& r : runs[f])
      if (r.service == &s) return;
    runs[f].push_back({&compose, &s});
  }
};

// Does `text` read $NAME or ${NAME...}?
bool reads(const std::string& text, const std::string& name) {
  return text.find("$" + name) != std::string::npos || text.find("${" + name) != std::string::npos;
}

// ---- settings files for a compose file's `${VAR}` --------------------------------------

constexpr size_t kMaxEnvFiles = 64;         // settings files read for one compose file
constexpr size_t kReadingBytes = 8u << 20;  // script text read again per script, all readings together

// The names a compose file interpolates: `${TP_SIZE}`, `${TP_SIZE:-1}`, `$TP_SIZE`.
std::set<std::string> interpolated(std::string_view text) {
  std::set<std::string> out;
  for (size_t i = text.find('$'); i != std::string_view::npos && out.size() < 512; i = text.find('$', i + 1)) {
    size_t b = i + 1 + (i + 1 < text.size() && text[i + 1] == '{');
    size_t e = b;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
    if (e > b && !std::isdigit(static_cast<unsigned char>(text[b]))) out.emplace(text.substr(b, e - b));
  }
  return out;
}

// `docker compose ... --env-file F` / `docker-compose --env-file=F`: F as written.
std::vector<std::string> env_file_args(const Command& c) {
  std::vector<std::string> out;
  const auto& a = c.argv;
  bool compose = !a.empty() && (a[0].text == "docker-compose" || (a.size() > 1 && a[0].text == "docker" && a[1].text == "compose"));
  for (size_t i = 1; compose && i < a.size(); ++i) {
    if (a[i].text == "--env-file" && i + 1 < a.size() && a[i + 1].resolved) out.push_back(a[++i].text);
    else if (starts_with(a[i].text, "--env-file=") && a[i].resolved) out.push_back(a[i].text.substr(11));
  }
  return out;
}

class EnvFiles {
 public:
  explicit EnvFiles(const Project& p) : p_(p) {
    for (const auto& up : p.files) {
      for (const Command& c : up->facts->commands)
        for (const std::string& f : env_file_args(c))
          if (const ParsedFile* t = settings(*up, f)) passed_.push_back(t);
      if (up->facts->kind == FileKind::Shell && dotenv_name(std::string(up->src.path()))) dotenv_.push_back(up.get());
    }
  }

  // The settings a compose file may be run with: its folder's `.env` (or the committed
  // template of one), files passed with `--env-file`, and presets (dotenv files that set 3+
  // of the names it interpolates). Each is one way the project runs it.
  const std::vector<const ParsedFile*>& of(const ParsedFile& compose) {
    auto slot = found_.try_emplace(&compose);
    std::vector<const ParsedFile*>& list = slot.first->second;
    if (!slot.second) return list;
    std::set<std::string> names = interpolated(compose.src.text());
    auto add = [&list](const ParsedFile* f) {
      if (f && list.size() < kMaxEnvFiles && std::find(list.begin(), list.end(), f) == list.end()) list.push_back(f);
    };
    std::string dir = folder_of(compose.src.path());
    const ParsedFile* own = p_.find(path_in_dir(dir, ".env"));
    for (const char* suffix : kSettingsTemplateSuffixes)
      if (!own) own = p_.find(path_in_dir(dir, std::string(".env") + suffix));
    add(own);
    for (const ParsedFile* f : passed_) add(f);
    for (const ParsedFile* f : dotenv_)
      if (list.size() >= kMaxEnvFiles) break;
      else if (sets_names(*f, names, 3)) add(f);
    return list;
  }

  const ShellEnv& env(const ParsedFile& f) {
    auto it = envs_.find(&f);
    if (it == envs_.end()) it = envs_.emplace(&f, shell_env(f.src)).first;
    return it->second;
  }

 private:
  const Project& p_;
  std::vector<const ParsedFile*> passed_, dotenv_;
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> found_;
  std::map<const ParsedFile*, ShellEnv> envs_;

  const ParsedFile* settings(const ParsedFile& from, const std::string& path) const {
    if (path.find('$') != std::string::npos) return nullptr;
    const ParsedFile* f = p_.resolve_relative(from, path);
    return f && f->facts->kind == FileKind::Shell ? f : nullptr;
  }

  bool sets_names(const ParsedFile& f, const std::set<std::string>& names, size_t least) {
    size_t n = 0;
    for (const EnvSetting& e : f.facts->env)
      if (names.count(e.name) && ++n >= least) return true;
    return false;
  }
};

// One variable of the service as a script sees it: the value, the compose line, and the
// settings-file line that gave its `${VAR}` (when one did).
struct ServiceVar {
  std::string name, value, shown;
  Location compose;
  std::optional<Location> written;
};

// The service's variables the script reads, with values sparkcheck can read; `${X}` in a value
// takes X from `settings` (a compose `.env` or preset) when given.
// Which names a script reads, each looked up in its text once.
class NamesRead {
 public:
  explicit NamesRead(const ParsedFile& script) : text_(script.src.text()) {}
  bool operator()(const std::string& name) {
    auto [it, fresh] = memo_.try_emplace(name, false);
    if (fresh) it->second = reads(text_, name);
    return it->second;
  }

 private:
  std::string text_;  // a copy: a released source's text() is read back into a scratch buffer
  std::map<std::string, bool> memo_;
};

std::vector<ServiceVar> used_env(NamesRead& script_reads, const ComposeService& s, const ShellEnv* settings) {
  std::vector<ServiceVar> out;
  static const std::map<std::string, std::string> none;
  for (const EnvSetting& e : s.env) {
    if (e.name.empty() || !script_reads(e.name)) continue;
    Expanded v = expand_word(e.value, settings ? settings->vars : none);
    if (!v.resolved) continue;
    ServiceVar sv{e.name, v.text, e.value, e.loc, std::nullopt};
    if (settings)
      for (const auto& [name, at] : settings->written)
        if (reads(e.value, name)) {
          sv.written = at;
          sv.shown = name + "=" + v.text + " in " + settings->path;
        }
    out.push_back(std::move(sv));
  }
  return out;
}

// Word texts of the script as read alone, by place ("line:col").
using Texts = std::map<std::pair<int, int>, std::string>;
Texts word_texts(const FileFacts& f) {
  Texts out;
  for (const Command& c : f.commands)
    for (const Word& w : c.argv) out[{w.loc.range.line, w.loc.range.col}] = w.text;
  return out;
}

// The word as the script writes it: its raw text, or for a word a variable held (`$CMD` of
// `CMD="vllm serve --tp ${TP}"`) the script's text where that word stands.
std::string as_written(const ParsedFile& script, const Word& w) {
  size_t b = 0, e = 0;
  if (w.loc.path != script.src.path() || !script.src.offsets(w.loc.range, b, e)) return w.raw;
  return script.src.text().substr(b, e - b);
}

// The script's commands as the service runs it, each word whose value the service's
// variables change naming that compose line. A value that a settings file gave lands on
// that file's line, the script's word then being the related place.
FileFacts reading(const ParsedFile& script, const std::string& service, const std::vector<ServiceVar>& env,
                  const Texts& alone, const SourcedFiles* sourced) {
  std::map<std::string, std::string> vars;
  for (const ServiceVar& e : env) vars[e.name] = e.value;
  FileFacts v;
  v.kind = FileKind::Shell;
  ParseDiag ignored;  // the script's own parse reported its problems
  parse_shell(script.src, vars, -1, CommandContext::Script, v, ignored, sourced);
  for (PostParsePass pass : post_parse_passes()) pass(v);
  for (Command& c : v.commands)
    for (Word& w : c.argv) {
      auto it = alone.find({w.loc.range.line, w.loc.range.col});
      if (it != alone.end() && it->second == w.text) continue;
      std::string written = as_written(script, w);
      for (const ServiceVar& e : env) {
        if (!reads(written, e.name)) continue;
        std::string what = "set by compose service '" + service + "' (" + e.name + "=" + e.shown + ")";
        if (!e.written || w.text != e.value) {
          v.expansions.push_back({w.loc, e.compose, what});
          continue;
        }
        Location use = w.loc;
        w.loc = *e.written;
        v.expansions.push_back({w.loc, use, "read by " + script.src.path() + " in compose service '" + service + "'"});
        break;
      }
    }
  return v;
}

// The service's variables once per settings file that sets one the script reads, else once
// as the compose file writes them.
std::vector<std::vector<ServiceVar>> readings_of(NamesRead& script_reads, const ServiceRun& r, EnvFiles& settings) {
  std::vector<std::vector<ServiceVar>> out;
  for (const ParsedFile* f : settings.of(*r.compose)) {
    std::vector<ServiceVar> env = used_env(script_reads, *r.service, &settings.env(*f));
    if (std::any_of(env.begin(), env.end(), [](const ServiceVar& v) { return v.written.has_value(); }))
      out.push_back(std::move(env));
  }
  if (out.empty()) out.push_back(used_env(script_reads, *r.service, nullptr));
  return out;
}

// What a reading depends on: two services (or settings files) that give the script the same
// values, written at the same places, read it the same way.
std::string signature(const std::vector<ServiceVar>& env) {
  std::string s;
  for (const ServiceVar& v : env) {
    s += v.name + '=' + v.value + '\n';
    if (v.written) s += v.written->path.str() + ':' + std::to_string(v.written->range.line) + '\n';
  }
  return s;
}

// Which readings of one script are made: each set of values once, within kReadingBytes of
// script text read again (the first reading always).
class ReadingBudget {
 public:
  explicit ReadingBudget(const ParsedFile& script) : size_(std::max<size_t>(1, script.src.text().size())) {}
  bool take(const std::vector<ServiceVar>& env) {
    if ((!read_.empty() && left_ < size_) || !read_.insert(signature(env)).second) return false;
    left_ -= std::min(left_, size_);
    return true;
  }

 private:
  size_t size_, left_ = kReadingBytes;
  std::set<std::string> read_;  // signatures already read
};

// The script's commands and expansions as every service runs it, one reading after another;
// `changed` when some service gives it a value.
FileFacts all_readings(const Project& p, const ParsedFile& script, const std::vector<ServiceRun>& runs,
                       EnvFiles& settings, bool& changed) {
  FileFacts all;
  Texts alone = word_texts(*script.facts);
  ReadingBudget budget(script);
  NamesRead script_reads(script);
  for (const ServiceRun& r : runs)
    for (const std::vector<ServiceVar>& env : readings_of(script_reads, r, settings)) {
      if (!budget.take(env)) continue;
      changed = changed || !env.empty();
      FileFacts v = reading(script, r.service->name, env, alone, p.sourced_by(&script));
      for (Command& c : v.commands) all.commands.push_back(std::move(c));
      for (Expansion& x : v.expansions) all.expansions.push_back(std::move(x));
    }
  return all;
}

}  // namespace

void Project::link_compose_scripts() {
  ScriptLinker linker(*this);
  for (const auto& up : files)
    for (const ComposeService& s : up->facts->services) linker.service(*up, s);
  EnvFiles settings(*this);
  for (const auto& [script, runs] : linker.runs) {
    bool changed = false;
    FileFacts all = all_readings(*this, *script, runs, settings, changed);
    ParsedFile* f = changed ? own(script) : nullptr;
    if (!f) continue;
    f->facts.edit().commands = std::move(all.commands);
    f->facts.edit().expansions = std::move(all.expansions);
  }
}

}  // namespace sc

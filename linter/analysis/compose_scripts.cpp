// SPDX-License-Identifier: Apache-2.0
// Scripts that a compose service runs: named by its `command:`/`entrypoint:`, or by the
// CMD/ENTRYPOINT of the Dockerfile it builds, found through a bind mount or a COPY. The
// service's `environment:` is known to that script (`${TP:-2}` takes the compose value), so
// the script's commands are read again once per such service, and those readings replace
// its own: a command is judged with the values some service runs it with. A word that
// reads a compose variable names the compose line (an Expansion).
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
    if (const ParsedFile* f = p.find(path_in_dir(folder_of(compose.src.path()), host + rest))) return f;
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

// The service's variables the script reads, with values sparkcheck can read.
std::vector<const EnvSetting*> used_env(const ParsedFile& script, const ComposeService& s) {
  std::vector<const EnvSetting*> out;
  const std::string& text = script.src.text();
  for (const EnvSetting& e : s.env)
    if (!e.name.empty() && expand_word(e.value, {}).resolved && reads(text, e.name)) out.push_back(&e);
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

// The script's commands as the service runs it, each word whose value the service's
// variables change naming that compose line.
FileFacts reading(const ParsedFile& script, const std::string& service, const std::vector<const EnvSetting*>& env,
                  const Texts& alone, const SourcedFiles* sourced) {
  std::map<std::string, std::string> vars;
  for (const EnvSetting* e : env) vars[e->name] = expand_word(e->value, {}).text;
  FileFacts v;
  v.kind = FileKind::Shell;
  ParseDiag ignored;  // the script's own parse reported its problems
  parse_shell(script.src, vars, -1, CommandContext::Script, v, ignored, sourced);
  for (PostParsePass pass : post_parse_passes()) pass(v);
  for (const Command& c : v.commands)
    for (const Word& w : c.argv) {
      auto it = alone.find({w.loc.range.line, w.loc.range.col});
      if (it != alone.end() && it->second == w.text) continue;
      for (const EnvSetting* e : env)
        if (reads(w.raw, e->name))
          v.expansions.push_back({w.loc, e->loc, "set by compose service '" + service + "' (" + e->name + "=" + e->value + ")"});
    }
  return v;
}

}  // namespace

void Project::link_compose_scripts() {
  ScriptLinker linker(*this);
  for (const auto& up : files)
    for (const ComposeService& s : up->facts->services) linker.service(*up, s);
  for (const auto& [script, runs] : linker.runs) {
    std::vector<Command> commands;
    std::vector<Expansion> expansions;
    Texts alone = word_texts(*script->facts);
    bool changed = false;
    for (const ServiceRun& r : runs) {
      std::vector<const EnvSetting*> env = used_env(*script, *r.service);
      if (!env.empty()) changed = true;
      FileFacts v = reading(*script, r.service->name, env, alone, sourced_by(script));
      for (Command& c : v.commands) commands.push_back(std::move(c));
      for (Expansion& x : v.expansions) expansions.push_back(std::move(x));
    }
    ParsedFile* f = changed ? own(script) : nullptr;
    if (!f) continue;
    f->facts.edit().commands = std::move(commands);
    f->facts.edit().expansions = std::move(expansions);
  }
}

}  // namespace sc

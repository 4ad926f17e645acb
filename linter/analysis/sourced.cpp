// SPDX-License-Identifier: Apache-2.0
// Settings files that a script sources (`source ./models.conf`, `. "$(dirname "$0")/env.sh"`):
// the script is read again with the variables and bash arrays they set, from the `source`
// line on, so `vllm serve "${ENGINE_ARGS[@]}"` sees the flags written in models.conf. A
// finding lands on the word where it is written; the script's use is a related place.
#include "analysis/paths.h"
#include "analysis/project.h"
#include "core/registry.h"
#include "parsers/shell.h"

namespace sc {
namespace {

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

class SourceLinker {
 public:
  explicit SourceLinker(const Project& p) : p_(p) {}

  // The sourced files a script names that the project holds, by the word as written.
  SourcedFiles sourced(const ParsedFile& script) {
    SourcedFiles out;
    for (const Command& c : script.facts->commands) {
      if (!is_source(c) || out.count(c.argv[1].text)) continue;
      const ParsedFile* t = target(script, c.argv[1]);
      if (!t) continue;
      const ShellEnv& e = env_of(*t);
      if (!e.written.empty()) out[c.argv[1].text] = e;
    }
    return out;
  }

 private:
  const Project& p_;
  std::map<const ParsedFile*, ShellEnv> envs_;

  const ParsedFile* target(const ParsedFile& script, const Word& w) const {
    std::string path = written_path(w);
    if (path.empty()) return nullptr;
    const ParsedFile* f = path[0] == '/' ? nullptr : p_.resolve(script, path);
    if (!f && path[0] != '/') f = p_.find(path);  // run from the project's top
    for (const char* suffix : kSettingsTemplateSuffixes) {  // only its committed template exists
      if (f || path[0] == '/') break;
      f = p_.resolve(script, path + suffix);
    }
    if (!f || f == &script || f->facts->kind != FileKind::Shell) return nullptr;
    return f;
  }

  const ShellEnv& env_of(const ParsedFile& f) {
    auto it = envs_.find(&f);
    if (it == envs_.end()) it = envs_.emplace(&f, shell_env(f.src)).first;
    return it->second;
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
    SourcedFiles s = linker.sourced(*up);
    if (!s.empty()) found.emplace_back(up.get(), std::move(s));
  }
  for (auto& [script, s] : found) {
    FileFacts v;
    v.kind = FileKind::Shell;
    ParseDiag ignored;  // the script's own parse reported its problems
    parse_shell(script->src, {}, -1, CommandContext::Script, v, ignored, &s);
    for (PostParsePass pass : post_parse_passes()) pass(v);
    ParsedFile* f = own(script);
    if (!f) continue;
    f->facts = std::move(v);
    sourced_[f] = std::move(s);
  }
}

const SourcedFiles* Project::sourced_by(const ParsedFile* script) const {
  auto it = sourced_.find(script);
  return it == sourced_.end() ? nullptr : &it->second;
}

}  // namespace sc

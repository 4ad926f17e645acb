// SPDX-License-Identifier: Apache-2.0
// Compose builds: a service that builds a Dockerfile with `build.args` runs that
// Dockerfile with those ARG values. The Dockerfile is parsed again with them, and the
// stages of that build join its facts (after its own stages), so every rule judges the
// image compose builds as well as the Dockerfile's defaults. Facts whose value comes
// from a compose arg sit at the compose line (see parse_dockerfile).
#include <map>

#include "analysis/paths.h"
#include "analysis/project.h"
#include "parsers/dockerfile.h"
#include "parsers/embedded.h"

namespace sc {

namespace {

// Does some build arg give an ARG of `df` another value than its default, or a value to an
// ARG declared without one? (An arg the Dockerfile never names changes nothing.)
bool changes_defaults(const ParsedFile& df, const std::map<std::string, BuildArgValue>& args) {
  for (const auto& [name, given] : args) {
    const EnvSetting* declared = nullptr;
    for (const EnvSetting& e : df.facts->env)
      if (e.origin == EnvOrigin::Arg && e.name == name) declared = &e;
    if (declared ? declared->value != given.value : df.src.text().find(name) != std::string::npos) return true;
  }
  return false;
}

// The facts of `df` built with `args`; empty when no fact uses one of them.
FileFacts build_variant(const ParsedFile& df, const std::map<std::string, BuildArgValue>& args) {
  FileFacts v;
  v.kind = FileKind::Dockerfile;
  ParseDiag ignored;  // the Dockerfile's own parse reported its problems
  parse_dockerfile(df.src, args, v, ignored);
  if (v.expansions.empty()) return {};
  for (PostParsePass pass : post_parse_passes()) pass(v);
  return v;
}

}  // namespace

std::string folder_of(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? std::string() : p.substr(0, s);
}

// The Dockerfile a compose build names, resolved from the compose file's folder.
const ParsedFile* built_dockerfile(const Project& p, const ParsedFile& compose, const BuildSpec& b) {
  std::string dir = folder_of(compose.src.path());
  const ParsedFile* target = b.dockerfile[0] == '/' || dir.empty() ? p.find(b.dockerfile) : p.find(dir + "/" + b.dockerfile);
  return target && target->facts->kind == FileKind::Dockerfile ? target : nullptr;
}

void Project::link_compose_builds() {
  size_t n = files.size();
  for (size_t i = 0; i < n; ++i)
    for (const BuildSpec& b : files[i]->facts->builds) {
      const ParsedFile* built = b.args.empty() || b.dockerfile.empty() ? nullptr : built_dockerfile(*this, *files[i], b);
      if (!built) continue;
      std::map<std::string, BuildArgValue> args;
      for (const EnvSetting& a : b.args) args[a.name] = {a.value, a.loc};
      if (!changes_defaults(*built, args)) continue;  // the Dockerfile's own facts already say it
      FileFacts v = build_variant(*built, args);
      if (v.images.empty()) continue;
      ParsedFile* df = own(built);
      embed_merge(df->facts.edit(), std::move(v), static_cast<int>(df->facts->images.size()));
    }
}

}  // namespace sc

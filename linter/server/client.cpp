// SPDX-License-Identifier: Apache-2.0
#include "server/client.h"

#include <algorithm>
#include <filesystem>

#include "server/lsp_text.h"

namespace sc::lsp {

void read_options(const json& j, ServerOptions& o) {
  if (!j.is_object()) return;
  if (auto s = j.find("sparkcheck"); s != j.end() && s->is_object()) return read_options(*s, o);
  auto d = j.find("debounceMs");
  if (d == j.end() || !d->is_number()) return;
  double ms = d->get<double>();
  if (ms != ms) return;  // NaN
  o.debounce_ms = static_cast<int>(std::clamp(ms, 0.0, static_cast<double>(ServerOptions::kMaxDebounceMs)));
}

const std::vector<std::string>& watch_globs() {
  static const std::vector<std::string> globs = {
      // by extension: Python, notebooks, shell, Markdown, TOML/YAML/JSON configs, lock files
      "**/*.{py,pyw,ipynb,sh,bash,zsh,slurm,sbatch,md,mdx,markdown,toml,yaml,yml,json,lock,cmake,mk,in}",
      // requirements files, Dockerfiles, build files
      "**/*{requirements,Requirements,REQUIREMENTS,constraints,Constraints}*.txt",
      "**/overrides*.txt",
      "**/requirements/**/*.txt",
      "**/*{Dockerfile,dockerfile,DOCKERFILE,Containerfile,containerfile}*",
      "**/{CMakeLists.txt,Makefile,makefile,GNUmakefile}",
      // settings files scripts source (read as shell when they assign variables)
      "**/*.{env,conf,vars}",
      "**/{.env,.envrc,.env.*}",
      // their committed templates (kSettingsTemplateSuffixes)
      "**/*.{env,conf,vars}.{example,sample,template,dist}",
      "**/.envrc.{example,sample,template,dist}",
      "**/*.{yml,yaml}.{example,sample,template,dist}",  // compose files
      // what decides which files are linted
      "**/{.gitignore,.ignore}",
  };
  return globs;
}

bool can_watch(const json& caps) {
  const json* at = &caps;
  for (const char* key : {"workspace", "didChangeWatchedFiles", "dynamicRegistration"}) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return at->is_boolean() && at->get<bool>();
}

json watcher_registration() {
  json watchers = json::array();
  for (const std::string& g : watch_globs()) watchers.push_back({{"globPattern", g}});  // kind: all (7)
  return {{"registrations", json::array({{{"id", "sparkcheck-watched-files"},
                                          {"method", "workspace/didChangeWatchedFiles"},
                                          {"registerOptions", {{"watchers", watchers}}}}})}};
}

std::vector<std::string> changed_paths(const json& params) {
  std::vector<std::string> out;
  auto it = params.find("changes");
  if (it == params.end() || !it->is_array()) return out;
  for (const json& c : *it) {
    if (!c.is_object() || !c.contains("uri") || !c["uri"].is_string()) continue;
    std::string p = uri_to_path(c["uri"].get<std::string>());
    if (!p.empty() && p[0] == '/') out.push_back(std::filesystem::path(p).lexically_normal().generic_string());
  }
  return out;
}

}  // namespace sc::lsp

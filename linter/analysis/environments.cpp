// Install runs and the Python environments they share (Dockerfile stages, host files).
#include "analysis/environments.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "analysis/project.h"
#include "parsers/packaging.h"

namespace sc {

// ---------------------------------------------------------------------------
// runs and environments

namespace {

bool exact(const Requirement& r) { return !r.exact_version.empty() || r.hashed || !r.url.empty(); }

void fill_run(const Project& p, PkgRun& run,
              const std::map<const ParsedFile*, std::vector<const ParsedFile*>>& children,
              const std::map<const ParsedFile*, std::vector<const ParsedFile*>>& cchildren,
              std::vector<const ParsedFile*> todo) {
  const Install& in = *run.install;
  run.members.push_back({run.file, &in});
  run.indexes = in.indexes;
  run.no_deps = in.no_deps;
  run.upgrade = in.upgrade;
  run.torch_backend = in.torch_backend;
  run.torch_backend_value = in.torch_backend_value;
  for (auto& [v, l] : in.constraint_files) {
    Requirement r;
    if (v.find('/') == std::string::npos && parse_requirement(v, r) && !r.specifier.empty()) {
      r.loc = l;
      run.inline_constraints.push_back(std::move(r));
    }
  }
  for (auto& [t, ins] : p.installed_by)
    for (auto& i : ins)
      if (i.install == &in) {
        if (i.constraint) run.constraint_files.push_back(t), run.command_constraints.push_back(t);
        else todo.push_back(t);
      }
  std::set<const ParsedFile*> seen;
  while (!todo.empty()) {
    const ParsedFile* f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    if (f != run.file)
      for (const Install& fi : f->facts.installs) {
        run.members.push_back({f, &fi});
        run.indexes.insert(run.indexes.end(), fi.indexes.begin(), fi.indexes.end());
      }
    auto it = children.find(f);
    if (it != children.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
    auto ct = cchildren.find(f);
    if (ct != cchildren.end()) run.constraint_files.insert(run.constraint_files.end(), ct->second.begin(), ct->second.end());
  }
  for (const PkgMember& m : run.members)
    for (const Requirement& r : m.install->packages)
      if (exact(r)) run.exact_pins.emplace(r.name, &r);
  for (const ParsedFile* cf : run.constraint_files)
    for (const Install& ci : cf->facts.installs)
      for (const Requirement& r : ci.packages)
        if (exact(r)) run.exact_pins.emplace(r.name, &r);
}

}  // namespace

std::vector<PkgEnv> package_envs(const Project& p) {
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> children, cchildren;
  for (auto& [c, parents] : p.included_by)
    for (auto* par : parents) children[par].push_back(c);
  for (auto& [c, parents] : p.constrained_by)
    for (auto* par : parents) cchildren[par].push_back(c);
  std::vector<PkgEnv> envs;
  for (const auto& up : p.files) {
    const ParsedFile& f = *up;
    if (f.facts.installs.empty()) continue;
    if (f.facts.kind == FileKind::Dockerfile) {
      int n = static_cast<int>(f.facts.images.size());
      for (int s = 0; s < n; ++s) {
        PkgEnv env;
        env.dockerfile = &f;
        env.stage = s;
        env.image = p.stage_image(f, s);
        std::set<int> chain;
        for (int k = s; k >= 0 && k < n && chain.insert(k).second;)
          k = f.facts.images[k].from_stage ? f.facts.images[k].parent_stage : -1;
        for (const Install& in : f.facts.installs) {
          if (!chain.count(in.stage)) continue;
          PkgRun run;
          run.file = &f;
          run.install = &in;
          fill_run(p, run, children, cchildren, {});
          env.runs.push_back(std::move(run));
        }
        if (!env.runs.empty()) envs.push_back(std::move(env));
      }
      continue;
    }
    if (f.facts.kind == FileKind::Requirements) {
      // Judged through whatever installs or includes it; on its own only as a root.
      if (p.installed_by.count(&f) || p.included_by.count(&f) || p.constrained_by.count(&f)) continue;
      std::string base = f.src.path().substr(f.src.path().rfind('/') + 1);
      if (starts_with(lower(base), "constraints")) continue;
    }
    PkgEnv env;
    for (const Install& in : f.facts.installs) {
      PkgRun run;
      run.file = &f;
      run.install = &in;
      std::vector<const ParsedFile*> todo;
      if (f.facts.kind == FileKind::Requirements) todo.push_back(&f);
      fill_run(p, run, children, cchildren, todo);
      env.runs.push_back(std::move(run));
    }
    envs.push_back(std::move(env));
  }
  return envs;
}

const Requirement* run_pin(const PkgRun& run, const std::string& name) {
  auto it = run.exact_pins.find(name);
  return it == run.exact_pins.end() ? nullptr : it->second;
}

bool run_pins(const Project& p, const PkgRun& run, const std::string& name) {
  if (run_pin(run, name)) return true;
  for (const Requirement& r : run.inline_constraints)
    if (r.name == name && exact(r)) return true;
  return p.has_lockfile_pin(name);
}

}  // namespace sc

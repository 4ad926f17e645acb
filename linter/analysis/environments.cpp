// SPDX-License-Identifier: Apache-2.0
// Install runs and the Python environments they share (Dockerfile stages, host files).
#include "analysis/environments.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "analysis/paths.h"
#include "analysis/project.h"
#include "parsers/packaging.h"

namespace sc {

// ---------------------------------------------------------------------------
// runs and environments

namespace {

bool exact(const Requirement& r) { return exact_pin(r); }

// The ref after the last '@' of a VCS URL's path ("main", a commit, "v2.5.1"), or "".
std::string vcs_ref(const std::string& url) {
  size_t at = url.rfind('@');
  size_t scheme = url.find("://");
  if (at == std::string::npos || (scheme != std::string::npos && at < scheme)) return "";
  std::string ref = url.substr(at + 1);
  if (ref.find('/') != std::string::npos && url.find('/', at) != std::string::npos) return "";  // user@host/...
  return ref.substr(0, ref.find_first_of("#?"));
}

bool commit_or_tag(const std::string& ref) {
  bool hex = ref.size() == 40 && ref.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
  size_t d = ref.find_first_of("0123456789");
  bool tag = d != std::string::npos && d <= 1 && ref.find('.') != std::string::npos;  // v2.5.1, 0.4.post1
  return hex || tag;
}

}  // namespace

bool exact_pin(const Requirement& r) {
  if (!r.exact_version.empty() || r.hashed) return true;
  if (r.url.empty()) return false;
  if (r.url.rfind("git+", 0) != 0 && r.url.rfind("hg+", 0) != 0) return true;  // wheel / archive URL
  return commit_or_tag(vcs_ref(r.url));
}

namespace {

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
  size_t named_files = 0;  // -c values that name a file
  for (auto& [v, l] : in.constraint_files) {
    Requirement r;
    if (v.find('/') == std::string::npos && parse_requirement(v, r) && !r.specifier.empty()) {
      r.loc = l;
      run.inline_constraints.push_back(std::move(r));
    } else {
      ++named_files;
    }
  }
  for (auto& [t, ins] : p.installed_by)
    for (auto& i : ins)
      if (i.install == &in) {
        if (i.constraint) run.constraint_files.push_back(t), run.command_constraints.push_back(t);
        else todo.push_back(t);
      }
  run.unseen_constraints = named_files > run.command_constraints.size();
  std::set<const ParsedFile*> seen;
  while (!todo.empty()) {
    const ParsedFile* f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    if (f != run.file)
      for (const Install& fi : f->facts->installs) {
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
    for (const Install& ci : cf->facts->installs)
      for (const Requirement& r : ci.packages)
        if (exact(r)) run.exact_pins.emplace(r.name, &r);
}

}  // namespace

namespace {

// -r / -c links turned around: parent file -> the files it includes / constrains.
struct Links {
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> children, cchildren;
  mutable std::map<const ParsedFile*, int> venv_lines;  // first_venv_line, once per file
  explicit Links(const Project& p) {
    for (auto& [c, parents] : p.included_by)
      for (auto* par : parents) children[par].push_back(c);
    for (auto& [c, parents] : p.constrained_by)
      for (auto* par : parents) cchildren[par].push_back(c);
  }
};

// The first line of `f` that makes a virtual environment (`python -m venv`, `virtualenv`,
// `uv venv`); 0 when none does.
int first_venv_line(const FileFacts& f) {
  int first = 0;
  for (const Command& c : f.commands) {
    if ((!first || c.loc.range.line < first) && makes_venv(c)) first = c.loc.range.line;
  }
  return first;
}

PkgRun make_run(const Project& p, const Links& l, const ParsedFile& f, const Install& in,
                std::vector<const ParsedFile*> todo) {
  PkgRun run;
  run.file = &f;
  run.install = &in;
  run.stage = in.stage;
  auto [venv, fresh] = l.venv_lines.try_emplace(&f, 0);
  if (fresh) venv->second = first_venv_line(*f.facts);
  run.after_venv = venv->second > 0 && venv->second < in.loc.range.line;
  fill_run(p, run, l.children, l.cchildren, std::move(todo));
  return run;
}

// Installs that run in an image outside a Dockerfile: a Markdown document's Dockerfile blocks,
// `docker run IMAGE pip install ...`.
bool staged(const ParsedFile& f) {
  for (const Install& in : f.facts->installs)
    if (in.stage >= 0) return true;
  return false;
}

// The installs of scripts that a RUN of a stage in `chain` runs (Project::image_scripts).
bool script_runs(const Project& p, const Links& l, const ParsedFile& df, const std::set<int>& chain,
                 std::vector<PkgRun>& runs) {
  bool any = false;
  for (const auto& [script, where] : p.image_scripts)
    for (const Project::ImageScriptRun& at : where) {
      if (at.dockerfile != &df || !chain.count(at.stage)) continue;
      for (const Install& in : script->facts->installs) {
        PkgRun run = make_run(p, l, *script, in, {});
        run.stage = at.stage;
        run.via = at.via;
        runs.push_back(std::move(run));
        any = true;
      }
    }
  return any;
}

// Runs in the order the image build meets them: a script's at its RUN line.
void in_run_order(std::vector<PkgRun>& runs) {
  auto line = [](const PkgRun& r) { return r.via.range.valid() ? r.via.range.line : r.install->loc.range.line; };
  std::stable_sort(runs.begin(), runs.end(), [&](const PkgRun& a, const PkgRun& b) { return line(a) < line(b); });
}

// One environment per image stage (Dockerfile stage, docker run IMAGE): the runs of the stage
// and of the stages it builds on.
void dockerfile_envs(const Project& p, const Links& l, const ParsedFile& f, std::vector<PkgEnv>& envs) {
  int n = static_cast<int>(f.facts->images.size());
  for (int s = 0; s < n; ++s) {
    if (!p.stage_built(f, s)) continue;  // a stage nothing needs is not built
    PkgEnv env{&f, s, p.stage_image(f, s), {}};
    std::set<int> chain;
    for (int k = s; k >= 0 && k < n && chain.insert(k).second;)
      k = f.facts->images[k].from_stage ? f.facts->images[k].parent_stage : -1;
    for (const Install& in : f.facts->installs)
      if (chain.count(in.stage)) env.runs.push_back(make_run(p, l, f, in, {}));
    if (script_runs(p, l, f, chain, env.runs)) in_run_order(env.runs);
    if (!env.runs.empty()) envs.push_back(std::move(env));
  }
}

// A requirements file is judged through whatever installs or includes it; on its own only
// as a root (and never a constraints file).
bool root_requirements(const Project& p, const ParsedFile& f) {
  if (p.installed_by.count(&f) || p.included_by.count(&f) || p.constrained_by.count(&f)) return false;
  if (p.filtered_in_image(f)) return false;
  const std::string& path = f.src.path();
  std::string base = path.substr(path.rfind('/') + 1);
  // `requirements.in` beside its compiled `requirements.txt` is the compiler's input (pip-compile,
  // uv pip compile): what is installed is the .txt
  if (ends_with(path, ".in") && p.find(path.substr(0, path.size() - 3) + ".txt")) return false;
  // "this file is for reference": a record of versions, not an install
  if (!f.facts->installs.empty() && f.facts->installs.front().reference_only) return false;
  return !starts_with(lower(base), "constraints");
}

// A folder of third-party code the project carries: vendor/, third_party/, 3rdparty/...
bool vendored_dir(std::string_view part) {
  static const std::set<std::string, std::less<>> names = {"vendor", "vendored", "_vendor", "third_party",
                                                           "third-party", "thirdparty", "3rdparty", "3rd_party"};
  return names.count(part) > 0;
}

// The folder of `path` from its vendored folder on ("vendor/ltx2/packages/ltx-core"), or "".
std::string vendored_folder(const std::string& path) {
  std::string dir = folder_of(path);
  for (size_t at = 0; at < dir.size();) {
    size_t slash = dir.find('/', at);
    size_t end = slash == std::string::npos ? dir.size() : slash;
    if (vendored_dir(std::string_view(dir).substr(at, end - at))) return dir.substr(at);
    at = end + 1;
  }
  return "";
}

// Does a command of the project name `folder` as a path (`pip install -e ./vendor/x`)?
bool names_folder(const Project& p, const std::string& folder) {
  for (const auto& up : p.files)
    for (const Command& c : up->facts->commands)
      for (const Word& w : c.argv) {
        std::string t = path_in_dir("", w.text);
        while (!t.empty() && t.back() == '/') t.pop_back();
        if (t == folder || ends_with(t, "/" + folder)) return true;
      }
  return false;
}

// A package manifest in a vendored copy (vendor/**/pyproject.toml) is judged only where the
// project installs it: the copy's own dependencies are its upstream's choice.
bool unused_vendored(const Project& p, const ParsedFile& f) {
  std::string folder = vendored_folder(std::string(f.src.path()));
  if (folder.empty() || p.installed_by.count(&f) || p.included_by.count(&f)) return false;
  return !names_folder(p, folder);
}

// One environment per host file, its installs outside images (script, notebook, root requirements file, pyproject...).
PkgEnv host_env(const Project& p, const Links& l, const ParsedFile& f) {
  PkgEnv env;
  bool req = f.facts->kind == FileKind::Requirements;
  for (const Install& in : f.facts->installs)
    if (in.stage < 0)  // installs in an image belong to that image's environment
      env.runs.push_back(make_run(p, l, f, in, req ? std::vector<const ParsedFile*>{&f} : std::vector<const ParsedFile*>{}));
  return env;
}

}  // namespace

std::vector<PkgEnv> package_envs(const Project& p) {
  Links l(p);
  std::set<const ParsedFile*> run_scripts;  // Dockerfiles whose RUNs run project scripts
  for (const auto& [script, where] : p.image_scripts)
    for (const Project::ImageScriptRun& at : where) run_scripts.insert(at.dockerfile);
  std::vector<PkgEnv> envs;
  for (const auto& up : p.files) {
    const ParsedFile& f = *up;
    if (f.facts->installs.empty() && !run_scripts.count(&f)) continue;
    bool dockerfile = f.facts->kind == FileKind::Dockerfile;
    if (dockerfile || staged(f)) dockerfile_envs(p, l, f, envs);
    if (dockerfile || (f.facts->kind == FileKind::Requirements && !root_requirements(p, f))) continue;
    if (p.image_scripts.count(&f)) continue;  // judged in the images that run it
    if (!staged(f) && unused_vendored(p, f)) continue;
    if (PkgEnv env = host_env(p, l, f); !env.runs.empty()) envs.push_back(std::move(env));
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
  // a pip command resolves on its own: uv.lock / poetry.lock pin only what uv or poetry install
  bool pip_command = run.install && (run.install->tool == Installer::Pip || run.install->tool == Installer::UvPip);
  return !pip_command && p.has_lockfile_pin(name, run.file ? std::string(run.file->src.path()) : std::string());
}

}  // namespace sc

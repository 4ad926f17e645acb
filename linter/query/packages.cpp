// SPDX-License-Identifier: Apache-2.0
// The packaging questions shared by G1, G2 and G9.
#include "query/packages.h"
#include "core/path_names.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include "analysis/paths.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "knowledge/markers.h"
#include "knowledge/versions.h"
#include "parsers/packaging.h"

namespace sc::query {

const std::vector<PkgEnv>& environments(const Project& p) { return p.envs; }

std::vector<InstalledPackage> packages_in(const PkgEnv& env) {
  std::vector<InstalledPackage> out;
  for (const PkgRun& run : env.runs)
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages)
        if (!requirement_skips_aarch64(r) && !from_own_wheels(*m.install)) out.push_back({&env, &run, &m, &r});
  return out;
}

bool from_own_wheels(const Install& in) {
  return in.no_index && std::any_of(in.indexes.begin(), in.indexes.end(),
                                    [](const IndexUrl& ix) { return ix.role == IndexRole::FindLinks; });
}

std::vector<InstalledPackage> installs_of(const Project& p, std::string_view name) {
  std::vector<InstalledPackage> out;
  for (const PkgEnv& env : environments(p))
    for (const InstalledPackage& ip : packages_in(env))
      if (ip.req->name == name) out.push_back(ip);
  return out;
}

const PkgEnv* env_of(const Project& p, const Install& in) {
  for (const PkgEnv& env : environments(p))
    for (const PkgRun& run : env.runs)
      if (run.install == &in && (!env.dockerfile || env.stage == run.stage)) return &env;
  return nullptr;
}

bool run_installs(const PkgRun& run, std::string_view name) {
  for (const PkgMember& m : run.members)
    for (const Requirement& r : m.install->packages)
      if (r.name == name) return true;
  return false;
}

bool pinned(const Project& p, const PkgRun& run, const std::string& name) { return run_pins(p, run, name); }

bool exact(const Requirement& r) { return exact_pin(r); }

bool lower_bound_only(const Requirement& r) {
  return !r.specifier.empty() && !r.has_upper_bound && r.specifier.find('>') != std::string::npos;
}

bool pip_like(Installer t) {
  return t == Installer::Pip || t == Installer::UvPip || t == Installer::UvAdd || t == Installer::RequirementsFile;
}

bool conda_like(Installer t) { return t == Installer::Conda || t == Installer::CondaEnvFile; }

std::vector<Related> command_of(const InstalledPackage& ip) {
  std::vector<Related> rel;
  if (ip.member->file != ip.run->file) rel.push_back({ip.run->install->loc, "installed by this command"});
  if (ip.run->via.range.valid()) rel.push_back({ip.run->via, "this RUN runs the script in the image"});
  return rel;
}

std::vector<Related> install_sites(const Project& p, const ParsedFile& f) {
  std::vector<Related> rel;
  if (f.facts->kind != FileKind::Requirements) return rel;
  for (const auto& c : where_installed(p, f)) {
    if (!c.via.range.valid()) continue;
    std::string what = c.dockerfile ? "installed in this Dockerfile stage" : "installed by this command";
    if (c.image) what += " (base image " + c.image->ref + ")";
    rel.push_back({c.via, what});
  }
  return rel;
}

std::vector<InstallContext> where_installed(const Project& p, const ParsedFile& f) { return p.contexts_for(f); }

const Image* base_image(const Project& p, const ParsedFile& dockerfile, int stage) {
  return p.stage_image(dockerfile, stage);
}

const Image* ngc_image(const PkgEnv& env) {
  return env.image && is_ngc_framework_image(env.image->ref) ? env.image : nullptr;
}

namespace {
// The other-platform path words, read once: every file's path is checked, some twice.
const std::vector<std::string>& other_platform_words() {
  static const std::vector<std::string> words = knowledge::table("other-platform-paths").values();
  return words;
}

// `seg` lower-cased (ASCII) equals `word`.
bool lower_equals(std::string_view seg, std::string_view word) {
  if (seg.size() != word.size()) return false;
  for (size_t i = 0; i < seg.size(); ++i) {
    char c = seg[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != word[i]) return false;
  }
  return true;
}

// Does a segment of `path` name another platform?
bool other_platform_words(std::string_view path) {
  const auto& words = other_platform_words();
  size_t from = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/' && path[i] != '-' && path[i] != '_' && path[i] != '.') continue;
    std::string_view seg = path.substr(from, i - from);
    for (const std::string& w : words)
      if (lower_equals(seg, w)) return true;
    from = i + 1;
  }
  return false;
}
}  // namespace

bool other_platform_image(const Image* im) {
  return im && knowledge::table("other-platform-images").match(lower(im->ref));
}

namespace {
int heading_platform(std::string_view title);

// The README of `dir` (a display path, "" for the root) titles its folder for another platform:
// its first level-1 heading names one ("# Gemma Jetson examples"), and not the Spark.
bool readme_titles_other_platform(const Project& p, std::string_view dir) {
  for (std::string_view name : {"README.md", "readme.md", "Readme.md"}) {
    const ParsedFile* f = p.find(dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name));
    if (!f) continue;
    for (const Section& s : f->facts->sections)
      if (s.level == 1) return !s.negated && heading_platform(s.title) > 0;
    return false;
  }
  return false;
}

// A folder holding `path`, from the project's top down, is titled for another platform by its README.
bool in_other_platform_folder(const Project& p, std::string_view path) {
  std::string_view below = p.below_top(path);
  size_t start = path.size() - below.size();  // where the part below the top begins
  for (size_t slash = below.find('/'); slash != std::string_view::npos; slash = below.find('/', slash + 1))
    if (readme_titles_other_platform(p, path.substr(0, start + slash))) return true;
  return false;
}
}  // namespace

namespace {
// A conda environment exported on another machine (`conda env export` on x86_64 pins
// ld_impl_linux-64 with its build): conda cannot create it on the Spark, and nothing in it is a
// Spark install.
bool exported_elsewhere(const Project& p, std::string_view path) {
  const ParsedFile* f = p.find(std::string(path));
  if (!f || f->facts->kind != FileKind::CondaEnv) return false;
  // asked for every package of every file: a suffix compare per package, not a pattern match
  static const std::vector<std::string> suffixes = knowledge::table("other-platform-conda-packages").values("suffix");
  auto platform_only = [](const std::string& name) {
    return std::any_of(suffixes.begin(), suffixes.end(), [&](const std::string& sfx) {
      return name.size() > sfx.size() && ends_with(name, sfx) &&
             (name[name.size() - sfx.size() - 1] == '-' || name[name.size() - sfx.size() - 1] == '_');
    });
  };
  // the answer for the file last asked (rules ask once per package of it), keyed by its facts,
  // path and conda package count so another file, or an edited one, is read again
  struct Last {
    const FileFacts* facts = nullptr;
    std::string path;
    size_t conda_packages = 0;
    bool exported = false;
  };
  thread_local Last last;
  size_t n = 0;
  for (const Install& in : f->facts->installs)
    if (conda_like(in.tool)) n += in.packages.size();
  if (last.facts == &*f->facts && last.path == path && last.conda_packages == n) return last.exported;
  bool exported = false;
  for (const Install& in : f->facts->installs)
    exported = exported || (conda_like(in.tool) && std::any_of(in.packages.begin(), in.packages.end(),
                                                               [&](const Requirement& r) { return platform_only(r.name); }));
  last = {&*f->facts, std::string(path), n, exported};
  return exported;
}
}  // namespace

bool other_platform(const Project& p, std::string_view path) {
  return other_platform_words(p.below_top(path)) || in_other_platform_folder(p, path) || exported_elsewhere(p, path);
}

bool other_platform_env(const Project& p, const PkgEnv& env) {
  return other_platform_image(env.image) || (env.dockerfile && other_platform(p, env.dockerfile->src.path()));
}

bool other_platform_install(const Project& p, const ParsedFile& f, const Install& in) {
  if (other_platform(p, f.src.path()) || other_platform_section(*f.facts, in.loc.range.line)) return true;
  return in.stage >= 0 && other_platform_image(base_image(p, f, in.stage));
}

namespace {

// Which platform a heading names: +1 another one's, -1 the Spark's (that wins), 0 none.
// Words are runs of letters, digits and '_' (so `x86_64` and `mi355x` stay whole).
int heading_platform(std::string_view title) {
  static const knowledge::Table& t = knowledge::table("other-platform-headings");
  int found = 0;
  size_t i = 0;
  while (i < title.size()) {
    while (i < title.size() && !std::isalnum(static_cast<unsigned char>(title[i])) && title[i] != '_') ++i;
    size_t b = i;
    while (i < title.size() && (std::isalnum(static_cast<unsigned char>(title[i])) || title[i] == '_')) ++i;
    if (i == b) continue;
    const knowledge::Entry* e = t.find(lower(title.substr(b, i - b)));
    if (!e) continue;
    if (e->get("spark") == "yes") return -1;
    found = 1;
  }
  return found;
}

}  // namespace

bool other_platform_section(const FileFacts& f, int line) {
  if (f.sections.empty() || line <= 0) return false;
  // the headings above `line` that are still open: each closes the ones of its level and deeper
  std::vector<const Section*> open;
  for (const Section& s : f.sections) {
    if (s.line > line) break;
    while (!open.empty() && open.back()->level >= s.level) open.pop_back();
    open.push_back(&s);
  }
  for (auto it = open.rbegin(); it != open.rend(); ++it)
    if (int k = heading_platform((*it)->title)) return (*it)->negated ? k < 0 : k > 0;
  return false;
}

bool copied_page(const FileFacts& f) {
  static const knowledge::Table& t = knowledge::table("copied-page-keys");
  bool address = false, retrieval = false;
  for (const std::string& kv : f.front_matter) {
    size_t colon = kv.find(':');
    const knowledge::Entry* e = t.find(kv.substr(0, colon));
    if (!e) continue;
    std::string_view value = std::string_view(kv).substr(colon + 1);
    if (e->get("role") == "retrieval") retrieval = true;
    else address = address || value.find("http://") == 1 || value.find("https://") == 1;
  }
  return address && retrieval;
}

bool other_platform_at(const Project& p, const Location& at) {
  if (other_platform(p, at.path.str())) return true;
  const ParsedFile* f = p.find(at.path.str());
  return f && other_platform_section(*f->facts, at.range.line);
}

bool index_off_spark(const IndexUrl& ix) {
  return ix.by_source && std::all_of(ix.source_markers.begin(), ix.source_markers.end(),
                                     [](const std::string& m) { return !m.empty() && marker_false_on_spark(m); });
}

bool other_platform_package(const Project& p, const InstalledPackage& ip) {
  return other_platform_at(p, ip.req->loc) || (ip.run && ip.run->install && other_platform_at(p, ip.run->install->loc));
}

namespace {

// A requirement that puts a CUDA-capable torch in place: `torch` pinned exactly (pip), or a
// conda `pytorch` with a version or `pytorch-cuda`.
bool torch_pin(const Installer t, const Requirement& r) {
  if (conda_like(t)) return r.name == "pytorch-cuda" || ((r.name == "pytorch" || r.name == "torch") && !r.specifier.empty());
  return r.name == "torch" && exact(r);
}

}  // namespace

namespace {

// Do the runs of `env` run one after another on one machine: a Dockerfile stage's RUNs, a
// shell script's lines? (A README's or a CI file's installs are often alternatives.)
bool in_sequence(const PkgEnv& env, const PkgRun& run) {
  if (env.dockerfile) return env.dockerfile->facts->kind == FileKind::Dockerfile;
  return run.file && run.file->facts->kind == FileKind::Shell;
}

// Does `later` run after `run` on the same machine, whatever else the file says: one
// Dockerfile stage chain, one shell script, one notebook, or one Markdown code block / CI job.
bool same_sequence(const PkgEnv& env, const PkgRun& run, const PkgRun& later) {
  if (in_sequence(env, run)) return true;
  if (env.dockerfile || !run.file || run.file != later.file || !run.install || !later.install) return false;
  const FileFacts& f = *run.file->facts;
  if (f.kind == FileKind::Notebook) return true;
  int a = run.install->loc.range.line, b = later.install->loc.range.line;
  for (const auto& [first, last] : f.code_lines)
    if (first <= a && b <= last) return true;
  return std::any_of(f.ci_jobs.begin(), f.ci_jobs.end(), [&](const CiJob& j) { return j.first <= a && b <= j.last; });
}

// Is the run's torch a CUDA build: a CUDA index or uv backend?
bool cuda_source(const PkgRun& run) {
  if (run.torch_backend && lower(run.torch_backend_value) != "cpu") return true;
  for (const IndexUrl& ix : run.indexes)
    if (!index_off_spark(ix) && (ix.role == IndexRole::IndexUrl || ix.role == IndexRole::ExtraIndexUrl) && cuda_of_url(ix.url) > 0) return true;
  return false;
}

// Does an earlier install `e` (in run `earlier`) stay when `r` is installed after it?
bool stays(const Requirement& e, const PkgRun& earlier, const Requirement& r, bool& from_cuda) {
  from_cuda = cuda_tag_value(e.local_version) > 0 || cuda_source(earlier);
  if (!e.exact_version.empty()) return knowledge::specifier_allows(r.specifier, e.exact_version);
  return from_cuda && (r.specifier.empty() || lower_bound_only(r));
}

constexpr size_t kNone = static_cast<size_t>(-1);

}  // namespace

// One environment's runs in order: each run's position, the first torch, every requirement
// by name, and (filled per name on first ask) the runs that pin a name exactly.
struct InstallOrder::EnvIndex {
  std::map<const PkgRun*, size_t> pos;
  size_t torch_run = kNone;
  const Requirement* torch = nullptr;
  size_t project_run = kNone;
  std::map<std::string, std::vector<std::pair<size_t, const Requirement*>>, std::less<>> by_name;
  std::map<std::string, std::vector<std::pair<size_t, const Requirement*>>, std::less<>> pins;
};

InstallOrder::InstallOrder() = default;
InstallOrder::~InstallOrder() = default;

InstallOrder::EnvIndex& InstallOrder::index(const PkgEnv& env) {
  auto& slot = envs_[&env];
  if (slot) return *slot;
  slot = std::make_unique<EnvIndex>();
  for (size_t i = 0; i < env.runs.size(); ++i) {
    const PkgRun& run = env.runs[i];
    slot->pos.emplace(&run, i);
    bool cuda = cuda_source(run);  // `pip install torch --index-url .../cu130`: a CUDA torch, any version
    if (run.install->local_project && slot->project_run == kNone) slot->project_run = i;
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages) {
        if (requirement_skips_aarch64(r)) continue;
        slot->by_name[r.name].emplace_back(i, &r);
        if (!slot->torch && (torch_pin(m.install->tool, r) || (cuda && r.name == "torch"))) {
          slot->torch_run = i;
          slot->torch = &r;
        }
      }
  }
  return *slot;
}

const Requirement* InstallOrder::torch_before(const PkgEnv& env, const PkgRun& run) {
  EnvIndex& ix = index(env);
  auto at = ix.pos.find(&run);
  size_t here = at == ix.pos.end() ? env.runs.size() : at->second;
  return ix.torch_run < here ? ix.torch : nullptr;
}

const Install* InstallOrder::project_before(const PkgEnv& env, const PkgRun& run) {
  EnvIndex& ix = index(env);
  auto at = ix.pos.find(&run);
  size_t here = at == ix.pos.end() ? env.runs.size() : at->second;
  return ix.project_run < here ? env.runs[ix.project_run].install : nullptr;
}

namespace {

// The conda environment `f` activates last before `line` (`conda|mamba|micromamba activate
// NAME`, `source activate NAME`); "" when none.
std::string active_conda_env(const FileFacts& f, int line) {
  std::string name;
  for (const Command& c : f.commands) {
    if (c.loc.range.line >= line) break;
    const auto& a = c.argv;
    if (a.size() < 3 || a[1].text != "activate" || !a[2].resolved || starts_with(a[2].text, "-")) continue;
    const std::string& prog = a[0].text;
    if (prog == "conda" || prog == "mamba" || prog == "micromamba" || prog == "source") name = a[2].text;
  }
  return name;
}

// Each named conda env's first torch: a CUDA-index or exactly pinned torch installed on the
// host while `conda activate NAME` is in effect.
std::map<std::string, const Requirement*> conda_torches(const Project& p) {
  std::map<std::string, const Requirement*> out;
  for (const PkgEnv& env : environments(p))
    for (const PkgRun& r : env.runs) {
      if (env.dockerfile || !r.file || !r.install) continue;
      bool cuda = cuda_source(r);
      auto torch = std::find_if(r.install->packages.begin(), r.install->packages.end(),
                                [&](const Requirement& q) { return q.name == "torch" && (cuda || exact(q)); });
      if (torch == r.install->packages.end()) continue;
      std::string name = active_conda_env(*r.file->facts, r.install->loc.range.line);
      if (!name.empty()) out.try_emplace(name, &*torch);
    }
  return out;
}

}  // namespace

const Requirement* InstallOrder::torch_in_conda_env(const Project& p, const PkgRun& run) {
  if (!run.file || !run.install) return nullptr;
  if (!conda_torch_) conda_torch_ = conda_torches(p);
  std::string name = active_conda_env(*run.file->facts, run.install->loc.range.line);
  auto it = name.empty() ? conda_torch_->end() : conda_torch_->find(name);
  return it == conda_torch_->end() ? nullptr : it->second;
}

const Requirement* InstallOrder::kept_from_earlier(const PkgEnv& env, const PkgRun& run, const Requirement& r,
                                                   bool* cuda) {
  if (run.upgrade || !r.url.empty() || r.name.empty() || !in_sequence(env, run)) return nullptr;
  EnvIndex& ix = index(env);
  auto at = ix.pos.find(&run);
  auto named = ix.by_name.find(r.name);
  if (at == ix.pos.end() || named == ix.by_name.end()) return nullptr;
  // pip keeps or replaces by the last earlier install of the name
  const auto& list = named->second;
  auto after = std::lower_bound(list.begin(), list.end(), std::make_pair(at->second, static_cast<const Requirement*>(nullptr)),
                                [](const auto& a, const auto& b) { return a.first < b.first; });
  if (after == list.begin()) return nullptr;
  const auto& [i, e] = *std::prev(after);
  bool from_cuda = false;
  if (!stays(*e, env.runs[i], r, from_cuda)) return nullptr;
  if (cuda) *cuda = from_cuda;
  return e;
}

const Requirement* InstallOrder::pinned_later(const PkgEnv& env, const PkgRun& run, const std::string& name) {
  EnvIndex& ix = index(env);
  auto at = ix.pos.find(&run);
  if (at == ix.pos.end()) return nullptr;
  auto [slot, fresh] = ix.pins.try_emplace(name);
  if (fresh)
    for (size_t i = 0; i < env.runs.size(); ++i)
      if (const Requirement* r = run_pin(env.runs[i], name); r && !requirement_skips_aarch64(*r)) slot->second.emplace_back(i, r);
  const auto& pins = slot->second;  // runs in order: the first after `run`
  auto after = std::upper_bound(pins.begin(), pins.end(), at->second, [](size_t i, const auto& p) { return i < p.first; });
  for (auto it = after; it != pins.end(); ++it)
    if (same_sequence(env, run, env.runs[it->first])) return it->second;
  return nullptr;
}

namespace {

// The names `pip uninstall [-y] ...` removes (pip3, python -m pip, uv pip), into `out`.
void uninstalled_names(const Command& c, std::set<std::string>& out) {
  auto it = std::find_if(c.argv.begin(), c.argv.end(), [](const Word& w) { return w.text == "uninstall"; });
  if (it == c.argv.end() || it == c.argv.begin() || base_name(std::prev(it)->text).rfind("pip", 0) != 0) return;
  constexpr size_t kMaxNames = 1000;  // a planted cleanup line cannot grow memory without bound
  for (++it; it != c.argv.end() && out.size() < kMaxNames; ++it)
    if (it->resolved && !it->text.empty() && it->text[0] != '-') out.insert(normalize_pkg_name(it->text));
}

// The folders `rm -rf ...` removes, without trailing slashes.
std::vector<std::string> removed_dirs(const Command& c) {
  std::vector<std::string> out;
  if (c.argv.empty() || base_name(c.argv.front().text) != "rm") return out;
  for (size_t i = 1; i < c.argv.size() && out.size() < 64; ++i) {
    std::string t = c.argv[i].text;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    if (c.argv[i].resolved && !t.empty() && t[0] != '-') out.push_back(t);
  }
  return out;
}

// The venv folder whose pip ran `c` (`/tmp/prep-venv/bin/pip install ...`), or "".
std::string venv_of(const Command* c) {
  if (!c || c->argv.empty() || !c->argv.front().resolved) return "";
  const std::string& prog = c->argv.front().text;
  size_t bin = prog.rfind("/bin/");
  return bin != std::string::npos && bin > 0 && base_name(prog).rfind("pip", 0) == 0 ? prog.substr(0, bin) : "";
}

}  // namespace

const InstallOrder::FileCleanups& InstallOrder::cleanups(const ParsedFile& f) {
  auto [slot, fresh] = cleanups_.try_emplace(&f);
  if (!fresh) return slot->second;
  constexpr size_t kMaxCleanups = 64;  // a cleanup step is rare; a planted file of them stays linear
  for (const Command& c : f.facts->commands) {
    slot->second.command_at_line.try_emplace(c.loc.range.line, &c);
    if (slot->second.cleanups.size() >= kMaxCleanups) continue;
    Cleanup k{c.loc.range.line, c.stage, {}, removed_dirs(c)};
    uninstalled_names(c, k.uninstalled);
    if (!k.uninstalled.empty() || !k.removed_dirs.empty()) slot->second.cleanups.push_back(std::move(k));
  }
  return slot->second;
}

bool InstallOrder::removed_later(const PkgEnv& env, const PkgRun& run, const std::string& name) {
  const ParsedFile* f = run.file;  // a script a RUN runs: only its own later lines
  if (!f || !run.install || (f != env.dockerfile && f->facts->kind != FileKind::Shell)) return false;
  const FileCleanups& fc = cleanups(*f);
  if (fc.cleanups.empty()) return false;
  int line = run.install->loc.range.end_line;
  auto at = fc.command_at_line.find(run.install->loc.range.line);
  std::string venv = venv_of(at == fc.command_at_line.end() ? nullptr : at->second);
  for (const Cleanup& k : fc.cleanups) {
    if (k.line <= line || (f == env.dockerfile && k.stage != run.stage)) continue;
    if (k.uninstalled.count(name) ||
        (!venv.empty() && std::find(k.removed_dirs.begin(), k.removed_dirs.end(), venv) != k.removed_dirs.end()))
      return true;
  }
  return false;
}

namespace {

// The compose service whose command holds the install at `at`, or null.
const ComposeService* service_at(const FileFacts& f, const Location& at) {
  for (const ComposeService& s : f.services)
    for (size_t i = s.first_command; i < s.end_command && i < f.commands.size(); ++i)
      if (f.commands[i].loc.range.line <= at.range.line && at.range.line <= f.commands[i].loc.range.end_line) return &s;
  return nullptr;
}

// Where the commands on the install's lines come from (`docker run IMAGE bash -c "pip ..."`:
// the outer command's); Script when none says more.
CommandContext context_at(const FileFacts& f, const Location& at) {
  CommandContext found = CommandContext::Script;
  for (const Command& c : f.commands)
    if (c.loc.range.line <= at.range.line && at.range.line <= c.loc.range.end_line && c.context != CommandContext::Script)
      found = c.context;
  return found;
}

// An install in an image that a file other than a Dockerfile names: how that file runs it.
std::string image_place(const ParsedFile& file, const std::string& ref, const Location& at) {
  const std::string& path = file.src.path();
  if (const ComposeService* s = service_at(*file.facts, at)) return "inside " + ref + " (compose service '" + s->name + "')";
  switch (context_at(*file.facts, at)) {
    case CommandContext::Kubernetes: return "inside " + ref + " (a Kubernetes container of " + path + ")";
    case CommandContext::Run:
    case CommandContext::Cmd:
    case CommandContext::Entrypoint: return "in the " + ref + " stage of the Dockerfile " + path + " writes";
    case CommandContext::Container: return "inside " + ref + " (started by `docker run` in " + path + ")";
    case CommandContext::Skypilot: return "inside " + ref + " (the SkyPilot task " + path + ")";
    default: return "inside " + ref + " (the container " + path + " runs it in)";
  }
}

}  // namespace

std::string install_place(const PkgEnv& env, const PkgRun& run) {
  if (env.dockerfile && env.image) {
    const std::string& ref = env.image->ref;
    const FileFacts& f = *env.dockerfile->facts;
    if (f.kind == FileKind::Dockerfile) return "in the " + ref + " stage of " + env.dockerfile->src.path();
    return image_place(*env.dockerfile, ref, run.install->loc);
  }
  const ParsedFile* f = run.file;
  if (!f) return "on the host";
  if (f->facts->kind == FileKind::Requirements && run.install->tool == Installer::RequirementsFile)
    return "on bare pip (" + f->src.path() + ", which nothing in the project installs into an image)";
  if (f->facts->kind == FileKind::CondaEnv) return "in the conda environment " + f->src.path() + " describes";
  if (run.after_venv) return "in the virtual environment set up in " + f->src.path();
  return "on the host (" + f->src.path() + ")";
}

namespace {

// Does `line` expand the variable `name` ($NAME or ${NAME...})?
bool expands(std::string_view line, const std::string& name) {
  for (size_t at = line.find('$'); at != std::string_view::npos; at = line.find('$', at + 1)) {
    std::string_view rest = line.substr(at + 1);
    if (!rest.empty() && rest[0] == '{') rest.remove_prefix(1);
    if (!starts_with(rest, name)) continue;
    char after = rest.size() > name.size() ? rest[name.size()] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(after)) && after != '_') return true;
  }
  return false;
}

}  // namespace

const EnvSetting* setting_behind(const ParsedFile& f, const Location& use, std::string_view value) {
  if (!use.range.valid() || use.range.line > f.src.line_count() || value.empty()) return nullptr;
  std::string_view line = f.src.line(use.range.line);
  const EnvSetting* found = nullptr;
  for (const EnvSetting& e : f.facts->env) {
    if (e.loc.range.line >= use.range.line || !expands(line, e.name)) continue;
    // the line that writes the URL: a bare `ARG NAME` re-declaring a global ARG only inherits it
    if (f.src.line(e.loc.range.line).find(value) != std::string_view::npos) found = &e;
  }
  return found;
}

bool own_wheel_index(const IndexUrl& ix) {
  if (index_off_spark(ix)) return false;
  if (ix.role != IndexRole::IndexUrl && ix.role != IndexRole::ExtraIndexUrl) return false;
  std::string u = lower(ix.url);
  return !u.empty() && u.find('$') == std::string::npos && cuda_of_url(u) <= 0 &&
         !knowledge::table("public-package-indexes").match(u) && !knowledge::table("cpu-indexes").match(u);
}

bool has_own_wheel_index(const PkgRun& run) {
  thread_local const PkgRun* last = nullptr;
  thread_local bool answer = false;
  if (last != &run) {
    last = &run;
    answer = std::any_of(run.indexes.begin(), run.indexes.end(), [](const IndexUrl& ix) { return own_wheel_index(ix); });
  }
  return answer;
}

bool image_ships_torch(const PkgEnv& env) {
  return env.image && knowledge::table("torch-images").match(lower(env.image->ref));
}

bool unknown_local_image(const PkgEnv& env) {
  if (!env.image || env.image->from_stage) return false;
  std::string name = lower(env.image->ref.substr(0, env.image->ref.find_first_of(":@")));
  if (name.empty() || name.find_first_of("/$") != std::string::npos) return false;
  return !knowledge::in("docker-official-images", name) && !image_ships_torch(env);
}

bool has_role(std::string_view name, std::string_view role) {
  const knowledge::Entry* e = knowledge::table("ml-packages").find(name);
  if (!e) return false;
  for (const std::string& r : e->list("roles"))
    if (r == role) return true;
  return false;
}

std::vector<std::string> with_role(std::string_view role) {
  std::vector<std::string> out;
  for (const knowledge::Entry& e : knowledge::table("ml-packages").entries)
    if (has_role(e.get("name"), role)) out.push_back(e.get("name"));
  return out;
}

std::set<const ParsedFile*> built_for_gpu_less_services(const Project& p) {
  std::map<const ParsedFile*, std::vector<const ComposeService*>> builders;
  std::set<std::string> gpu_names;  // services of any compose file that get a GPU
  for (const auto& f : p.files)
    for (const ComposeService& s : f->facts->services) {
      if (s.gpu) gpu_names.insert(s.name);
      if (s.dockerfile.empty()) continue;
      BuildSpec b;
      b.dockerfile = s.dockerfile;
      if (const ParsedFile* df = built_dockerfile(p, *f, b)) builders[df].push_back(&s);
    }
  std::set<const ParsedFile*> out;
  for (const auto& [df, services] : builders)
    if (std::none_of(services.begin(), services.end(), [&](const ComposeService* s) { return gpu_names.count(s->name); }))
      out.insert(df);
  return out;
}
bool index_without_cuda13(const PkgRun& run) {
  bool other = false;
  for (const IndexUrl& ix : run.indexes) {
    int cuda = cuda_of_url(ix.url);
    if (cuda >= first_cuda13()) return false;
    // an --extra-index-url leaves PyPI in play: only an --index-url replaces it
    if (ix.role == IndexRole::IndexUrl && (cuda > 0 || knowledge::table("cpu-indexes").match(lower(ix.url)))) other = true;
  }
  return other;
}

}  // namespace sc::query

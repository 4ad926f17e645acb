// The packaging questions shared by G1, G2 and G9.
#include "query/packages.h"

#include <cctype>
#include <vector>

#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"

namespace sc::query {

const std::vector<PkgEnv>& environments(const Project& p) { return p.envs; }

std::vector<InstalledPackage> packages_in(const PkgEnv& env) {
  std::vector<InstalledPackage> out;
  for (const PkgRun& run : env.runs)
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages)
        if (!requirement_skips_aarch64(r)) out.push_back({&env, &run, &m, &r});
  return out;
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
}  // namespace

bool other_platform(std::string_view path) {
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

bool other_platform_image(const Image* im) {
  return im && knowledge::table("other-platform-images").match(lower(im->ref));
}

bool other_platform_env(const PkgEnv& env) {
  return other_platform_image(env.image) || (env.dockerfile && other_platform(env.dockerfile->src.path()));
}

bool other_platform_install(const Project& p, const ParsedFile& f, const Install& in) {
  if (other_platform(f.src.path())) return true;
  return in.stage >= 0 && other_platform_image(base_image(p, f, in.stage));
}

namespace {

// A requirement that puts a CUDA-capable torch in place: `torch` pinned exactly (pip), or a
// conda `pytorch` with a version or `pytorch-cuda`.
bool torch_pin(const Installer t, const Requirement& r) {
  if (conda_like(t)) return r.name == "pytorch-cuda" || ((r.name == "pytorch" || r.name == "torch") && !r.specifier.empty());
  return r.name == "torch" && exact(r);
}

}  // namespace

const Requirement* torch_installed_before(const PkgEnv& env, const PkgRun& run) {
  for (const PkgRun& earlier : env.runs) {
    if (&earlier == &run) break;
    for (const PkgMember& m : earlier.members)
      for (const Requirement& r : m.install->packages)
        if (torch_pin(m.install->tool, r) && !requirement_skips_aarch64(r)) return &r;
  }
  return nullptr;
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

bool image_ships_torch(const PkgEnv& env) {
  return env.image && knowledge::table("torch-images").match(lower(env.image->ref));
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

}  // namespace sc::query

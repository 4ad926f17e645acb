// SPDX-License-Identifier: Apache-2.0
// G9: bare-pip ML stacks that drift (unpinned torch/transformers, lower bounds only,
// re-resolving torch inside an NGC container, unsloth with its dependencies).
// Each sub-check below is one bullet of G9.md "What it catches".
#include <algorithm>
#include <cctype>
#include <functional>
#include <unordered_map>

#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "query/finding.h"
#include "query/fix.h"
#include "query/packages.h"
#include "query/purpose.h"

namespace sc {
namespace {

using query::finding;
using query::InstalledPackage;

// One requirement as G9 sees it.
struct Item {
  const InstalledPackage& ip;
  const Requirement& r;
  std::string what;            // as written
  bool pinned;                 // exact pin here or in the run's constraints / a lock file
  bool torch_pinned;           // the run pins torch
  std::vector<Related> rel;
  query::InstallOrder& order;  // what the environment installs before and after
};

void warn(Reporter& out, const Item& it, std::string msg, std::string fix, std::optional<Fix> edit = std::nullopt) {
  out.report(query::with_fix(finding(Level::Warning, it.r.loc, std::move(msg), std::move(fix), it.rel), std::move(edit)));
}

// Offset just past the `install` word of a pip / uv pip command, or npos.
size_t after_install_word(std::string_view cmd) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r'; };
  for (size_t k = cmd.find("install"); k != std::string_view::npos; k = cmd.find("install", k + 1)) {
    size_t e = k + 7;
    if (k > 0 && blank(cmd[k - 1]) && e < cmd.size() && blank(cmd[e])) return e;
  }
  return std::string_view::npos;
}

// Unsafe (the dependencies are no longer installed): `pip install unsloth` -> `pip install
// --no-deps unsloth`, NVIDIA's order, only for a command that installs nothing but Unsloth
// (no -r file either).
std::optional<Fix> no_deps_fix(const Project& p, const Item& it) {
  const Install& in = *it.ip.member->install;
  bool only_unsloth = std::all_of(in.packages.begin(), in.packages.end(),
                                  [](const Requirement& r) { return knowledge::in("unsloth-packages", r.name); });
  if (!query::pip_like(in.tool) || in.tool == Installer::RequirementsFile || !only_unsloth || !in.requirement_files.empty())
    return std::nullopt;
  auto text = query::text_in(p, in.loc);
  size_t at = text ? after_install_word(*text) : std::string_view::npos;
  if (at == std::string_view::npos) return std::nullopt;
  return query::make_fix("Install Unsloth with --no-deps", false, {query::replace_span(p, in.loc, at, 0, " --no-deps")});
}

// `--index-url` pointing at a CUDA index, or at one we cannot read (a variable), or uv's
// `--torch-backend`: torch then does not re-resolve from PyPI.
bool replaces_pypi(const PkgRun& run) {
  if (run.torch_backend) return true;
  for (const IndexUrl& ix : run.indexes)
    if (ix.role == IndexRole::IndexUrl && (cuda_of_url(ix.url) > 0 || ix.url.find('$') != std::string::npos)) return true;
  return false;
}

// ---- unsloth / unsloth_zoo installed without --no-deps (everywhere). True when judged.
bool unsloth_with_deps(const Project& p, const Item& it, Reporter& out) {
  if (!knowledge::in("unsloth-packages", it.r.name)) return false;
  if (!it.ip.run->no_deps && !it.torch_pinned)
    warn(out, it,
         it.what + " installed with its dependencies: the resolver pulls torch, xformers, triton, transformers and "
                   "trl from PyPI, replacing the CUDA torch (on aarch64, through torch " + pypi_aarch64_cpu_only_through() + ", with a CPU-only one) and drifting the versions "
                   "Unsloth was tested with",
         "install the stack first with exact pins, then `pip install --no-deps unsloth unsloth_zoo`",
         no_deps_fix(p, it));
  return it.ip.run->no_deps || !it.torch_pinned;
}

// knowledge/packages.yaml pins-torch-exactly: the name, with its extra when the entry names one.
bool pins_torch_exactly(const Requirement& r) {
  for (const knowledge::Entry& e : knowledge::table("pins-torch-exactly").entries) {
    if (e.get("name") != r.name) continue;
    const std::string& extra = e.get("extra");
    if (extra.empty() || std::find(r.extras.begin(), r.extras.end(), extra) != r.extras.end()) return true;
  }
  return false;
}

// An exact pin of another package that pins torch exactly (torchvision==0.22.1 needs
// torch==2.7.1) fixes torch for the whole install, as a torch pin does.
bool torch_pinned_by_other(const PkgRun& run, const std::string& name) {
  return std::any_of(run.exact_pins.begin(), run.exact_pins.end(), [&](const auto& pin) {
    return pin.first != name && pin.second && pins_torch_exactly(*pin.second);
  });
}

// ---- inside an NGC container: an exact pin of a package whose release pins its own torch
// (vllm==0.20.1): pip installs that torch over the container's build.
void pinned_pulls_torch(const Item& it, Reporter& out) {
  if (!pins_torch_exactly(it.r) || it.torch_pinned) return;
  warn(out, it,
       it.what + " installed inside an NGC container without --no-deps: each " + it.r.name +
           " release requires one torch release (==), which the container's own torch build does not "
           "satisfy, so pip replaces the container's matched torch/triton/flash-attn build (on aarch64 possibly "
           "with a CPU-only wheel)",
       "keep the container's torch: use `pip install --no-deps ...` with the package's other requirements, "
       "or use an image built with this package (NGC's vLLM/SGLang containers)");
}

// ---- inside an NGC container: torch (or a package that pulls its own) upgraded or unpinned
void replaces_container_torch(const Item& it, Reporter& out) {
  const PkgRun& run = *it.ip.run;
  const std::string& n = it.r.name;
  if (run.no_deps || !query::has_role(n, "replaces-ngc-torch")) return;
  if (it.pinned && !run.upgrade) return pinned_pulls_torch(it, out);
  if (!query::has_role(n, "torch-itself") && it.torch_pinned) return;  // the torch pin holds for the rest
  // a bare `pip install torch` / `triton`: the container's own build already satisfies it
  if (query::has_role(n, "torch-itself") && it.r.specifier.empty() && !run.upgrade) return;
  warn(out, it,
       it.what + (run.upgrade ? " upgraded" : " installed unpinned") +
           " inside an NGC container: pip re-resolves torch from PyPI and replaces the container's matched "
           "torch/triton/flash-attn build (on aarch64 possibly with a CPU-only wheel)",
       "keep the container's torch: use `pip install --no-deps ...`, or pin torch with a constraints / "
       "`uv pip install --override` file");
}

// knowledge/packages.yaml torch-stack.
bool torch_stack(const std::string& name) { return knowledge::in("torch-stack", name); }

// Does torch itself come from PyPI where this run installs: no CUDA index or backend, no
// torch in the base image, none installed before?
bool torch_from_pypi(const Item& it) {
  const PkgEnv& env = *it.ip.env;
  return !replaces_pypi(*it.ip.run) && !query::has_own_wheel_index(*it.ip.run) && !query::image_ships_torch(env) &&
         !it.order.torch_before(env, *it.ip.run);
}

// ---- bare pip: torch, triton, xformers, transformers without an exact pin. True when reported.
bool core_stack_unpinned(const Item& it, Reporter& out) {
  if (!query::has_role(it.r.name, "core-stack") || it.pinned) return false;
  // triton comes at the version an exactly pinned CUDA torch requires (a lower bound keeps it;
  // -U moves it past that version)
  if (knowledge::in("pinned-by-torch", it.r.name) && (it.r.specifier.empty() || query::lower_bound_only(it.r)) &&
      !it.ip.run->upgrade && (it.torch_pinned || it.order.torch_before(*it.ip.env, *it.ip.run)))
    return true;
  bool cpu = it.r.name == "torch" && torch_from_pypi(it);
  bool range = it.r.has_upper_bound && !query::lower_bound_only(it.r);
  std::string state = query::lower_bound_only(it.r) ? " has only a lower bound"
                      : range                       ? " allows a range of releases"
                                                    : " is not pinned";
  warn(out, it,
       it.what + state + " " + query::install_place(*it.ip.env, *it.ip.run) +
           (range ? ": torch, triton, xformers and transformers are the core of the stack and need an exact pin "
                    "(a bounded range is enough for the rest of the torch stack)"
                  : "") +
           (range ? "; " : ": ") + "every fresh install resolves a different torch/triton/transformers combination" +
           (cpu ? ", and PyPI's aarch64 torch was a CPU-only build through " + pypi_aarch64_cpu_only_through() : std::string()),
       "pin exact versions (==) with the CUDA build (torch==X+cu130 from the cu130 index), or use a lock file / "
       "constraints file");
  return true;
}

// The rest of the torch stack, and packages that pin torch exactly.
bool judged_dependent(const Requirement& r) { return torch_stack(r.name) || pins_torch_exactly(r); }

// ---- bare pip: a torch-stack package with only a lower bound
void dependent_lower_bound(const Item& it, Reporter& out) {
  if (it.pinned || !query::lower_bound_only(it.r) || !torch_stack(it.r.name)) return;
  warn(out, it,
       it.what + " has only a lower bound: the next release is installed without a test, and version coupling "
                 "(trl/transformers/bitsandbytes vs Unsloth and torch) has broken Spark setups",
       "pin an exact version (==) or add an upper bound, or install from a lock file");
}

// ---- bare pip: a package that pins torch exactly, unpinned after torch was installed: pip
// replaces that torch whenever the package's pin differs. True when judged.
bool replaces_earlier_torch(const Item& it, Reporter& out) {
  const Requirement* torch = it.order.torch_before(*it.ip.env, *it.ip.run);
  if (!torch) return false;
  if (!pins_torch_exactly(it.r)) return true;  // it needs torch>=X: pip keeps the installed one
  std::vector<Related> rel = it.rel;
  rel.push_back({torch->loc, "torch installed earlier in this environment"});
  out.report(finding(Level::Warning, it.r.loc,
                     it.what + " is unpinned and pins one torch release: pip replaces the torch installed earlier (" +
                         torch->raw + ") whenever that release differs, with a PyPI torch (on aarch64 a CPU-only wheel through " +
                         pypi_aarch64_cpu_only_through() + ")",
                     "pin " + it.r.name + " to the release built for that torch, or install it with --no-deps / "
                     "`uv pip install --override` so torch stays",
                     std::move(rel)));
  return true;
}

// ---- bare pip: a torch-stack package, or one that pins torch exactly, unpinned while nothing pins torch
void dependent_unpinned(const Project& p, const Item& it, Reporter& out) {
  if (it.pinned || !it.r.specifier.empty() || !judged_dependent(it.r)) return;
  if (it.torch_pinned || torch_pinned_by_other(*it.ip.run, it.r.name) || query::image_ships_torch(*it.ip.env) ||
      replaces_pypi(*it.ip.run))
    return;
  if (replaces_earlier_torch(it, out)) return;
  // a later exact torch (a pinned CUDA wheel, `--force-reinstall torch-X.whl`) is what stays
  if (!pins_torch_exactly(it.r) && it.order.pinned_later(*it.ip.env, *it.ip.run, "torch")) return;
  if (query::run_installs(*it.ip.run, "torch") && !pins_torch_exactly(it.r)) {  // torch is chosen in this run too
    warn(out, it,
         it.what + " is unpinned, and so is the torch this install picks: the resolver chooses both, so every fresh "
                   "install can land on another combination (version coupling with torch and transformers has broken "
                   "Spark setups)",
         "pin torch (torch==X+cu130 with the cu130 index) and pin " + it.r.name + ", or install from a lock file");
    return;
  }
  // a local project installed earlier may have brought torch, and a named conda env another
  // page filled has one: pip keeps it for a torch>= need
  if (!pins_torch_exactly(it.r) &&
      (it.order.project_before(*it.ip.env, *it.ip.run) || (!it.ip.env->dockerfile && it.order.torch_in_conda_env(p, *it.ip.run))))
    return;
  warn(out, it,
       it.what + " is unpinned and nothing pins torch: its torch requirement re-resolves torch from PyPI, which on "
                 "aarch64 can swap the CUDA torch for a CPU-only wheel (PyPI's aarch64 torch through " + pypi_aarch64_cpu_only_through() + ")",
       "pin torch (torch==X+cu130 with the cu130 index, or `--override`/constraints) and pin " + it.r.name);
}

// A flash-attn that pip builds from the PyPI sdist: G2 reports that install (one cause, one
// finding); a find-links page or a wheel URL is a prebuilt wheel G9 still judges.
bool g2_source_build(const Item& it) {
  if (!knowledge::in("flash-attn-packages", it.r.name) || !it.r.url.empty()) return false;
  if (query::has_own_wheel_index(*it.ip.run)) return false;  // it may serve a prebuilt wheel
  for (const IndexUrl& ix : it.ip.run->indexes)
    if (ix.role == IndexRole::FindLinks) return false;
  return true;
}

// An `ARG V=""` or unset variable expanded into `pkg==`: the version is unknown, not missing.
bool unknown_version(const Requirement& r) {
  return !r.specifier.empty() &&
         std::none_of(r.specifier.begin(), r.specifier.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// query::index_without_cuda13, once per run of this check (a line may name thousands of indexes).
using WrongIndex = std::function<bool(const PkgRun&)>;

void judge(const Project& p, const InstalledPackage& ip, query::InstallOrder& order, const WrongIndex& wrong_index,
           Reporter& out) {
  const Requirement& r = *ip.req;
  const PkgRun& run = *ip.run;
  const Image* ngc = query::ngc_image(*ip.env);
  Item it{ip, r, r.raw.empty() ? r.name : r.raw, query::exact(r) || query::pinned(p, run, r.name),
          query::pinned(p, run, "torch"), query::command_of(ip), order};
  if (ngc) it.rel.push_back({ngc->loc, "NGC container with a pinned torch stack"});
  if (run.unseen_constraints) return;  // a -c file outside the project: its pins are unknown
  if (unknown_version(r) || unsloth_with_deps(p, it, out)) return;
  if (order.kept_from_earlier(*ip.env, run, r)) return;  // pip keeps the version installed before
  if (order.pinned_later(*ip.env, run, r.name)) return;    // a later exact pin decides the version
  if (order.removed_later(*ip.env, run, r.name)) return;  // build-time tooling a later step removes
  if (ngc) return replaces_container_torch(it, out);
  if (query::unknown_local_image(*ip.env)) return;  // built elsewhere: what it holds is unknown
  if (g2_source_build(it)) return;
  // torch from the CPU or a cu12x index: G1 reports the index, which a pin would not fix
  if (query::has_role(r.name, "pytorch-index") && wrong_index(run)) return;
  if (core_stack_unpinned(it, out) || run.no_deps) return;
  if (query::lower_bound_only(r)) dependent_lower_bound(it, out);
  else dependent_unpinned(p, it, out);
}

class G9 : public Rule {
 public:
  std::string_view id() const override { return "G9"; }
  void check(const Project& p, Reporter& out) const override {
    query::CpuTooling tooling(p);  // host venvs that feed CPU-side tooling only
    query::InstallOrder order;
    std::unordered_map<const PkgRun*, bool> wrong;
    WrongIndex wrong_index = [&](const PkgRun& run) {
      auto [it, fresh] = wrong.try_emplace(&run, false);
      if (fresh) it->second = query::index_without_cuda13(run);
      return it->second;
    };
    for (const PkgEnv& env : query::environments(p))
      for (const InstalledPackage& ip : query::packages_in(env)) {
        Installer t = ip.run->install->tool;
        // pyproject [project] ranges describe a package, not an install; conda is judged by G1
        if (t == Installer::PyprojectDeps || query::conda_like(t) || ip.req->name.empty()) continue;
        // an NPU/ROCm/Windows/macOS install: by the file's path, its Markdown section or the
        // stage's base image
        if (query::other_platform_package(p, ip) || query::other_platform_env(p, env)) continue;
        if (!tooling(env, *ip.run)) judge(p, ip, order, wrong_index, out);
      }
  }
};

}  // namespace
SPARKCHECK_RULE(G9);
}  // namespace sc

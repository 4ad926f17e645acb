// SPDX-License-Identifier: Apache-2.0
// G1: CUDA 12 / CUDA 13 mismatches and CUDA builds without Blackwell kernels.
// Each sub-check below is one bullet of G1.md "What it catches".
#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "knowledge/versions.h"
#include "query/finding.h"
#include "query/fix.h"
#include "query/packages.h"
#include "query/purpose.h"
#include "rules/G1-cuda-major-mismatch/images.h"
#include "rules/G1-cuda-major-mismatch/indexes.h"
#include "rules/G1-cuda-major-mismatch/shared.h"

namespace sc {
namespace {

using query::finding;
using query::InstalledPackage;

using namespace g1;

// ---- environments: what shares one Python environment with what
struct Evidence {
  bool found = false;
  Location loc;
  std::string what;
};

bool cu13_backend(const PkgRun& run) {
  std::string v = lower(run.torch_backend_value);
  return run.torch_backend && (v == "auto" || cuda_tag_value(v) >= first_cuda13());
}

// A CUDA 13 torch (+cu130, a cu130 index, --torch-backend) or a CUDA 13 image in the environment.
Evidence cuda13_evidence(const PkgEnv& env, const ImageCuda& ic) {
  for (const PkgRun& run : env.runs) {
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages)
        if (r.name == "torch" && cuda_tag_value(r.local_version) >= first_cuda13()) return {true, r.loc, r.raw};
    if (!query::run_installs(run, "torch")) continue;
    for (const IndexUrl& ix : run.indexes)
      if (cuda_of_url(ix.url) >= first_cuda13()) return {true, ix.loc, "torch from " + ix.url};
    if (cu13_backend(run)) return {true, run.install->loc, "torch with --torch-backend=" + run.torch_backend_value};
  }
  if (env.image && ic.known && ic.major >= 13) return {true, env.image->loc, env.image->ref + " (CUDA 13)"};
  return {};
}

// A torch pinned to a CUDA 12 build (torch==2.9.0+cu128) in the environment: local_version
// reports it, and the CUDA 12 libraries beside it (nvidia-*-cu12) are its own dependencies.
bool cuda12_torch(const PkgEnv& env) {
  for (const PkgRun& run : env.runs)
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages)
        if (r.name == "torch" && cuda12_build(cuda_tag_value(r.local_version))) return true;
  return false;
}

bool cu13_index(const PkgRun& run) {
  for (const IndexUrl& ix : run.indexes)
    if (cuda_of_url(ix.url) >= first_cuda13()) return true;
  return false;
}

// The environment as G1 sees it: its base image's CUDA and any CUDA 13 evidence.
struct EnvView {
  const PkgEnv& env;
  ImageCuda ic;
  bool cuda12_image;
  Evidence e13;
  bool lock_pins_cuda_torch;
  bool cuda12_torch;  // cuda12_torch(env)
  query::InstallOrder& order;
};

// ---- CUDA 13 wheels (cu130 index, --torch-backend=cu13x) on a CUDA 12 base image
void cu13_run_on_cuda12_image(const EnvView& v, const PkgRun& run, Reporter& out) {
  if (!v.cuda12_image || v.e13.found) return;  // a CUDA 13 torch brings libcudart.so.13 as pip wheels
  const Image& im = *v.env.image;
  std::string base = "CUDA " + std::to_string(v.ic.major) + " base image";
  std::vector<Related> rel = {{im.loc, base}};
  for (const IndexUrl& ix : run.indexes)
    if (cuda_of_url(ix.url) >= first_cuda13())
      out.report(finding(Level::Error, ix.loc,
                         "CUDA 13 wheels (" + ix.url + ") installed on a " + base + " (" + im.ref +
                             "): they need libcudart.so.13, which the image does not have (ImportError at import time)",
                         kFixBase, rel));
  if (cu13_backend(run) && lower(run.torch_backend_value) != "auto")
    out.report(finding(Level::Error, run.install->loc,
                       "--torch-backend=" + run.torch_backend_value + " installs CUDA 13 torch on a " + base + " (" +
                           im.ref + ")",
                       "base the image on CUDA 13", rel));
}

// ---- a CUDA 12 library next to CUDA 13 torch/image (error), or on its own (warning)
void cuda12_library(const EnvView& v, const InstalledPackage& ip, Reporter& out) {
  const Requirement& r = *ip.req;
  Requirement rr = r;
  // a package whose default-index build is CUDA 12 (sgl-kernel, vllm) keeps its +cu130 tag,
  // and its CUDA 13 index (cu130 wheels) makes it a CUDA 13 build
  bool default_build = knowledge::table("default-cuda-builds").find(r.name) != nullptr;
  if (!default_build) rr.local_version.clear();
  int cm = cuda_major_of_package(rr);
  if (default_build && cm == 12 && cu13_index(*ip.run)) cm = 0;
  if (cm != 12 || query::conda_like(ip.member->install->tool)) return;
  auto rel = query::command_of(ip);
  if (v.e13.found) {
    rel.push_back({v.e13.loc, "CUDA 13: " + v.e13.what});
    out.report(finding(Level::Error, r.loc,
                       r.name + " is a CUDA 12 build in the same environment as " + v.e13.what +
                           ": it loads libcudart.so.12 / the CUDA 12 ABI, which the CUDA 13 stack does not provide",
                       "use the CUDA 13 variant (-cu13, cuda13x, [cuda13], or the suffix-less nvidia-* package)", rel));
  } else if (r.name == "sgl-kernel" && !v.cuda12_image) {
    out.report(finding(Level::Error, r.loc,
                       "sgl-kernel from the default index is the CUDA 12 build and hard-codes libcudart.so.12; the "
                       "Spark's CUDA 13 stack has only libcudart.so.13 (\"Could not load any common_ops library\")",
                       "install it from the cu130 index: --extra-index-url https://docs.sglang.ai/whl/cu130/", rel));
  } else if (!v.cuda12_image && !v.cuda12_torch) {  // beside a CUDA 12 torch: reported at the torch
    out.report(finding(Level::Warning, r.loc,
                       r.name + " is a CUDA 12 build: the Spark's host stack is CUDA 13, so it works only with its own "
                       "CUDA 12 runtime and breaks next to any CUDA 13 package (torch cu130, NGC >= 25.08)",
                       "use the CUDA 13 variant (-cu13, cuda13x, [cuda13])", rel));
  }
}

// ---- a CUDA 13 package (-cu13 name, +cu130) on a CUDA 12 base image
void cuda13_package_on_cuda12_image(const EnvView& v, const InstalledPackage& ip, Reporter& out) {
  const Requirement& r = *ip.req;
  Requirement rr = r;
  if (r.name != "sgl-kernel") rr.local_version.clear();
  if (!v.cuda12_image || (cuda_major_of_package(rr) != 13 && cuda_tag_value(r.local_version) < first_cuda13())) return;
  if (v.e13.found) return;  // a CUDA 13 torch in the environment brings libcudart.so.13 as pip wheels
  auto rel = query::command_of(ip);
  rel.push_back({v.env.image->loc, "CUDA " + std::to_string(v.ic.major) + " base image"});
  out.report(finding(Level::Error, r.loc,
                     r.name + " is a CUDA 13 build installed on a CUDA " + std::to_string(v.ic.major) + " base image (" +
                         v.env.image->ref + "): it needs libcudart.so.13, which the image lacks",
                     kFixBase, rel));
}

// A lock file of the project pins torch to a CUDA build (one scan per run, not per package).
bool lock_pins_cuda_torch(const Project& p) {
  for (const auto& f : p.files) {
    if (!f->facts->lockfile) continue;
    auto it = f->facts->locked.find("torch");
    if (it != f->facts->locked.end() && lower(it->second).find("+cu") != std::string::npos) return true;
  }
  return false;
}

// torch pinned to a CUDA build elsewhere: a constraints/override file or spec, or a lock file.
bool cuda_torch_pinned(bool lock_pins, const PkgRun& run) {
  if (const Requirement* r = run_pin(run, "torch"); r && cuda_tag_value(r->local_version) > 0) return true;
  for (const Requirement& r : run.inline_constraints)
    if (r.name == "torch" && cuda_tag_value(r.local_version) > 0) return true;
  return lock_pins;
}

// An --index-url / --extra-index-url of CPU-only torch builds (knowledge/cuda.yaml cpu-indexes).
const IndexUrl* cpu_index(const PkgRun& run) {
  for (const IndexUrl& ix : run.indexes)
    if (knowledge::table("cpu-indexes").match(lower(ix.url))) return &ix;
  return nullptr;
}

// What a PyPI torch requirement gets on aarch64: only CPU-only releases (an exact pin or an
// upper bound at or below the last one), only later releases (an exact pin past it), or either.
enum class PypiTorch { CpuOnly, Later, Either };
PypiTorch pypi_torch(const Requirement& r) {
  const std::string through = pypi_aarch64_cpu_only_through();
  if (!r.exact_version.empty())
    return knowledge::compare_versions(r.exact_version, through) <= 0 ? PypiTorch::CpuOnly : PypiTorch::Later;
  if (r.has_upper_bound && !knowledge::specifier_allows(r.specifier, pypi_aarch64_first_unsettled()) &&
      !knowledge::specifier_allows(r.specifier, "99"))
    return PypiTorch::CpuOnly;
  // a lower bound past the CPU-only releases (torch>=2.11): as an exact release past them
  if (!r.specifier.empty() && !knowledge::specifier_allows(r.specifier, through) &&
      !knowledge::specifier_allows(r.specifier, "0"))
    return PypiTorch::Later;
  return PypiTorch::Either;
}

// ---- torch from the default index with pip/uv outside an NGC container (CPU-only on aarch64)
void default_index_torch(const EnvView& v, const InstalledPackage& ip, Reporter& out) {
  const Requirement& r = *ip.req;
  const PkgRun& run = *ip.run;
  if (query::ngc_image(v.env) || query::unknown_local_image(v.env) || !query::pip_like(run.install->tool)) return;
  if (r.name != "torch" || !r.local_version.empty() || !r.url.empty()) return;
  bool cuda = false;
  if (v.order.kept_from_earlier(v.env, run, r, &cuda) && cuda) return;  // an earlier CUDA torch stays
  if (const Requirement* later = v.order.pinned_later(v.env, run, "torch"); later && cuda_tag_value(later->local_version) > 0)
    return;  // a later CUDA torch pin replaces it
  if (v.order.removed_later(v.env, run, "torch")) return;  // uninstalled after build-time use
  for (const IndexUrl& ix : run.indexes) {  // an index behind an unknown variable: not judged
    bool no_wheels = ix.role == IndexRole::FindLinks && knowledge::table("find-links-index-roots").match(lower(ix.url));
    if ((cuda_of_url(ix.url) > 0 && !no_wheels) || ix.url.find('$') != std::string::npos) return;
  }
  if (query::has_own_wheel_index(run)) return;  // a project's own wheel index may serve a CUDA torch
  if ((run.torch_backend && lower(run.torch_backend_value) != "cpu") || cuda_torch_pinned(v.lock_pins_cuda_torch, run)) return;
  const char* fix = "install from https://download.pytorch.org/whl/cu130 (--index-url) or uv --torch-backend=cu130, "
                    "or use an NGC PyTorch container (nvcr.io/nvidia/pytorch:25.11-py3)";
  const char* cpu_tail = ", so torch.cuda.is_available() is False and training silently runs on the CPU";
  if (const IndexUrl* cpu = cpu_index(run))
    return out.report(finding(Level::Warning, r.loc,
                              "torch from the CPU-only index " + cpu->url + ": on the Spark that is a CPU-only build" + cpu_tail,
                              fix, query::command_of(ip)));
  if (run.torch_backend)
    return out.report(finding(Level::Warning, r.loc,
                              std::string("torch with --torch-backend=cpu: on the Spark that is a CPU-only build") + cpu_tail,
                              fix, query::command_of(ip)));
  PypiTorch kind = pypi_torch(r);
  if (kind == PypiTorch::Later) return;  // an exact release past the CPU-only ones: not settled here
  std::string from = "torch from the default package index " + query::install_place(v.env, run);
  if (kind == PypiTorch::CpuOnly)
    return out.report(finding(Level::Warning, r.loc,
                              from + ": PyPI's torch " + r.specifier + " for aarch64 (the Spark) is a CPU-only build" + cpu_tail,
                              fix, query::command_of(ip)));
  out.report(finding(Level::Note, r.loc,
                     from + ": PyPI's aarch64 torch was a CPU-only build through " + pypi_aarch64_cpu_only_through() +
                         " (pytorch/pytorch#160162), and the build an unpinned install gets there is not fixed; a cu130 "
                         "index makes it a CUDA 13 build",
                     fix, query::command_of(ip)));
}

// Project-wide answers, each worked out once.
struct Asked {
  explicit Asked(const Project& p) : tooling_run(p) {}
  query::CpuTooling tooling_run;
  query::InstallOrder order;
};

void environment(const Project& p, const PkgEnv& env, bool lock_pins, Asked& asked, Reporter& out) {
  if (query::other_platform_env(p, env)) return;
  ImageCuda ic = env.image ? image_cuda(env.image->ref) : ImageCuda{};
  EnvView v{env, ic, ic.known && ic.major <= 12, cuda13_evidence(env, ic), lock_pins, cuda12_torch(env), asked.order};
  auto pkgs = query::packages_in(env);
  size_t i = 0;  // pkgs come grouped by run, in run order
  for (const PkgRun& run : env.runs) {
    cu13_run_on_cuda12_image(v, run, out);
    // a host venv whose Python only converts checkpoints or writes metadata: any torch build does
    bool tooling = query::run_installs(run, "torch") && asked.tooling_run(env, run);
    for (; i < pkgs.size() && pkgs[i].run == &run; ++i) {
      if (query::other_platform_package(p, pkgs[i])) continue;
      cuda12_library(v, pkgs[i], out);
      cuda13_package_on_cuda12_image(v, pkgs[i], out);
      if (!tooling) default_index_torch(v, pkgs[i], out);
    }
  }
}

class G1 : public Rule {
 public:
  std::string_view id() const override { return "G1"; }
  void check(const Project& p, Reporter& out) const override {
    for (const auto& f : p.files) version_tags(p, *f, out);
    std::set<const ParsedFile*> gpu_less_builds = query::built_for_gpu_less_services(p);
    for (const auto& f : p.files) images(p, *f, gpu_less_builds, out);
    bool lock_pins = lock_pins_cuda_torch(p);
    Asked asked(p);
    for (const PkgEnv& env : query::environments(p)) environment(p, env, lock_pins, asked, out);
  }
};

}  // namespace
SPARKCHECK_RULE(G1);
}  // namespace sc

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

namespace sc {
namespace {

using query::finding;
using query::InstalledPackage;

const char* kFixIndex = "use the CUDA 13 build: --index-url https://download.pytorch.org/whl/cu130 with torch>=2.9 "
                        "(torch==X+cu130), or uv --torch-backend=cu130";
const char* kFixBase = "base the image on CUDA 13 (nvcr.io/nvidia/pytorch:25.11-py3 or nvidia/cuda:13.0.1-*)";
const char* kFixCudaImage = "use a CUDA 13 base image, e.g. nvidia/cuda:13.0.1-devel-ubuntu24.04";

std::string cuda_text(int v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }  // 124 -> "12.4"
std::string cuda_major(int v) { return std::to_string(v / 10); }  // 117 -> "11"
bool no_blackwell(int v) { return v <= last_cuda_without_blackwell(); }
bool cuda12_build(int v) { return v > 0 && v < first_cuda13(); }

void unreadable(Reporter& out, const Location& loc, const std::string& what) {
  out.note({Level::Warning, loc.path, loc.range, "cannot read the CUDA version in " + what + "; G1 did not judge it",
            "unreadable-value"});
}

// ---- an old-CUDA wheel index: ENV/export of an index variable, or an install's index option
void index_variables(const ParsedFile& f, Reporter& out) {
  for (const EnvSetting& e : f.facts->env) {
    if (!knowledge::in("index-url-variables", e.name)) continue;
    for (auto& u : split(e.value, ' '))
      if (int v = cuda_of_url(u); v > 0 && no_blackwell(v))
        out.report(finding(Level::Error, e.loc,
                           e.name + " points pip/uv at CUDA " + cuda_text(v) +
                               " wheels: they carry no Blackwell (sm_120/sm_121) kernels for the Spark's GB10",
                           kFixIndex));
  }
}

// A CUDA 12.x build: an error with the no-Blackwell text at 12.6 or older, else a warning.
void cuda12_finding(Reporter& out, int v, const Location& loc, const std::string& head, const std::string& no_blackwell_text,
                    const std::string& sm120_text, const std::vector<Related>& sites, std::optional<Fix> fx = std::nullopt) {
  bool err = no_blackwell(v);
  out.report(query::with_fix(
      finding(err ? Level::Error : Level::Warning, loc, head + (err ? no_blackwell_text : sm120_text), kFixIndex, sites),
      std::move(fx)));
}

// cuXYZ -> cu130 in a PyTorch index URL, when the install pins torch to a release with cu130
// wheels (knowledge/cuda.yaml torch-cu130-wheels) and nothing else to a CUDA build or a
// torchvision/torchaudio release whose cu130 wheels are not on record.
bool cu130_ready(const Install& in) {
  bool torch_ok = false;
  for (const Requirement& r : in.packages) {
    if (!r.local_version.empty() || ((r.name == "torchvision" || r.name == "torchaudio") && !r.specifier.empty()))
      return false;
    if (r.name == "torch") torch_ok = knowledge::in("torch-cu130-wheels", r.exact_version);
  }
  return torch_ok;
}

// `ready`: cu130_ready(in), asked once per install (not once per index: a command may name
// thousands of both).
std::optional<Fix> cu130_index_fix(const Project& p, const Install& in, std::optional<bool>& ready, const IndexUrl& ix,
                                   const Location& written) {
  if (!knowledge::table("pytorch-cu12-indexes").match(lower(ix.url))) return std::nullopt;
  if (!ready) ready = cu130_ready(in);
  std::string u = ix.url;
  size_t seg = u.rfind("/cu");
  if (!*ready || seg == std::string::npos) return std::nullopt;
  std::string old = u.substr(seg, 6);  // "/cu128"
  return query::make_fix("Use the cu130 index", true, {query::replace_in(p, written, old, "/cu130")});
}

// The base image of the install's Dockerfile stage when it is a CUDA 13 image, else null.
const Image* cuda13_image(const Project& p, const ParsedFile& f, const Install& in) {
  const Image* im = in.stage >= 0 ? query::base_image(p, f, in.stage) : nullptr;
  if (!im) return nullptr;
  ImageCuda ic = image_cuda(im->ref);
  return ic.known && ic.major >= 13 ? im : nullptr;
}

// ---- an install's index option; a URL held in a variable (ARG, ENV, VAR=) is reported where
// the URL is written, with the install that uses it as a related place
void index_urls(const Project& p, const ParsedFile& f, const Install& in, std::vector<Related> sites, Reporter& out) {
  std::optional<bool> ready;
  const Image* image13 = in.indexes.empty() ? nullptr : cuda13_image(p, f, in);
  for (const IndexUrl& ix : in.indexes) {
    int v = cuda_of_url(ix.url);
    if (!cuda12_build(v) || query::index_off_spark(ix)) continue;
    Location at = ix.loc;
    std::vector<Related> rel = sites;
    if (const EnvSetting* e = query::setting_behind(f, ix.loc, ix.url)) {
      at = e->loc;
      rel.insert(rel.begin(), {ix.loc, "$" + e->name + " used here as a wheel index"});
    }
    if (image13) {  // a CUDA 12 build inside a CUDA 13 image: two majors in one stack
      rel.push_back({image13->loc, "CUDA 13 base image"});
      out.report(finding(Level::Error, at,
                         "wheel index " + ix.url + " serves CUDA " + cuda_text(v) + " builds into a CUDA 13 image (" +
                             image13->ref + "): they load libcudart.so." + cuda_major(v) + " / the CUDA " + cuda_major(v) +
                             " ABI, which the image's CUDA 13 stack does not provide",
                         "use the package's CUDA 13 (cu130) build, or the one the image already ships", rel));
      continue;
    }
    cuda12_finding(out, v, at, "wheel index " + ix.url + " serves CUDA " + cuda_text(v) + " builds: ",
                   "they carry no Blackwell (sm_120/sm_121) kernels, so they cannot run on the Spark's GB10, and "
                   "they pull a CUDA " + cuda_major(v) + " stack onto its CUDA 13 host",
                   "a self-consistent cu12x stack runs on the Spark via sm_120 kernels, but it is slower than cu130, "
                   "unsupported by NVIDIA's Spark playbooks, and breaks as soon as a CUDA 13 package joins it",
                   rel, at.range == ix.loc.range ? cu130_index_fix(p, in, ready, ix, at) : std::nullopt);  // not a shared ARG
  }
}

// ---- a +cuXYZ local version below CUDA 13
void local_version(const Requirement& r, const std::vector<Related>& sites, Reporter& out) {
  std::string what = r.raw.empty() ? r.name : r.raw;
  CudaTag tag = cuda_tag(r.local_version);
  if (tag.unreadable) return unreadable(out, r.loc, "'" + what + "'");
  if (!cuda12_build(tag.value)) return;
  cuda12_finding(out, tag.value, r.loc, what + " is a CUDA " + cuda_text(tag.value),
                 " build with no Blackwell (sm_120/sm_121) kernels: it fails on the Spark's GB10 (\"no kernel image is "
                 "available\") and needs a CUDA " + cuda_major(tag.value) + " runtime the CUDA 13 host lacks",
                 " build: it runs on the Spark through sm_120 kernels only if every CUDA package around it is CUDA 12 "
                 "too; NVIDIA's Spark stack is CUDA 13 (cu130)",
                 sites);
}

// Highest CUDA version (major*10+minor) a version specifier allows; -1 when unbounded.
int max_cuda_of_spec(const std::string& spec) {
  int best = -1;
  for (auto& clause : split(spec, ',')) {
    std::string c = trim(clause), op;
    for (std::string_view o : {"===", "==", "<=", ">=", "~=", "!=", "<", ">", "="})
      if (starts_with(c, o)) { op = std::string(o); c = c.substr(o.size()); break; }
    auto parts = split(c, '.');
    auto maj = parts.empty() ? std::nullopt : digits_value(parts[0]);
    if (!maj || *maj > 99) continue;  // not a CUDA major (and no overflow below)
    if (op.empty()) op = "=";
    int mn = parts.size() > 1 ? digits_value(parts[1]).value_or(-1) : -1;  // -1: no minor
    if (mn > 99) continue;
    int v = -1;
    if (op == "=" || op == "==" || op == "===" || op == "<=" || op == "~=") v = *maj * 10 + (mn < 0 ? 9 : mn);
    else if (op == "<") v = mn <= 0 ? (*maj - 1) * 10 + 9 : *maj * 10 + mn - 1;
    else continue;
    if (best < 0 || v < best) best = v;
  }
  return best;
}

// ---- a conda/pip CUDA meta package pinned below CUDA 13 (pytorch-cuda=12.1, cuda-version<13)
void cuda_meta_pin(const Requirement& r, const std::vector<Related>& sites, Reporter& out) {
  if (!knowledge::in("cuda-meta-packages", r.name)) return;
  int mx = max_cuda_of_spec(r.specifier);
  if (!cuda12_build(mx)) return;
  bool err = no_blackwell(mx);
  std::string ver = mx == 129 ? std::string("12.x") : cuda_text(mx);
  out.report(finding(err ? Level::Error : Level::Warning, r.loc,
                     r.raw + " pins the environment to CUDA " + ver +
                         (err ? ": no Blackwell (sm_120/sm_121) kernels for the Spark's GB10, and a CUDA " +
                                    std::to_string(mx / 10) + " runtime on a CUDA 13 host"
                              : ": CUDA 12 builds run on the Spark only through sm_120 kernels and clash with CUDA 13 "
                                "packages"),
                     "select CUDA 13: cuda-version>=13 (conda-forge), or the cu130 wheel index for pip", sites));
}

// ---- a package name that embeds CUDA 11 (nvidia-*-cu11, cupy-cuda11x)
void cuda11_name(const Requirement& r, const std::vector<Related>& sites, Reporter& out) {
  Requirement rr = r;
  rr.local_version.clear();
  if (cuda_major_of_package(rr) == 11)
    out.report(finding(Level::Error, r.loc,
                       r.name + " is a CUDA 11 build: no Blackwell kernels and no CUDA 11 runtime on the Spark",
                       "use the CUDA 13 variant of the package (-cu13 / cuda13x / [cuda13])", sites));
}

// Installs for another platform (an NPU/ROCm/Windows/macOS file, a stage on a ROCm or Ascend
// image) are not Spark installs.
void version_tags(const Project& p, const ParsedFile& f, Reporter& out) {
  if (f.facts->env.empty() && f.facts->installs.empty()) return;  // most files: nothing to judge
  if (query::other_platform(p, f.src.path())) return;
  index_variables(f, out);
  auto sites = query::install_sites(p, f);
  for (const Install& in : f.facts->installs) {
    if (query::other_platform_install(p, f, in)) continue;
    index_urls(p, f, in, sites, out);
    for (const Requirement& r : in.packages) {
      if (requirement_skips_aarch64(r)) continue;
      local_version(r, sites, out);
      cuda_meta_pin(r, sites, out);
      cuda11_name(r, sites, out);
    }
  }
}

// `bash -c BODY` / `sh -lc BODY`.
bool runs_body(const Command& c) {
  for (size_t i = 1; i < c.argv.size(); ++i) {
    const std::string& a = c.argv[i].text;
    if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && a.back() == 'c') return true;
  }
  return false;
}

// An image stage (Dockerfile stage, `docker run IMAGE ...`, a Kubernetes container) that only
// checks the driver or the network (`nvidia-smi`, `ibv_devinfo`): knowledge driver-only-programs.
bool smoke_test_stage(const ParsedFile& df, int stage) {
  bool check = false;
  for (const Command& c : df.facts->commands) {
    if (c.stage != stage || c.argv.empty()) continue;
    const std::string& prog = c.argv[0].text;
    const knowledge::Entry* e =
        knowledge::table("driver-only-programs").find(prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1));
    if (!e || (e->get("role") == "body" && !runs_body(c))) return false;
    for (const Word& w : c.argv)
      if (lower(w.text).find("cuda") != std::string::npos) return false;
    check = check || e->get("role") == "check";
  }
  for (const Install& in : df.facts->installs)
    if (in.stage == stage) return false;
  return check;
}

// Unsafe (a new container changes the whole stack): a pre-25.08 NGC tag -> the current CUDA 13
// tag of the same repository and suffix (knowledge/cuda.yaml ngc-current-tags).
std::optional<Fix> ngc_tag_fix(const Project& p, const Image& im) {
  std::string ref = im.ref.substr(0, im.ref.find('@'));
  size_t colon = ref.rfind(':');
  const knowledge::Entry* cur = knowledge::table("ngc-current-tags").find(ngc_repo(ref));
  if (!cur || colon == std::string::npos || im.ref.find('@') != std::string::npos) return std::nullopt;
  std::string tag = ref.substr(colon + 1), want = cur->get("tag");
  size_t dash = tag.find('-'), want_dash = want.find('-');
  if (dash == std::string::npos || want_dash == std::string::npos || tag.substr(dash) != want.substr(want_dash))
    return std::nullopt;
  return query::make_fix("Use " + ref.substr(0, colon + 1) + want, false,
                         {query::replace_in(p, im.loc, ":" + tag, ":" + want)});
}

// ---- a base image on CUDA 12.6 or older, an NGC release before 25.08, or a CUDA 12.7+ image
// "nvidia/cuda:12.4.1-devel-ubuntu22.04 is CUDA 12.4", "x/y:tag (image tag tag names CUDA 12.8)".
std::string image_is(const Image& im, const ImageCuda& ic) {
  return starts_with(ic.how, im.ref) ? ic.how : im.ref + " (" + ic.how + ")";
}

void image(const Project& p, const Image& im, Reporter& out) {
  ImageCuda ic = image_cuda(im.ref);
  if (ic.unreadable) return unreadable(out, im.loc, "image '" + im.ref + "'");
  if (!ic.known || ic.major >= 13) return;
  int v = ic.major * 10 + std::max(ic.minor, 0);
  if (ic.ngc) {
    out.report(query::with_fix(finding(Level::Error, im.loc,
                       im.ref + " is the " + ic.how + ": NGC containers before 25.08 are CUDA 12 builds" +
                           (no_blackwell(v) ? std::string(" with no Blackwell (sm_120/sm_121) kernels at all, so the "
                                                          "GB10 cannot run their CUDA code")
                                            : std::string(" that predate NVIDIA's DGX Spark (CUDA 13) support: the "
                                                          "GB10 gets sm_120 kernels at best, and cu130 wheels that take the "
                                                          "CUDA runtime from the image (vllm, sgl-kernel) fail there "
                                                          "(libcudart.so.13 missing)")),
                       "use nvcr.io/nvidia/pytorch:25.11-py3 or newer (25.08 is the first CUDA 13 release)"),
                               ngc_tag_fix(p, im)));
  } else if (ic.major < 12 || (ic.minor >= 0 && no_blackwell(v))) {
    out.report(finding(Level::Error, im.loc,
                       image_is(im, ic) + ": that has no Blackwell (sm_120/sm_121) support, so CUDA code built or "
                       "installed in it has no kernels for the Spark's GB10",
                       ic.fix.empty() ? std::string(kFixCudaImage) : ic.fix));
  } else if (ic.minor >= 0) {
    out.report(finding(Level::Warning, im.loc,
                       image_is(im, ic) + ": it runs on the Spark through sm_120 kernels, but the host is CUDA 13 "
                       "and a cu130 wheel that takes the CUDA runtime from the image (vllm, sgl-kernel) fails there "
                       "(libcudart.so.13 missing)",
                       kFixCudaImage));
  }
}

// A plain CUDA base image (nvidia/cuda) in a Kubernetes container that asks for no GPU, or in
// a Dockerfile only GPU-less compose services build: a tool or API container, not a CUDA
// workload. A framework image keeps its finding: it is one by intent, and a host whose default
// runtime is NVIDIA's still gives it the GPU.
bool gpu_less_base(const std::set<const ParsedFile*>& gpu_less_builds, const ParsedFile& f, const Image& im) {
  if (!im.no_gpu && !gpu_less_builds.count(&f)) return false;
  std::string ref = lower(im.ref.substr(0, im.ref.find_first_of(":@")));
  return knowledge::table("cuda-base-image-repos").match(ref) != nullptr;
}

// Every Image fact of any file (Dockerfile FROM, docker run, compose image:). `gpu_less_builds`:
// query::built_for_gpu_less_services.
void images(const Project& p, const ParsedFile& f, const std::set<const ParsedFile*>& gpu_less_builds, Reporter& out) {
  if (f.facts->images.empty() || query::other_platform(p, f.src.path())) return;
  for (const Image& im : f.facts->images)
    if (!im.from_stage && !gpu_less_base(gpu_less_builds, f, im) && !smoke_test_stage(f, im.stage) && p.stage_built(f, im.stage) &&
        !query::other_platform_section(*f.facts, im.loc.range.line))
      image(p, im, out);
}

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

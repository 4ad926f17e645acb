// SPDX-License-Identifier: Apache-2.0
// G1's checks of what an install names: wheel indexes (options and index variables), +cuXYZ
// local versions, CUDA meta-package pins and CUDA 11 package names (G1.md "What it catches").
#include "rules/G1-cuda-major-mismatch/indexes.h"

#include <optional>

#include "knowledge/knowledge.h"
#include "knowledge/versions.h"
#include "query/finding.h"
#include "query/fix.h"
#include "query/packages.h"
#include "rules/G1-cuda-major-mismatch/shared.h"

namespace sc::g1 {
namespace {

using query::finding;

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
}  // namespace

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

}  // namespace sc::g1

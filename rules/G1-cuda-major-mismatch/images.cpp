// SPDX-License-Identifier: Apache-2.0
// G1's base-image check: an image on CUDA 12.6 or older, an NGC release before 25.08, or a
// CUDA 12.7+ image (G1.md "What it catches"), skipping driver checks and GPU-less services.
#include "rules/G1-cuda-major-mismatch/images.h"

#include "knowledge/knowledge.h"
#include "query/finding.h"
#include "query/fix.h"
#include "query/packages.h"
#include "rules/G1-cuda-major-mismatch/shared.h"

namespace sc::g1 {
namespace {

using query::finding;

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

}  // namespace

void images(const Project& p, const ParsedFile& f, const std::set<const ParsedFile*>& gpu_less_builds, Reporter& out) {
  if (f.facts->images.empty() || query::other_platform(p, f.src.path())) return;
  for (const Image& im : f.facts->images)
    if (!im.from_stage && !gpu_less_base(gpu_less_builds, f, im) && !smoke_test_stage(f, im.stage) && p.stage_built(f, im.stage) &&
        !query::other_platform_section(*f.facts, im.loc.range.line))
      image(p, im, out);
}

}  // namespace sc::g1

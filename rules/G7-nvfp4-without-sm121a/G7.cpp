// SPDX-License-Identifier: Apache-2.0
// G7: NVFP4 on a DGX Spark needs kernels built for the arch-specific target
// sm_121a (12.1a); a plain 12.1 / sm_121 / "Blackwell" build compiles the native
// FP4 conversion out. What the project says is gathered in evidence.cpp.
#include <algorithm>
#include <set>
#include <tuple>

#include "core/registry.h"
#include "query/finding.h"
#include "query/fix.h"
#include "rules/G7-nvfp4-without-sm121a/evidence.h"

namespace sc {
namespace {

using g7::Evidence;
using g7::Place;
using g7::gather;
using g7::near_dirs;

// ---- the two checks ------------------------------------------------------------------

// 12.1 -> 12.1a, 121 -> 121a, sm_121 -> sm_121a at every plain 12.1 of the list as written.
std::optional<Fix> suffix_fix(const Project& p, const Location& at) {
  auto text = query::text_in(p, at);
  if (!text) return std::nullopt;
  std::vector<std::optional<Edit>> edits;
  for (auto [off, len] : g7::plain_numbers(*text))
    edits.push_back(query::replace_span(p, at, off, len, std::string(text->substr(off, len)) + "a"));
  return query::make_fix("Target the arch-specific 12.1a (sm_121a)", true, edits);
}

// A plain environment setting whose variable another one of the same file decides in its
// place, naming 12.1a (CMAKE_CUDA_ARCHITECTURES=121 beside TORCH_CUDA_ARCH_LIST=12.1a).
bool decided_elsewhere(const Evidence& ev, const Place& a) {
  return !a.yields_to.empty() && std::any_of(ev.specific.begin(), ev.specific.end(), [&](const Place& s) {
           return s.what == a.yields_to && s.loc.path == a.loc.path;
         });
}

// 1. An architecture list for 12.1 without the a/f suffix, near an NVFP4 use.
void plain_arch_lists(const Project& p, const Evidence& ev, Reporter& out) {
  std::set<std::tuple<std::string, int, int>> reported;  // one finding per place
  for (const auto& a : ev.plain) {
    if (decided_elsewhere(ev, a) || kernels_without_fp4(p, a)) continue;
    auto u = std::find_if(ev.uses.begin(), ev.uses.end(), [&](const Place& x) { return a.near(x); });
    if (u == ev.uses.end() || !reported.insert({a.loc.path, a.loc.range.line, a.loc.range.col}).second) continue;
    std::string msg = a.what +
                      " builds for sm_121 without the arch-specific target 12.1a: the native FP4 conversion "
                      "(cvt.rn.satfinite.e2m1x2) is compiled out, and the software fallback produced NaN in NVFP4 "
                      "inference on a DGX Spark (vllm-project/vllm PR #37725); this project uses NVFP4";
    if (lower(a.what).find("blackwell") != std::string::npos)
      msg += " (\"Blackwell\" expands to 10.0;10.3;12.0;12.1+PTX, with no a suffix)";
    out.report(query::with_fix(query::finding(Level::Warning, a.loc, msg,
                                              "target 12.1a: TORCH_CUDA_ARCH_LIST=\"12.1a\", CMAKE_CUDA_ARCHITECTURES=121a, "
                                              "-gencode arch=compute_121a,code=sm_121a",
                                              {{u->loc, "NVFP4 used here: " + u->what}}),
                               suffix_fix(p, a.value_loc)));
  }
}

// Builds near a use that name architectures (12.1 with or without a, or only other GPUs'):
// handled by check 1, or not Spark builds at all.
bool archs_named_near(const Evidence& ev, const Place& u) {
  auto near_u = [&](const Place& x) { return x.near(u); };
  return std::any_of(ev.arch_dirs.begin(), ev.arch_dirs.end(), [&](const std::string& d) { return near_dirs(d, u.dir); }) ||
         std::any_of(ev.plain.begin(), ev.plain.end(), near_u) ||
         std::any_of(ev.specific.begin(), ev.specific.end(), near_u) ||
         std::any_of(ev.suffixed.begin(), ev.suffixed.end(), near_u);
}

// 2. A kernel build with no architecture list at all, near NVFP4 uses: one finding at the
// build, the first uses as related places.
void build_without_arch(const Place& b, const std::vector<const Place*>& uses, Reporter& out) {
  std::vector<Related> related;
  for (const Place* u : uses)
    if (related.size() < 3) related.push_back({u->loc, "NVFP4 used here: " + u->what});
  out.report(query::finding(
      Level::Warning, b.loc,
      b.what + " builds CUDA kernels with no 12.1a target, and NVFP4 (" + uses.front()->what +
          ") is used beside it: without sm_121a the native FP4 conversion is compiled out and NVFP4 kernels "
          "fall back to a software path that produced NaN on a DGX Spark (vllm-project/vllm PR #37725)",
      "build the kernels with TORCH_CUDA_ARCH_LIST=\"12.1a\" (CMake: CMAKE_CUDA_ARCHITECTURES=121a), "
      "or use a prebuilt NGC engine",
      std::move(related)));
}

// 3. NVFP4 in a project that never targets 12.1a, where no kernel build is near the use (or
// the builds near it name other GPUs only): the kernels the Spark runs come from wheels or
// images whose arch list decides. One note per project, at a command or config use when there
// is one (model ids, --quant_cfg), with a few more uses as related places.
void never_targets_121a(const std::vector<const Place*>& uses, Reporter& out) {
  if (uses.empty()) return;
  auto in_code = [](const Place* u) { return ends_with(u->loc.path, ".py") || ends_with(u->loc.path, ".ipynb"); };
  auto first = std::find_if(uses.begin(), uses.end(), [&](const Place* u) { return !in_code(u); });
  const Place& at = first == uses.end() ? *uses.front() : **first;
  std::vector<Related> more;
  for (const Place* u : uses)
    if (u->loc.path != at.loc.path && more.size() < 3 &&
        std::none_of(more.begin(), more.end(), [&](const Related& r) { return r.loc.path == u->loc.path; }))
      more.push_back({u->loc, "NVFP4 also used here: " + u->what});
  out.report(query::finding(
      Level::Note, at.loc,
      "NVFP4 (" + at.what +
          ") in a project that never targets 12.1a/sm_121a: on a DGX Spark its NVFP4 kernels need an sm_121a "
          "build, and prebuilt wheels and images often lack one (published vLLM wheels did not build 12.1); "
          "without it the native FP4 conversion is compiled out, a path that produced NaN (vllm-project/vllm PR "
          "#37725)",
      "run `sparkcheck probe G7` on the Spark, or check that the image's or wheel's CUDA arch list "
      "(torch.cuda.get_arch_list(), cuobjdump --list-elf) includes sm_121a",
      std::move(more)));
}

// Does build `b` serve use `u`? A build serves the uses in its own tree; a top-level README
// naming NVFP4 does not make a nested toy `nvcc hello.cu` an NVFP4 build. A document's build or
// use meets only what Place::near allows.
bool serves(const Place& b, const Place& u) {
  if (b.doc || u.doc) return b.near(u);
  return b.dir.empty() || u.dir == b.dir || starts_with(u.dir, b.dir + "/");
}

// The uses in build `b`'s tree that no architecture list speaks for, one per line.
std::vector<const Place*> unlisted_uses_near(const Evidence& ev, const Place& b) {
  std::vector<const Place*> r;
  std::set<std::pair<std::string, int>> lines;
  for (const auto& u : ev.uses)
    if (serves(b, u) && !archs_named_near(ev, u) && lines.insert({u.loc.path, u.loc.range.line}).second)
      r.push_back(&u);
  return r;
}

// NVIDIA's NGC images are the project's only engines, and no kernel build of its own (a build or
// an arch list) is near these uses: the NGC builds serve them. A llama.cpp build for other GPUs in
// a sibling folder makes none of their NVFP4 kernels.
bool ngc_engines_serve(const Evidence& ev, const std::vector<const Place*>& uses) {
  if (!ev.ngc_engine || ev.other_engine) return false;
  auto near_a_use = [&](const Place& x) {
    return std::any_of(uses.begin(), uses.end(), [&](const Place* u) { return x.near(*u); });
  };
  auto near_dir = [&](const std::string& d) {  // a document's use meets its own folder only (Place::near)
    return std::any_of(uses.begin(), uses.end(), [&](const Place* u) { return u->doc ? d == u->dir : near_dirs(d, u->dir); });
  };
  return std::none_of(ev.builds.begin(), ev.builds.end(), near_a_use) &&
         std::none_of(ev.plain.begin(), ev.plain.end(), near_a_use) &&
         std::none_of(ev.suffixed.begin(), ev.suffixed.end(), near_a_use) &&
         std::none_of(ev.arch_dirs.begin(), ev.arch_dirs.end(), near_dir);
}

void uses_without_arch(const Evidence& ev, Reporter& out) {
  std::set<const Place*> covered;  // uses a build finding speaks for
  std::set<std::tuple<std::string, int, int>> builds_seen;
  for (const auto& b : ev.builds) {
    if (!builds_seen.insert({b.loc.path, b.loc.range.line, b.loc.range.col}).second) continue;
    auto near = unlisted_uses_near(ev, b);
    if (near.empty()) continue;
    build_without_arch(b, near, out);
    covered.insert(near.begin(), near.end());
  }
  std::set<std::pair<std::string, int>> seen;  // one use per line
  std::vector<const Place*> unbuilt;           // uses for the project note (check 3)
  for (const auto& u : ev.uses) {
    if (!seen.insert({u.loc.path, u.loc.range.line}).second || covered.count(&u)) continue;
    auto near_u = [&](const Place& x) { return x.near(u); };
    bool listed_near = std::any_of(ev.plain.begin(), ev.plain.end(), near_u) ||
                       std::any_of(ev.suffixed.begin(), ev.suffixed.end(), near_u);
    if (!listed_near && !ev.spark_build_files.count(u.loc.path)) unbuilt.push_back(&u);
  }
  if (ev.specific.empty() && !ngc_engines_serve(ev, unbuilt)) never_targets_121a(unbuilt, out);
}

class Nvfp4Rule : public Rule {
 public:
  std::string_view id() const override { return "G7"; }

  void check(const Project& p, Reporter& out) const override {
    Evidence ev = gather(p);
    if (ev.uses.empty()) return;
    // a build of kernels the project holds, with no FP4 hardware code, is not an NVFP4 build
    std::erase_if(ev.builds, [&](const Place& b) { return kernels_without_fp4(p, b); });
    plain_arch_lists(p, ev, out);
    uses_without_arch(ev, out);
  }
};

}  // namespace

SPARKCHECK_RULE(Nvfp4Rule);

}  // namespace sc

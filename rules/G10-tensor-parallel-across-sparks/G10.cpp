// SPDX-License-Identifier: Apache-2.0
// G10: tensor parallelism > 1 on DGX Sparks (one GPU each) always crosses the
// ConnectX-7 link. Training -> error (use FSDP/DDP); inference and RL rollout -> note.
// Where TP sizes are written: surfaces.cpp; here, when they span Sparks.
#include <algorithm>

#include "core/registry.h"
#include "query/finding.h"
#include "query/layout.h"
#include "query/packages.h"
#include "rules/G10-tensor-parallel-across-sparks/surfaces.h"

namespace sc {
namespace {

using g10::Hit;
using g10::Use;

// ---- judgement ------------------------------------------------------------------

// GPUs the hit needs: its parallel degrees, or the nodes of a one-GPU-per-node layout.
long gpus_needed(const Hit& h) {
  long n = std::max(h.world, h.tp);
  return h.layout.per_node == 1 ? std::max(n, static_cast<long>(h.layout.nodes)) : n;
}

// Does the TP group span Sparks? A launch with several GPUs on one node, or one node, is a
// multi-GPU server; so are degrees that need more GPUs than the cluster has Sparks, or than
// the stated nodes. Unstated layouts follow the launchers tied to the file.
bool spans_sparks(const Hit& h, int sparks, bool multi_gpu_launchers) {
  if (h.layout.per_node > 1 || h.layout.nodes == 1) return false;
  if (gpus_needed(h) > sparks) return false;
  if (h.layout.nodes >= 2 && h.layout.per_node < 0 && std::max(h.world, h.tp) > h.layout.nodes) return false;
  return h.layout.known() || !multi_gpu_launchers;
}

Finding training_finding(const Hit& h) {
  std::string where = h.layout.nodes >= 2 ? " on " + std::to_string(h.layout.nodes) + " nodes" : "";
  return query::finding(
      Level::Error, h.loc,
      "tensor parallelism " + std::to_string(h.tp) + " (" + h.surface + ") in training" + where +
          ": a DGX Spark has one GPU, so every tensor-parallel all-reduce crosses the ConnectX-7 link "
          "between machines; NVIDIA's dual-Spark fine-tuning recipe keeps TP at 1 and shards with FSDP",
      "set the tensor-parallel size to 1 and use FSDP/DDP across the Sparks (e.g. "
      "parallelism_config_dp_shard_size: 2), or pipeline parallelism");
}

Finding inference_finding(const Hit& h) {
  std::string nodes = h.layout.nodes >= 2 ? std::to_string(h.layout.nodes) : std::string("two or more");
  return query::finding(
      Level::Note, h.loc,
      "tensor-parallel size " + std::to_string(h.tp) + " (" + h.surface + ") spans " + nodes +
          " Sparks (one GPU each): NVIDIA's vLLM and TensorRT-LLM playbooks do serve with TP=2 over two "
          "Sparks, but field reports are mixed (hangs in vllm-project/vllm#41725 and #42354, slow "
          "prefill), and vLLM advises pipeline parallelism between nodes without NVLink",
      "if serving hangs or prefill is slow, try tensor-parallel 1 with pipeline-parallel 2 across the two Sparks");
}

Finding rollout_finding(const Hit& h) {
  std::string nodes = h.layout.nodes >= 2 ? std::to_string(h.layout.nodes) : std::string("two or more");
  return query::finding(
      Level::Note, h.loc,
      "rollout tensor-parallel size " + std::to_string(h.tp) + " (" + h.surface + ") is inference TP: the RL "
          "trainer's generation engine (vLLM/SGLang) splits each layer over " + nodes +
          " Sparks (one GPU each), so every generated token all-reduces over the ConnectX-7 link; training "
          "parallelism is set separately",
      "if rollout is slow or hangs and the model fits in one Spark's memory, set the rollout tensor-parallel "
      "size to 1 (one engine per Spark)");
}

Finding finding_for(const Hit& h) {
  if (h.use == Use::Training) return training_finding(h);
  return h.use == Use::Rollout ? rollout_finding(h) : inference_finding(h);
}

void report(const Hit& h, Reporter& out) {
  Finding f = finding_for(h);
  if (h.layout.where.range.valid()) f.related.push_back({h.layout.where, "node layout stated here"});
  out.report(std::move(f));
}

void note_unreadable(const query::Unreadable& bad, Reporter& out) {
  for (const Location& l : bad.places)
    out.note({Level::Warning, l.path, l.range,
              "G10: a tensor-parallel size here is a number too large to read; it was not checked",
              "unreadable-value"});
}

class TensorParallelRule : public Rule {
 public:
  std::string_view id() const override { return "G10"; }

  void check(const Project& p, Reporter& out) const override {
    bool shared_gpus = query::gpu_sharing(p);
    query::TiedLaunchers tied(p, shared_gpus);
    std::vector<std::pair<const ParsedFile*, g10::Hits>> files;
    g10::Judged judged;
    for (const auto& f : p.files) {
      if (p.skips_test(*f)) continue;
      files.emplace_back(f.get(), g10::tp_surfaces(*f, shared_gpus));
      for (const g10::Hit& h : files.back().second.list) judged.add(h.loc);
    }
    for (auto& [f, hits] : files) {
      g10::arg_list_hits(*f, judged, hits);
      bool multi_gpu = !hits.list.empty() && tied.multi_gpu_nodes(*f);
      for (const auto& h : hits.list)
        if (spans_sparks(h, p.target.sparks, multi_gpu) && !query::other_platform_section(*f->facts, h.loc.range.line))
          report(h, out);
      note_unreadable(hits.bad, out);
    }
  }
};

}  // namespace

SPARKCHECK_RULE(TensorParallelRule);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// G10 surfaces: every literal tensor-parallel size > 1 a file states (launch flags, Hydra
// overrides, config keys, Python calls and assignments), with the node layout and the GPU count
// its other degrees need. Spellings: knowledge/parallelism.yaml.
#pragma once
#include <string>
#include <vector>

#include "analysis/launch.h"
#include "analysis/project.h"
#include "query/commands.h"

namespace sc::g10 {

// Rollout: the inference engine (vLLM, SGLang) inside an RL trainer (verl, OpenRLHF).
enum class Use { Training, Inference, Rollout };

struct Hit {
  Use use;
  long tp;
  Location loc;
  std::string surface;  // "Megatron --tensor-model-parallel-size"
  Layout layout;        // what the surface itself says about nodes
  long world = -1;      // GPUs the surface's parallel degrees need (TP x PP x DP x CP), -1 unknown
};

struct Hits {
  std::vector<Hit> list;
  query::Unreadable bad;  // TP values too large to read
};

// The tensor-parallel sizes > 1 stated in one file; `shared_gpus`: Kubernetes GPU counts are
// shares of a GPU (query::gpu_sharing), not GPUs.
Hits tp_surfaces(const ParsedFile& f, bool shared_gpus);

}  // namespace sc::g10

// SPDX-License-Identifier: Apache-2.0
// G10 surfaces: every literal tensor-parallel size > 1 a file states (launch flags, Hydra
// overrides, config keys, Python calls and assignments), with the node layout and the GPU count
// its other degrees need. Spellings: knowledge/parallelism.yaml.
#pragma once
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "query/commands.h"
#include "query/project.h"

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

// The places some launch of the project already judged (a settings file's word is judged in
// the script that expands it).
class Judged {
 public:
  bool add(const Location& l) { return places_.insert({l.path, l.range.line, l.range.col}).second; }

 private:
  std::set<std::tuple<std::string, int, int>> places_;
};

// Sizes in the file's argument lists held in variables (`ENGINE_ARGS=( ... )`, program unknown)
// at places no launch judged: only flags that name tensor parallelism in full count.
void arg_list_hits(const ParsedFile& f, Judged& judged, Hits& out);

}  // namespace sc::g10

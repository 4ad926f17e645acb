// SPDX-License-Identifier: Apache-2.0
// How many nodes and GPUs per node a launch states: launcher flags, #SBATCH directives,
// Hydra overrides and config keys, all spelled in knowledge/parallelism.yaml
// (tables launchers, layout-flags, layout-keys).
#pragma once
#include <unordered_map>
#include <vector>

#include "analysis/launch.h"
#include "analysis/project.h"

namespace sc::query {

// From a launcher command: torchrun (--nnodes, --nproc-per-node, --standalone), accelerate
// launch (--num_machines, --num_processes = total), deepspeed (--num_nodes, --num_gpus),
// OpenRLHF (--actor.num_nodes, --actor.num_gpus_per_node); Hydra overrides of layout-keys
// (trainer.num_nodes=, trainer.devices=, verl trainer.nnodes=, trainer.n_gpus_per_node=).
Layout command_layout(const Command& c);
// From #SBATCH directives: --nodes/-N, --gres=gpu:N, --gpus-per-node, --ntasks-per-node.
Layout sbatch_layout(const std::vector<Command>& sbatch);
// From a config file: the layout-keys of knowledge/parallelism.yaml (accelerate num_machines /
// num_processes = total, NeMo and verl trainer keys, SkyPilot num_nodes / resources.accelerators,
// Kubernetes replicas / nvidia.com/gpu limits).
// `shared_gpus`: the project's device plugin shares GPUs (gpu_sharing), so GPU counts are not read.
Layout config_layout(const std::vector<ConfigEntry>& cfg, bool shared_gpus = false);
// Does the project configure NVIDIA device-plugin GPU sharing (time-slicing, MPS)?
bool gpu_sharing(const Project& p);

// From environment variables (knowledge table layout-env): NNODES, NPROC_PER_NODE, and a
// CUDA_VISIBLE_DEVICES list of two or more devices (more than one GPU per node).
Layout env_layout(const std::vector<EnvSetting>& env);

// The launchers that speak for a file: those in the same folder, and those naming it
// (`--config_file cfg.yaml`, `deepspeed: ds.json`, `--config-name cfg`). Built once per rule run.
class TiedLaunchers {
 public:
  TiedLaunchers(const Project& p, bool shared_gpus);
  // True when the launchers tied to `f` put more than one GPU on a node and none exactly
  // one (a multi-GPU server, not a Spark). Launchers elsewhere in the project do not count.
  bool multi_gpu_nodes(const ParsedFile& f) const;

 private:
  struct Flags {
    bool many = false, one = false;        // some launch with > 1 / exactly 1 GPU per node
  };
  using Index = std::unordered_map<std::string, Flags>;
  static void add(Index& ix, const std::string& key, Flags f);
  static void tie(const Index& ix, const std::string& key, Flags& f);
  // Launchers (files that state GPUs per node) indexed once: by folder, by the file tails they
  // name, by their Hydra --config-name stems.
  Index by_dir_, by_path_, by_stem_;
};

}  // namespace sc::query

// How many nodes and GPUs per node a launch states: launcher flags, #SBATCH directives,
// Hydra overrides and config keys, all spelled in knowledge/parallelism.yaml
// (tables launchers, layout-flags, layout-keys).
#pragma once
#include <vector>

#include "analysis/launch.h"
#include "analysis/project.h"

namespace sc::query {

// From a launcher command: torchrun (--nnodes, --nproc-per-node, --standalone), accelerate
// launch (--num_machines, --num_processes = total), deepspeed (--num_nodes, --num_gpus),
// Hydra overrides (trainer.num_nodes=, trainer.devices=).
Layout command_layout(const Command& c);
// From #SBATCH directives: --nodes/-N, --gres=gpu:N, --gpus-per-node, --ntasks-per-node.
Layout sbatch_layout(const std::vector<Command>& sbatch);
// From a config file: accelerate (num_machines, num_processes = total), NeMo
// (trainer.num_nodes, trainer.devices).
Layout config_layout(const std::vector<ConfigEntry>& cfg);

// Project-wide evidence: true when some launcher in the project puts more than
// one GPU on a node and none puts exactly one (a multi-GPU server, not a Spark).
bool project_multi_gpu_nodes(const Project& p);

}  // namespace sc::query

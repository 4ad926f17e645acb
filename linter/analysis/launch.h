// Helpers shared by the rules that read launch commands and training code
// (G2, G7, G10): integer literals, program lookup inside wrapped commands,
// node / GPU-per-node layout, test-code paths.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "analysis/project.h"

namespace sc {

// "2" / " 2 " / "+2" -> 2; nullopt for anything else (variables, "auto", "2.0").
std::optional<long> int_literal(std::string_view s);

// Base name of a program word: "/usr/bin/python3" -> "python3".
std::string prog_base(std::string_view w);

// Index of the first argv word whose base name is one of `progs`, or -1.
int find_program(const Command& c, std::initializer_list<std::string_view> progs, size_t from = 0);
// Index of the word after `-m` when it starts with one of `modules` ("vllm.entrypoints"), or -1.
int find_module(const Command& c, std::initializer_list<std::string_view> modules);

// Files that are test code of a library (tests/, test_*.py, *_test.py, conftest.py):
// they configure nothing a user runs.
bool is_test_path(std::string_view display_path);

// How many nodes and GPUs per node a launch uses; -1 when not stated.
struct Layout {
  int nodes = -1;
  int per_node = -1;
  Location where;  // the flag that stated it
  bool known() const { return nodes >= 0 || per_node >= 0; }
};
// From a launcher command: torchrun/torch.distributed.run (--nnodes, --nproc-per-node,
// --standalone), accelerate launch (--num_machines, --num_processes), deepspeed
// (--num_nodes, --num_gpus), Hydra overrides (trainer.num_nodes=, trainer.devices=).
Layout command_layout(const Command& c);
// From #SBATCH directives: --nodes/-N, --gres=gpu:N, --gpus-per-node, --ntasks-per-node.
Layout sbatch_layout(const std::vector<Command>& sbatch);
// Merge: fields of `a` win, `b` fills the gaps.
Layout merge(const Layout& a, const Layout& b);

// Project-wide evidence: true when some launcher in the project puts more than
// one GPU on a node and none puts exactly one (a multi-GPU server, not a Spark).
bool project_multi_gpu_nodes(const Project& p);

}  // namespace sc

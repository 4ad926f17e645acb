// SPDX-License-Identifier: Apache-2.0
// Unit tests for the launch-layout helpers used by G2/G7/G10 (linter/analysis/launch.*).
#include <catch2/catch.hpp>

#include "analysis/launch.h"
#include "query/commands.h"
#include "query/config.h"
#include "query/layout.h"
#include "knowledge/knowledge.h"
#include "query/python.h"
#include "parsers/shell.h"
#include "launch_rules.h"

using namespace sc;
using sc::query::command_layout;
using sc::query::sbatch_layout;

namespace {

Command first_command(const std::string& script, std::vector<Command>* sbatch = nullptr) {
  FileFacts f;
  ParseDiag d;
  SourceFile src("launch.sh", script);
  parse_shell(src, {}, -1, CommandContext::Script, f, d);
  if (sbatch) *sbatch = f.sbatch;
  return f.commands.empty() ? Command{} : f.commands.back();
}

}  // namespace

TEST_CASE("int_literal accepts plain integers only", "[launch]") {
  CHECK(int_literal("2") == 2);
  CHECK(int_literal(" 8 ") == 8);
  CHECK(int_literal("+4") == 4);
  CHECK_FALSE(int_literal("$TP"));
  CHECK_FALSE(int_literal("2.0"));
  CHECK_FALSE(int_literal("auto"));
  CHECK_FALSE(int_literal(""));
}

TEST_CASE("read_int never throws and marks numbers too large to read", "[launch]") {
  CHECK(read_int("2147483647").value == 2147483647L);
  IntLiteral big = read_int("99999999999999");
  CHECK_FALSE(big.value);
  CHECK(big.unreadable);
  IntLiteral huge = read_int(std::string(400, '9'));
  CHECK(huge.unreadable);
  CHECK_FALSE(read_int("-2").unreadable);
  CHECK_FALSE(read_int("-2").value);
}

TEST_CASE("command_layout reads torchrun, accelerate, deepspeed and Hydra overrides", "[launch]") {
  Layout t = command_layout(first_command("torchrun --nnodes 2 --nproc-per-node 1 train.py\n"));
  CHECK(t.nodes == 2);
  CHECK(t.per_node == 1);
  CHECK(t.where.range.line == 1);
  Layout e = command_layout(first_command("torchrun --nnodes=1:2 --nproc_per_node=8 train.py\n"));
  CHECK(e.nodes == 2);
  CHECK(e.per_node == 8);
  Layout s = command_layout(first_command("python -m torch.distributed.run --standalone train.py\n"));
  CHECK(s.nodes == 1);
  Layout a = command_layout(first_command("accelerate launch --num_machines 2 --num_processes 4 train.py\n"));
  CHECK(a.nodes == 2);
  CHECK(a.per_node == 2);
  Layout d = command_layout(first_command("deepspeed --num_nodes 2 --num_gpus 1 train.py\n"));
  CHECK(d.nodes == 2);
  CHECK(d.per_node == 1);
  Layout h = command_layout(first_command("python pretrain.py trainer.num_nodes=2 trainer.devices=1\n"));
  CHECK(h.nodes == 2);
  CHECK(h.per_node == 1);
  Layout u = command_layout(first_command("torchrun --nnodes $N --nproc-per-node 1 train.py\n"));
  CHECK(u.nodes == -1);
  CHECK(u.per_node == 1);
  CHECK_FALSE(command_layout(first_command("python train.py --nnodes 2\n")).known());
}

TEST_CASE("sbatch_layout reads nodes and GPUs per node", "[launch]") {
  std::vector<Command> sb;
  first_command("#!/bin/bash\n#SBATCH -N 2\n#SBATCH --gres=gpu:h100:8\nsrun x\n", &sb);
  Layout l = sbatch_layout(sb);
  CHECK(l.nodes == 2);
  CHECK(l.per_node == 8);
  first_command("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nsrun x\n", &sb);
  CHECK(sbatch_layout(sb).per_node == 1);
  Layout m = merge(Layout{}, sbatch_layout(sb));
  CHECK(m.nodes == 2);
}

TEST_CASE("program lookup and test paths", "[launch]") {
  Command c = first_command("docker run --gpus all img /usr/local/bin/vllm serve m\n");
  CHECK(find_program(c, {"vllm"}) == 5);
  CHECK(find_program(c, {"sglang"}) == -1);
  Command m = first_command("python3 -m vllm.entrypoints.openai.api_server --model m\n");
  CHECK(find_module(m, {"vllm.entrypoints"}) == 2);
  CHECK(is_test_path("tests/unit/test_x.py"));
  CHECK(is_test_path("pkg/test_launch.py"));
  CHECK(is_test_path("conftest.py"));
  CHECK_FALSE(is_test_path("examples/train.py"));
  CHECK_FALSE(is_test_path("contest/run.sh"));
}

TEST_CASE("query::int_flag: last occurrence, no exceptions, unreadable places", "[launch][query]") {
  Command c = first_command("vllm serve m --tp 2 --tensor-parallel-size=4 -N3\n");
  auto v = query::int_flag(c, {"--tp", "--tensor-parallel-size"});
  REQUIRE(v);
  CHECK(v->value == 4);
  CHECK(query::int_flag(c, {"-N"})->value == 3);
  CHECK_FALSE(query::int_flag(c, {"--pp"}));
  query::Unreadable bad;
  Command big = first_command("vllm serve m --tensor-parallel-size 99999999999999\n");
  CHECK_FALSE(query::int_flag(big, {"--tensor-parallel-size"}, &bad));
  REQUIRE(bad.places.size() == 1);
  CHECK(bad.places[0].range.line == 1);
  CHECK_FALSE(query::int_flag(first_command("x --tp $TP\n"), {"--tp"}, &bad));
  CHECK(bad.places.size() == 1);
}

TEST_CASE("query::runs and launcher_of read the launchers table", "[launch][query]") {
  CHECK(query::launcher_of(first_command("docker run img vllm serve m\n")) == "vllm");
  CHECK(query::launcher_of(first_command("python -m torch.distributed.run x.py\n")) == "torchrun");
  CHECK(query::launcher_of(first_command("trl vllm-serve --model m\n")) == "trl-vllm-serve");
  CHECK(query::launcher_of(first_command("trl grpo --config c.yaml\n")) == "trl");
  CHECK(query::launcher_of(first_command("vllm bench m\n")) == "");
  CHECK(query::runs(first_command("sglang serve m\n"), "sglang"));
  auto o = query::overrides(first_command("python x.py +model.tensor_model_parallel_size=2 --a=b\n"),
                            "tensor_model_parallel_size");
  REQUIRE(o.size() == 1);
  CHECK(o[0].first == "+model.tensor_model_parallel_size");
}

TEST_CASE("query::config_int and python kwargs", "[launch][query]") {
  std::vector<ConfigEntry> cfg(2);
  cfg[0].path = {"trainer", "devices"};
  cfg[0].value = "auto";
  cfg[1].path = {"num_machines"};
  cfg[1].value = "2";
  CHECK_FALSE(query::config_int(cfg, {"trainer.devices"}));
  CHECK(query::config_int(cfg, {"num_machines"})->value == 2);
  CHECK(query::parent_key(cfg[0]) == "trainer");
  CHECK(query::top_keys(cfg) == std::set<std::string>{"num_machines"});  // one-element paths only
  PyCall call;
  call.resolved = "vllm.LLM";
  call.args.resize(2);
  call.args[0].literal = "m";
  call.args[1].keyword = "tensor_parallel_size";
  CHECK(query::kwarg(call, "tensor_parallel_size") == &call.args[1]);
  CHECK(query::positional(call, 0) == &call.args[0]);
  CHECK(query::positional(call, 1) == nullptr);
  CHECK(query::callee_name(call) == "LLM");
  const auto& kw = knowledge::table("tp-kwargs");
  CHECK(query::call_matches(call, kw.entries[0]));
  CHECK_FALSE(query::call_matches(call, kw.entries[1]));  // tensorrt_llm.
}

namespace {

std::vector<ConfigEntry> yaml_config(const std::string& path, const std::string& text) {
  Project p;
  return test::add_file(p, path, text)->facts->config;
}

}  // namespace

TEST_CASE("query::dotted_is agrees with ConfigEntry::dotted", "[launch][query]") {
  std::vector<std::vector<std::string>> paths = {
      {}, {"a"}, {"a", "b"}, {"a.b"}, {"a", "[0]", "b"}, {"[0]", "a"}, {"", "a"}, {"a", ""}, {"a", "b", "c"},
      {"resources", "accelerators"}, {"resources", "accelerators", "H100"}, {"resources", "accelerators", "[0]"},
      {"resources.accelerators", "x"}, {"a", std::string("b\0c", 3)}};
  std::vector<std::string> names = {"", "a", "a.b", "a[0]", "a[0].b", ".a", "a.", "a.b.c", "resources.accelerators",
                                    "b", std::string("a.b\0c", 5), std::string("a.b\0", 4)};
  for (const auto& p : paths)
    for (const auto& n : names) {
      ConfigEntry e;
      e.path = p;
      std::string d = e.dotted();
      INFO(d << " vs " << n);
      CHECK(query::dotted_is(e, n) == (d == n));
      bool below = d.size() > n.size() && d[n.size()] == '.' && d.compare(0, n.size(), n) == 0;
      CHECK(query::dotted_is(e, n, true) == (d == n || below));
    }
}

TEST_CASE("config_layout reads verl, SkyPilot and Kubernetes layout keys", "[launch]") {
  Layout v = query::config_layout(yaml_config("ppo.yaml", "trainer:\n  nnodes: 2\n  n_gpus_per_node: 1\n"));
  CHECK(v.nodes == 2);
  CHECK(v.per_node == 1);
  Layout s = query::config_layout(yaml_config("sky.yaml", "num_nodes: 2\nresources:\n  accelerators: H100:8\nrun: python x.py\n"));
  CHECK(s.nodes == 2);
  CHECK(s.per_node == 8);
  Layout m = query::config_layout(yaml_config("sky.yaml", "num_nodes: 2\nresources:\n  accelerators: {A100: 4}\nrun: python x.py\n"));
  CHECK(m.per_node == 4);
  // num_nodes outside a SkyPilot task is not a layout
  CHECK_FALSE(query::config_layout(yaml_config("other.yaml", "num_nodes: 2\nmodel: x\n")).known());
  std::string job =
      "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n"
      "    Worker:\n      replicas: 1\n      template:\n        spec:\n          containers:\n            - name: t\n"
      "              resources:\n                limits:\n                  nvidia.com/gpu: 1\n";
  Layout k = query::config_layout(yaml_config("job.yaml", job));
  CHECK(k.nodes == 2);
  CHECK(k.per_node == 1);
  CHECK(query::config_layout(yaml_config("job.yaml", job), true).per_node == -1);
}

TEST_CASE("command_layout reads env prefixes, OpenRLHF dotted flags, verl overrides, torchrun's default", "[launch]") {
  Layout e = command_layout(first_command("NNODES=2 NPROC_PER_NODE=8 swift sft --model m\n"));
  CHECK(e.nodes == 2);
  CHECK(e.per_node == 8);
  CHECK(command_layout(first_command("CUDA_VISIBLE_DEVICES=0,1 megatron sft --model m\n")).per_node == 2);
  CHECK(command_layout(first_command("CUDA_VISIBLE_DEVICES=0 megatron sft --model m\n")).per_node == -1);
  Layout o = command_layout(first_command("python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 2 --actor.num_gpus_per_node 1\n"));
  CHECK(o.nodes == 2);
  CHECK(o.per_node == 1);
  Layout v = command_layout(first_command("python3 -m verl.trainer.main_ppo trainer.nnodes=2 rollout.n_gpus_per_node=2\n"));
  CHECK(v.nodes == 2);
  CHECK(v.per_node == 2);
  CHECK(command_layout(first_command("torchrun --nproc-per-node 4 train.py\n")).nodes == 1);
  CHECK(command_layout(first_command("torchrun $DIST_ARGS train.py\n")).nodes == -1);
}

TEST_CASE("a launch recipe's command fills {key} placeholders from defaults", "[launch][recipe]") {
  Project p;
  std::string text =
      "recipe_version: \"1\"\ndefaults:\n  port: 8000\n  tensor_parallel: 2\n"
      "command: |\n  vllm serve m --port {port} \\\n    --tensor-parallel-size {tensor_parallel} \\\n"
      "    --json '{{\"a\":1}}' --tp-dp={port}x \\\n";
  const FileFacts& f = *test::add_file(p, "recipes/m.yaml", text)->facts;
  REQUIRE(f.commands.size() == 1);
  const Command& c = f.commands[0];
  REQUIRE(c.argv.size() == 10);
  CHECK(c.argv[4].text == "8000");
  CHECK(c.argv[6].text == "2");
  CHECK(c.argv[6].loc.range.line == 4);  // moved to `tensor_parallel: 2`
  CHECK(c.argv[6].loc.range.col == 20);
  CHECK(c.argv[7].text == "--json");
  CHECK(c.argv[8].text == "{\"a\":1}");
  CHECK(c.argv[9].text == "--tp-dp=8000x");
  // a word the placeholder is only part of stays where it is written, the default related
  Project q;
  const FileFacts& g = *test::add_file(q, "r.yaml", "defaults:\n  tp: 2\ncommand: vllm serve m --tensor-parallel-size={tp}\n")->facts;
  REQUIRE(g.commands.size() == 1);
  CHECK(g.commands[0].argv.back().text == "--tensor-parallel-size=2");
  CHECK(g.commands[0].argv.back().loc.range.line == 3);
  REQUIRE(g.expansions.size() == 1);
  CHECK(g.expansions[0].used.range.line == 2);
  // no defaults: not a recipe, the command stays config
  Project r;
  CHECK(test::add_file(r, "x.yaml", "command: vllm serve m --tensor-parallel-size 2\n")->facts->commands.empty());
}

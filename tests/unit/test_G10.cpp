// SPDX-License-Identifier: Apache-2.0
// G10 sub-checks, one test each: launch flags, Hydra overrides, config keys, Python
// keyword arguments, device meshes, attribute assignments, the multi-GPU judgement and
// unreadable numbers.
#include "launch_rules.h"

using namespace sc;
using sc::test::run_rule;

namespace {

test::Collected lint_g10(const std::string& path, const std::string& text) { return run_rule("G10", {{path, text}}); }

}  // namespace

TEST_CASE("G10 tp_flags: server and training launch flags", "[G10]") {
  auto r = lint_g10("serve.sh",
               "vllm serve m --tensor-parallel-size 2\n"
               "python -m sglang.launch_server --tp 2 --nnodes 2 --node-rank 0\n"
               "torchrun --nnodes 2 --nproc-per-node 1 pretrain_gpt.py --tensor-model-parallel-size 2\n"
               "vllm serve m --tensor-parallel-size 1\n"
               "sglang --tp 2\n");
  REQUIRE(r.lines() == std::vector<int>{1, 2, 3});
  CHECK(r.findings[0].level == Level::Note);
  CHECK(r.findings[0].message.find("vLLM --tensor-parallel-size") != std::string::npos);
  CHECK(r.findings[2].level == Level::Error);
  CHECK(r.findings[2].message.find("on 2 nodes") != std::string::npos);
}

TEST_CASE("G10 tp_flags: Megatron inference servers are notes", "[G10]") {
  auto r = lint_g10("run.sh", "python tools/run_text_generation_server.py --tensor-model-parallel-size 2\n");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].level == Level::Note);
}

TEST_CASE("G10 tp_overrides: Hydra keys", "[G10]") {
  auto r = lint_g10("train.sh", "python pretrain.py model.tensor_model_parallel_size=2 trainer.num_nodes=2\n");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].message.find("NeMo model.tensor_model_parallel_size") != std::string::npos);
  CHECK(lint_g10("t.sh", "python pretrain.py model.tensor_model_parallel_size=$TP\n").findings.empty());
}

TEST_CASE("G10 configs: accelerate, axolotl, vLLM sections", "[G10]") {
  auto a = lint_g10("fsdp.yaml", "num_machines: 2\nnum_processes: 2\nparallelism_config:\n  parallelism_config_tp_size: 2\n");
  REQUIRE(a.findings.size() == 1);
  CHECK(a.findings[0].level == Level::Error);
  REQUIRE(a.findings[0].related.size() == 1);
  auto x = lint_g10("ax.yaml", "base_model: m\ntensor_parallel_size: 2\nvllm:\n  tensor_parallel_size: 2\n");
  REQUIRE(x.lines() == std::vector<int>{2, 4});
  CHECK(x.findings[0].level == Level::Error);
  CHECK(x.findings[1].level == Level::Note);
  CHECK(lint_g10("big.yaml", "base_model: m\ntensor_parallel_size: 2\ndp_shard_size: 4\n").findings.empty());
}

TEST_CASE("G10 tp_kwargs: literal keyword arguments of known calls", "[G10]") {
  auto r = lint_g10("serve.py",
               "from vllm import LLM\n"
               "llm = LLM('m', tensor_parallel_size=2)\n"
               "other = LLM('m', tensor_parallel_size=n)\n"
               "parser.add_argument('--x', tensor_model_parallel_size=2)\n");
  REQUIRE(r.lines() == std::vector<int>{2});
  CHECK(r.findings[0].message.find("vLLM LLM(tensor_parallel_size=)") != std::string::npos);
}

TEST_CASE("G10 device_mesh: the tp dimension", "[G10]") {
  auto r = lint_g10("mesh.py",
               "from torch.distributed.device_mesh import init_device_mesh\n"
               "mesh = init_device_mesh('cuda', (1, 2), mesh_dim_names=('dp', 'tp'))\n");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].message.find("init_device_mesh") != std::string::npos);
}

TEST_CASE("G10 tp_attributes: NeMo 2 recipe assignments", "[G10]") {
  auto r = lint_g10("recipe.py", "recipe.trainer.strategy.tensor_model_parallel_size = 2\n");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].level == Level::Error);
}

TEST_CASE("G10 spans_sparks: multi-GPU servers and big degrees stay silent", "[G10]") {
  CHECK(lint_g10("a.sh", "torchrun --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 2\n").findings.empty());
  CHECK(lint_g10("b.sh", "torchrun --standalone pretrain_gpt.py --tensor-model-parallel-size 2\n").findings.empty());
  CHECK(lint_g10("c.sh", "pretrain_gpt.py --tensor-model-parallel-size 4\n").findings.empty());
  CHECK(lint_g10("d.sh", "torchrun --nnodes 2 pretrain_gpt.py --tensor-model-parallel-size 8\n").findings.empty());
  auto multi = run_rule("G10", {{"launch.sh", "torchrun --nproc-per-node 8 x.py\n"},
                                {"tp.yaml", "tensor_model_parallel_size: 2\n"}});
  CHECK(multi.findings.empty());
}

TEST_CASE("G10 unreadable numbers: a note, the other findings stand", "[G10]") {
  auto r = lint_g10("serve.sh",
               "vllm serve m --tensor-parallel-size 99999999999999\n"
               "vllm serve m --tensor-parallel-size 2\n");
  REQUIRE(r.lines() == std::vector<int>{2});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].path == "serve.sh");
  CHECK(r.notes[0].range.line == 1);
  // degrees whose product overflows a long: no crash, too many GPUs for a Spark pair
  CHECK(lint_g10("big.sh", "vllm serve m -tp 2 -pp 2000000000 -dp 2000000000 --context-parallel-size 2000000000 --ep-size 2000000000\n").findings.empty());
  auto c = lint_g10("cfg.yaml", "parallelism_config_tp_size: 123456789012345678901234567890\n");
  CHECK(c.findings.empty());
  CHECK(c.notes.size() == 1);
}

namespace {

// A project of in-memory files with a target (sparks, include-tests).
test::Collected lint_target(const std::vector<std::pair<std::string, std::string>>& files, LintTarget target) {
  Project p;
  for (const auto& [path, text] : files) test::add_file(p, path, text);
  p.target = target;
  p.link();
  return run_rule("G10", p);
}

}  // namespace

TEST_CASE("G10 target sparks: layouts needing more GPUs than the cluster are silent", "[G10]") {
  std::vector<std::pair<std::string, std::string>> f = {{"serve.sh", "vllm serve m --tensor-parallel-size 3\n"},
                                                        {"tp4.yaml", "tensor_model_parallel_size: 4\n"}};
  CHECK(lint_target(f, {2, false}).findings.empty());
  CHECK(lint_target(f, {3, false}).lines("serve.sh") == std::vector<int>{1});
  CHECK(lint_target(f, {3, false}).lines("tp4.yaml").empty());
  CHECK(lint_target(f, {4, false}).findings.size() == 2);
  // four one-GPU nodes need four Sparks
  auto four = std::vector<std::pair<std::string, std::string>>{
      {"run.sh", "torchrun --nnodes 4 --nproc-per-node 1 pretrain_gpt.py --tensor-model-parallel-size 2\n"}};
  CHECK(lint_target(four, {2, false}).findings.empty());
  CHECK(lint_target(four, {4, false}).findings.size() == 1);
}

TEST_CASE("G10 tied launchers: only launchers in the folder or naming the file count", "[G10]") {
  auto unrelated = run_rule("G10", {{"train/tp.yaml", "tensor_model_parallel_size: 2\n"},
                                    {"slurm/big.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:8\nsrun python x.py\n"}});
  CHECK(unrelated.lines() == std::vector<int>{1});
  CHECK(run_rule("G10", {{"train/tp.yaml", "tensor_model_parallel_size: 2\n"},
                         {"train/big.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:8\nsrun python x.py\n"}})
            .findings.empty());
  CHECK(run_rule("G10", {{"cfg/ds.json", "{\"tensor_parallel\": {\"autotp_size\": 2}}\n"},
                         {"scripts/run.sh", "deepspeed --num_gpus 8 train.py --deepspeed ../cfg/ds.json\n"}})
            .findings.empty());
  CHECK(run_rule("G10", {{"conf/ppo.yaml", "tensor_model_parallel_size: 2\n"},
                         {"run.sh", "torchrun --nproc-per-node 8 main.py --config-name ppo\n"}})
            .findings.empty());
  // a one-GPU launcher beside it keeps the config judged
  CHECK(run_rule("G10", {{"tp.yaml", "tensor_model_parallel_size: 2\n"},
                         {"big.sh", "torchrun --nproc-per-node 8 x.py\n"},
                         {"two.sh", "torchrun --nnodes 2 --nproc-per-node 1 x.py\n"}})
            .lines("tp.yaml") == std::vector<int>{1});
}

TEST_CASE("G10 rollout TP in RL trainers is a note, training TP an error", "[G10]") {
  auto v = lint_g10("run.sh",
                    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.tensor_model_parallel_size=2 "
                    "trainer.nnodes=2 trainer.n_gpus_per_node=1\n"
                    "python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2 "
                    "trainer.nnodes=2 trainer.n_gpus_per_node=1\n");
  REQUIRE(v.findings.size() == 2);
  CHECK(v.findings[0].level == Level::Note);
  CHECK(v.findings[0].message.find("is inference TP") != std::string::npos);
  CHECK(v.findings[1].level == Level::Error);
  auto o = lint_g10("ppo.sh",
                    "python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 2 --actor.num_gpus_per_node 1 "
                    "--vllm.tensor_parallel_size 2\n");
  REQUIRE(o.findings.size() == 1);
  CHECK(o.findings[0].level == Level::Note);
  CHECK(lint_g10("big.sh", "python3 -m openrlhf.cli.train_ppo_ray --actor.num_gpus_per_node 8 --vllm.tensor_parallel_size 2\n")
            .findings.empty());
  auto y = lint_g10("verl/rollout/rollout.yaml", "tensor_model_parallel_size: 2\n");
  REQUIRE(y.findings.size() == 1);
  CHECK(y.findings[0].level == Level::Note);
}

TEST_CASE("G10 include-tests: test code is skipped unless the target includes it", "[G10]") {
  std::vector<std::pair<std::string, std::string>> f = {{"tests/serve.sh", "vllm serve m --tensor-parallel-size 2\n"},
                                                        {"pkg/test_tp.py", "from vllm import LLM\nLLM('m', tensor_parallel_size=2)\n"}};
  CHECK(lint_target(f, {2, false}).findings.empty());
  CHECK(lint_target(f, {2, true}).findings.size() == 2);
}

TEST_CASE("G10 GPU sharing: Kubernetes GPU counts under time-slicing are not GPUs", "[G10]") {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n        - name: s\n"
      "          command: [\"vllm\", \"serve\", \"m\", \"--tensor-parallel-size\", \"2\"]\n"
      "          resources:\n            limits:\n              nvidia.com/gpu: 2\n";
  CHECK(run_rule("G10", {{"job.yaml", job}}).findings.empty());
  std::string sharing = "version: v1\nsharing:\n  timeSlicing:\n    resources:\n      - name: nvidia.com/gpu\n        replicas: 2\n";
  CHECK(run_rule("G10", {{"job.yaml", job}, {"plugin/any.yaml", sharing}}).findings.size() == 1);
}

TEST_CASE("G10 image entrypoints: vllm/vllm-openai takes the words after the image", "[G10]") {
  auto r = lint_g10("run.sh",
                    "docker run --gpus all vllm/vllm-openai:latest --model m --tensor-parallel-size 2\n"
                    "docker run --gpus all --entrypoint vllm nvcr.io/nvidia/vllm:25.11-py3 serve m -tp 2\n"
                    "docker run --gpus all nvcr.io/nvidia/vllm:25.11-py3 --model m --tensor-parallel-size 2\n"
                    "docker run vllm/vllm-openai:latest --model m --tensor-parallel-size 1\n");
  CHECK(r.lines() == std::vector<int>{1, 2});
  auto c = lint_g10("compose.yaml",
                    "services:\n"
                    "  a:\n    image: vllm/vllm-openai:v0.11.0\n    command: [\"m\", \"--tensor-parallel-size\", \"2\"]\n"
                    "  b:\n    image: lmsysorg/sglang:latest\n    command: --model-path m --tp 2\n");
  CHECK(c.lines() == std::vector<int>{4});
}

TEST_CASE("G10 other-platform sections: a Markdown heading naming another platform", "[G10]") {
  auto r = lint_g10("README.md",
                    "# Serve\n\n## Two Sparks\n\n```bash\nvllm serve m --tensor-parallel-size 2\n```\n\n"
                    "## AMD MI300X\n\n```bash\nvllm serve m --tensor-parallel-size 2\n```\n");
  CHECK(r.lines() == std::vector<int>{6});
}

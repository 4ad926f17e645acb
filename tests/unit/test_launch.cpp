// Unit tests for the launch-layout helpers used by G2/G7/G10 (linter/analysis/launch.*).
#include <catch2/catch.hpp>

#include "analysis/launch.h"
#include "query/layout.h"
#include "parsers/shell.h"

using namespace sc;
using sc::query::command_layout;
using sc::query::sbatch_layout;

namespace {

Command first_command(const std::string& script, std::vector<Command>* sbatch = nullptr) {
  FileFacts f;
  ParseDiag d;
  SourceFile src("launch.sh", script);
  parse_shell(src, {}, -1, "script", f, d);
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

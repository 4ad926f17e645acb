// SPDX-License-Identifier: Apache-2.0
// G7 sub-checks, one test each: (1) plain 12.1 architecture lists near an NVFP4 use,
// (2) NVFP4 uses near kernel builds with no architecture list; and the NVFP4 surfaces.
#include "launch_rules.h"
#include "rules/G7-nvfp4-without-sm121a/evidence.h"

using namespace sc;
using sc::test::run_rule;

namespace {

test::Collected lint_g7(const std::string& text, const std::string& path = "Dockerfile") {
  return run_rule("G7", {{path, text}});
}

}  // namespace

TEST_CASE("G7 plain_arch_lists: 12.1 without a, near NVFP4", "[G7]") {
  auto r = lint_g7("FROM x\n"
              "ENV TORCH_CUDA_ARCH_LIST=\"12.1\"\n"
              "RUN pip install --no-build-isolation .\n"
              "CMD [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n");
  REQUIRE(r.lines() == std::vector<int>{2});
  REQUIRE(r.findings[0].related.size() == 1);
  CHECK(r.findings[0].related[0].loc.range.line == 4);
}

TEST_CASE("G7 plain_arch_lists: arch spellings", "[G7]") {
  auto use = std::string("CMD [\"vllm\", \"serve\", \"m\", \"--quantization\", \"modelopt_fp4\"]\n");
  CHECK(lint_g7("FROM x\nENV TORCH_CUDA_ARCH_LIST=Blackwell\n" + use).findings.size() == 1);
  CHECK(lint_g7("FROM x\nRUN cmake -DCMAKE_CUDA_ARCHITECTURES=121-real ..\n" + use).findings.size() == 1);
  CHECK(lint_g7("FROM x\nRUN nvcc -gencode arch=compute_121,code=sm_121 k.cu\n" + use).findings.size() == 1);
  CHECK(lint_g7("FROM x\nENV TORCH_CUDA_ARCH_LIST=\"12.0;12.1a\"\n" + use).findings.empty());
  CHECK(lint_g7("FROM x\nRUN cmake -DCMAKE_CUDA_ARCHITECTURES=121a-real ..\n" + use).findings.empty());
  CHECK(lint_g7("FROM x\nENV TORCH_CUDA_ARCH_LIST=\"12.1\"\n").findings.empty());  // no NVFP4
}

TEST_CASE("G7 uses_without_arch: a build with no arch list near NVFP4 uses", "[G7]") {
  // one finding at the build, the uses as related places
  auto r = lint_g7("FROM x\n"
              "RUN pip install --no-build-isolation vllm\n"
              "CMD [\"vllm\", \"serve\", \"nvidia/Llama-3.1-8B-Instruct-FP4\"]\n"
              "ENTRYPOINT [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n");
  REQUIRE(r.lines() == std::vector<int>{2});
  CHECK(r.findings[0].level == Level::Warning);
  REQUIRE(r.findings[0].related.size() == 2);
  CHECK(r.findings[0].related[0].loc.range.line == 3);
  // a kernel package without FP4 code (flash-attn, causal-conv1d) is no NVFP4 build: the note only
  auto fa = lint_g7("FROM x\nRUN pip install --no-build-isolation flash-attn\n"
                    "CMD [\"vllm\", \"serve\", \"nvidia/Llama-3.1-8B-Instruct-FP4\"]\n");
  REQUIRE(fa.lines() == std::vector<int>{3});
  CHECK(fa.findings[0].level == Level::Note);
  // builds that name only other GPUs' architectures are not Spark builds: no warning, the
  // project-wide note (check 3) only
  auto other = lint_g7("FROM x\nENV TORCH_CUDA_ARCH_LIST=\"8.0 9.0\"\nRUN python setup.py install\n"
                       "CMD [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n");
  REQUIRE(other.lines() == std::vector<int>{4});
  CHECK(other.findings[0].level == Level::Note);
}

TEST_CASE("G7 never_targets_121a: NVFP4 in a project with no 12.1a target is a note", "[G7]") {
  auto serve = std::pair<std::string, std::string>{"serve.sh", "vllm serve nvidia/Qwen3-8B-NVFP4\n"
                                                               "vllm serve nvidia/Llama-3.1-8B-Instruct-NVFP4\n"};
  auto prebuilt = run_rule("G7", {serve});
  REQUIRE(prebuilt.lines() == std::vector<int>{1});  // one note per project
  CHECK(prebuilt.findings[0].level == Level::Note);
  CHECK(prebuilt.findings[0].message.find("never targets 12.1a") != std::string::npos);
  // 12.1a anywhere in the project: it targets the Spark
  CHECK(run_rule("G7", {serve, {"docker/Dockerfile", "FROM x\nENV TORCH_CUDA_ARCH_LIST=\"12.1a\"\n"}}).findings.empty());
  // NVIDIA's container for the Spark
  CHECK(lint_g7("FROM nvcr.io/nvidia/vllm:26.05-py3\nCMD [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n")
            .findings.empty());
}

TEST_CASE("G7 NVFP4 surfaces: ModelOpt --quant_cfg, argparse defaults, constants", "[G7]") {
  auto one_note = [](const std::string& path, const std::string& text, int line) {
    auto r = run_rule("G7", {{path, text}});
    REQUIRE(r.lines() == std::vector<int>{line});
    CHECK(r.findings[0].level == Level::Note);
  };
  one_note("quant.sh", "python hf_ptq.py --pyt_ckpt_path m --quant_cfg NVFP4_DEFAULT_CFG\n", 1);
  one_note("ptq.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--qformat', default='nvfp4')\n", 3);
  one_note("cfg.py", "import modelopt.torch.quantization as mtq\n\nQUANT_CFG = mtq.NVFP4_AWQ_LITE_CFG\n", 3);
  one_note("model.yaml", "model_name_or_path: RedHatAI/Qwen3-8B-NVFP4\n", 1);
  CHECK(run_rule("G7", {{"q.py", "# mtq.NVFP4_DEFAULT_CFG in a comment\nQ = 'fp8'\n"}}).findings.empty());
  CHECK(run_rule("G7", {{"q.sh", "python hf_ptq.py --quant_cfg FP8_DEFAULT_CFG\n"}}).findings.empty());
}

TEST_CASE("G7 NVFP4 surfaces in Python: identifiers, not comments or prose", "[G7]") {
  auto build = std::pair<std::string, std::string>{"build.sh", "python setup.py build_ext\n"};
  auto code = run_rule("G7", {build, {"q.py", "import modelopt.torch.quantization as mtq\n"
                                               "cfg = mtq.NVFP4_DEFAULT_CFG\n"
                                               "# mtq.NVFP4_AWQ_LITE_CFG in a comment\n"
                                               "doc = 'use NVFP4_KV_CFG later'\n"}});
  REQUIRE(code.lines("build.sh") == std::vector<int>{1});
  REQUIRE(code.findings[0].related.size() == 1);  // the identifier; not the comment or the prose
  CHECK(code.findings[0].related[0].loc.path == "q.py");
  CHECK(code.findings[0].related[0].loc.range.line == 2);
  auto mx = run_rule("G7", {build, {"serve.sh", "vllm serve openai/gpt-oss-20b\n"}});
  CHECK(mx.findings.empty());
}

TEST_CASE("G7 classify: arch-list spellings from knowledge/arch.yaml", "[G7]") {
  using g7::Arch;
  CHECK(g7::classify("12.1", false) == Arch::Plain);
  CHECK(g7::classify("8.0 9.0 12.1+PTX", false) == Arch::Plain);
  CHECK(g7::classify("-gencode=arch=compute_121,code=sm_121", false) == Arch::Plain);
  CHECK(g7::classify("12.0;12.1a", false) == Arch::Specific);
  CHECK(g7::classify("121a-real", false) == Arch::Specific);
  CHECK(g7::classify("120f", false) == Arch::Specific);
  CHECK(g7::classify("Blackwell", true) == Arch::Plain);
  CHECK(g7::classify("Blackwell", false) == Arch::None);
  CHECK(g7::classify("8.0;9.0", true) == Arch::None);
}

TEST_CASE("G7 nvfp4_word: values, ids, files; not prose, URLs or MXFP4", "[G7]") {
  CHECK(g7::nvfp4_word("--quantization=modelopt_fp4"));
  CHECK(g7::nvfp4_word("nvidia/Qwen3-8B-NVFP4"));
  CHECK(g7::nvfp4_word("nvidia/Llama-3.3-70B-Instruct-FP4"));
  CHECK(g7::nvfp4_word("kernels/nvfp4_gemm.cu"));
  CHECK(g7::nvfp4_word("/models/Qwen3-8B-NVFP4/"));
  CHECK_FALSE(g7::nvfp4_word("see the NVFP4 guide"));
  CHECK_FALSE(g7::nvfp4_word("https://huggingface.co/nvidia/Qwen3-8B-NVFP4"));
  CHECK_FALSE(g7::nvfp4_word("docs/nvfp4.md"));
  CHECK_FALSE(g7::nvfp4_word("openai/gpt-oss-20b"));
  CHECK_FALSE(g7::nvfp4_word("redhat/model-fp4"));
}

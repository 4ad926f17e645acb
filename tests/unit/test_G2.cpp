// SPDX-License-Identifier: Apache-2.0
// G2 sub-checks, one test each (rules/G2-flash-attn-and-unsloth-attention/G2.md "What it catches").
#include <catch2/catch.hpp>

#include "rule_check.h"

using sc::test::MemProject;

TEST_CASE("G2 flash_attn_installs: bare pip warns; x86 marker and NGC images do not", "[G2]") {
  MemProject m{{"a.sh", "pip install flash-attn --no-build-isolation\n"},
               {"requirements.txt", "flash-attn==2.8.3; platform_machine == 'x86_64'\n"},
               {"Dockerfile", "FROM nvcr.io/nvidia/pytorch:25.11-py3\nRUN pip install flash-attn\n"}};
  auto out = m.run("G2");
  CHECK(out.count("a.sh", 1, "flash-attn installed with pip") == 1);
  CHECK(out.count("requirements.txt", 1) == 0);
  CHECK(out.count("Dockerfile", 2) == 0);
}

TEST_CASE("G2 flash_attn_installs: a requirements file installed in an NGC stage", "[G2]") {
  MemProject m{{"Dockerfile",
                "FROM nvcr.io/nvidia/vllm:26.01-py3\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"},
               {"requirements.txt", "flash-attn\n"}};
  CHECK(m.run("G2").count("requirements.txt", 1) == 0);
}

const char* kUnsloth =
    "from unsloth import FastLanguageModel\n"
    "m = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', attn_implementation='sdpa')\n"
    "g = FastLanguageModel.from_pretrained('unsloth/gemma-3-4b-it', attn_implementation='sdpa')\n"
    "q = FastLanguageModel.from_pretrained('unsloth/Qwen3-8B', attn_implementation='sdpa', load_in_8bit=True)\n";

TEST_CASE("G2 dropped_request: sdpa dropped on the FastLlamaModel path only", "[G2]") {
  MemProject m{{"train.py", kUnsloth}};
  auto out = m.run("G2");
  CHECK(out.count("train.py", 2, "is silently dropped") == 1);
  CHECK(out.count("train.py", 3) == 0);  // Gemma 3 routes to FastModel
  CHECK(out.count("train.py", 4) == 0);  // load_in_8bit routes to FastModel
}

TEST_CASE("G2 incomplete_override: _utils flag without the attention_dispatch copy", "[G2]") {
  MemProject m{{"a.py",
                "import unsloth.models._utils as u\nfrom unsloth import FastLanguageModel\n"
                "u.HAS_FLASH_ATTENTION = False\n"},
               {"b.py",
                "import unsloth.models._utils as u\nimport unsloth.utils.attention_dispatch as d\n"
                "from unsloth import FastLanguageModel\nu.HAS_FLASH_ATTENTION = False\nd.HAS_FLASH_ATTENTION = False\n"}};
  auto out = m.run("G2");
  CHECK(out.count("a.py", 3, "incomplete flash-attention override") == 1);
  CHECK(out.count("b.py", 4) == 0);
}

TEST_CASE("G2 llamafactory_unsloth: use_unsloth with flash_attn: sdpa", "[G2]") {
  MemProject m{{"train.yaml", "model_name_or_path: meta-llama/Llama-3.1-8B\nuse_unsloth: true\nflash_attn: sdpa\n"}};
  CHECK(m.run("G2").count("train.yaml", 3, "never reaches Unsloth") == 1);
}

TEST_CASE("G2 fa2_requests: flash_attention_2 requested; not with an NGC image in the project", "[G2]") {
  MemProject bare{{"cfg.yaml", "attn_implementation: flash_attention_2\n"},
                  {"run.py", "from transformers import AutoModel\n"
                             "AutoModel.from_pretrained('x', attn_implementation='flash_attention_2')\n"}};
  auto out = bare.run("G2");
  CHECK(out.count("cfg.yaml", 1, "requests flash-attention") == 1);
  CHECK(out.count("run.py", 2, "requests flash-attention") == 1);
  MemProject ngc{{"cfg.yaml", "attn_implementation: flash_attention_2\n"},
                 {"Dockerfile", "FROM nvcr.io/nvidia/pytorch:25.11-py3\n"}};
  CHECK(ngc.run("G2").findings.empty());
}

TEST_CASE("G2 prebuilt_wheel: an aarch64 flash-attn wheel in the project silences flash-attention requests", "[G2]") {
  MemProject m{{"cfg.yaml", "attn_implementation: flash_attention_2\n"},
               {"setup.sh", "pip install https://example.org/flash_attn-2.8.3-cp312-cp312-linux_aarch64.whl\n"}};
  CHECK(m.run("G2").count("cfg.yaml", 1) == 0);
}

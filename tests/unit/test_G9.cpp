// SPDX-License-Identifier: Apache-2.0
// G9 sub-checks, one test each (rules/G9-unpinned-stack/G9.md "What it catches").
#include <catch2/catch.hpp>

#include "knowledge/knowledge.h"
#include "query/packages.h"
#include "rule_check.h"

using sc::test::MemProject;

TEST_CASE("G9 unsloth_with_deps: unsloth without --no-deps", "[G9]") {
  MemProject m{{"a.sh", "pip install unsloth\n"}, {"b.sh", "pip install --no-deps unsloth unsloth_zoo\n"}};
  auto out = m.run("G9");
  CHECK(out.count("a.sh", 1, "installed with its dependencies") == 1);
  CHECK(out.count("b.sh", 1) == 0);
}

TEST_CASE("G9 replaces_container_torch: -U torch inside NGC; --no-deps is fine", "[G9]") {
  MemProject m{{"Dockerfile",
                "FROM nvcr.io/nvidia/pytorch:25.11-py3\n"
                "RUN pip install -U torch\n"
                "RUN pip install --no-deps vllm\n"
                "RUN pip install transformers\n"}};
  auto out = m.run("G9");
  CHECK(out.count("Dockerfile", 2, "upgraded inside an NGC container") == 1);
  CHECK(out.count("Dockerfile", 3) == 0);
  CHECK(out.count("Dockerfile", 4) == 0);  // not a torch replacer: the container keeps its torch
}

TEST_CASE("G9 core_stack_unpinned: torch stack without an exact pin on bare pip", "[G9]") {
  MemProject m{{"requirements.txt", "transformers\nxformers>=0.0.30\ntorch==2.9.1\ntriton>=3.0\n"}};
  auto out = m.run("G9");
  CHECK(out.count("requirements.txt", 1, "transformers is not pinned on bare pip") == 1);
  CHECK(out.count("requirements.txt", 2, "has only a lower bound on bare pip") == 1);
  CHECK(out.count("requirements.txt", 3) == 0);
  CHECK(out.count("requirements.txt", 4) == 0);  // the exact torch brings its triton; the bound keeps it
}

TEST_CASE("G9 dependent_lower_bound: a torch dependent with only a lower bound", "[G9]") {
  MemProject m{{"requirements.txt", "torch==2.9.1\ntrl>=0.25\npeft>=0.10,<0.20\n"}};
  auto out = m.run("G9");
  CHECK(out.count("requirements.txt", 2, "has only a lower bound: the next release") == 1);
  CHECK(out.count("requirements.txt", 3) == 0);
}

TEST_CASE("G9 dependent_unpinned: a torch dependent while nothing pins torch", "[G9]") {
  MemProject m{{"a.sh", "pip install flashinfer-python\n"},
               {"b.sh", "pip install flashinfer-python --index-url https://download.pytorch.org/whl/cu130\n"},
               {"c.sh", "pip install torch==2.9.1 flashinfer-python\n"}};
  auto out = m.run("G9");
  CHECK(out.count("a.sh", 1, "unpinned and nothing pins torch") == 1);
  CHECK(out.count("b.sh", 1) == 0);
  CHECK(out.count("c.sh", 1, "unpinned and nothing pins torch") == 0);
}

TEST_CASE("query layer: environments, packages_in, pinned, install contexts", "[G9][query]") {
  MemProject m{{"Dockerfile",
                "FROM nvcr.io/nvidia/pytorch:25.11-py3 AS base\n"
                "COPY requirements.txt constraints.txt /tmp/\n"
                "RUN pip install -r /tmp/requirements.txt -c /tmp/constraints.txt\n"
                "FROM base\nRUN pip install --no-deps unsloth\n"},
               {"requirements.txt", "trl\nflash-attn; platform_machine == 'x86_64'\n"},
               {"constraints.txt", "trl==0.26.1\n"}};
  const auto& envs = sc::query::environments(m.p);
  REQUIRE(envs.size() == 2);  // stage 0, and stage 1 with the runs of stage 0
  CHECK(envs[0].runs.size() == 1);
  CHECK(envs[1].runs.size() == 2);
  auto pkgs = sc::query::packages_in(envs[0]);
  REQUIRE(pkgs.size() == 1);  // flash-attn is x86_64 only
  CHECK(pkgs[0].req->name == "trl");
  CHECK(sc::query::pinned(m.p, *pkgs[0].run, "trl"));
  CHECK_FALSE(sc::query::pinned(m.p, *pkgs[0].run, "torch"));
  CHECK(sc::query::ngc_image(envs[1]) != nullptr);
  auto ctx = sc::query::where_installed(m.p, *m.p.files[1]);
  REQUIRE(ctx.size() == 1);  // the installing stage only, not the stage built on it
  CHECK(ctx[0].stage == 0);
  CHECK(ctx[0].via.range.line == 3);
  auto cctx = sc::query::where_installed(m.p, *m.p.files[2]);  // -c on the command line
  REQUIRE(cctx.size() == 1);
  CHECK(cctx[0].dockerfile == m.p.files[0].get());
  CHECK(sc::query::has_role("trl", "depends-on-torch"));
  CHECK_FALSE(sc::query::has_role("trl", "core-stack"));
}

TEST_CASE("G9 exact_pin: VCS branches move, commits and version tags do not", "[G9]") {
  auto req = [](const std::string& url) {
    sc::Requirement r;
    r.name = "transformers";
    r.url = url;
    return r;
  };
  CHECK_FALSE(sc::exact_pin(req("git+https://github.com/h/t.git@main")));
  CHECK_FALSE(sc::exact_pin(req("git+https://github.com/h/t.git")));
  CHECK_FALSE(sc::exact_pin(req("git+ssh://git@github.com/h/t.git")));
  CHECK(sc::exact_pin(req("git+https://github.com/h/t.git@0123456789abcdef0123456789abcdef01234567")));
  CHECK(sc::exact_pin(req("git+https://github.com/h/t.git@v4.57.1#egg=transformers")));
  CHECK(sc::exact_pin(req("https://example.org/t-4.57.1-py3-none-any.whl")));
}

TEST_CASE("G9 knowledge: torch stack and exact torch pinners are tables", "[G9]") {
  CHECK(sc::knowledge::in("torch-stack", "peft"));
  CHECK_FALSE(sc::knowledge::in("torch-stack", "diffusers"));
  CHECK(sc::knowledge::in("pins-torch-exactly", "vllm"));
  CHECK_FALSE(sc::knowledge::in("pins-torch-exactly", "liger-kernel"));
}

TEST_CASE("G1/G9 other platforms by path segment", "[G9]") {
  sc::Project p;
  CHECK(sc::query::other_platform(p, "requirements/npu.txt"));
  CHECK(sc::query::other_platform(p, "docker/rocm/Dockerfile.rocm7"));
  CHECK(sc::query::other_platform(p, "requirements-windows.txt"));
  CHECK_FALSE(sc::query::other_platform(p, "requirements/input.txt"));   // "npu" inside a word
  CHECK_FALSE(sc::query::other_platform(p, "docker/Dockerfile.cuda"));
  // the folder the user named is not read: only the path below it
  p.top = "clones/HybridCluster_Spark_Mac";
  CHECK_FALSE(sc::query::other_platform(p, "clones/HybridCluster_Spark_Mac/DGX_Spark/requirements.txt"));
  CHECK(sc::query::other_platform(p, "clones/HybridCluster_Spark_Mac/Mac_Studio/requirements.txt"));
  CHECK(sc::query::other_platform(p, "clones/HybridCluster_Spark_Mac_2/requirements.txt"));  // not below top
}

TEST_CASE("query::other_platform_section: the nearest heading naming a platform decides", "[G9][query]") {
  MemProject m{{"INSTALL.md",
                "# Install\n"                           // 1
                "## AMD ROCm (MI355X)\n"                // 2
                "### Docker\n"                          // 3
                "text\n"                                // 4
                "## DGX Spark\n"                        // 5
                "text\n"                                // 6
                "## Linux or macOS\n"                   // 7
                "text\n"                                // 8
                "## Windows\n"                          // 9
                "### Notes on x86_64 and aarch64\n"     // 10
                "text\n"                                // 11
                "## amdgpu-style words: Hipster\n"      // 12
                "text\n"}};                             // 13
  const sc::FileFacts& f = *m.p.find("INSTALL.md")->facts;
  CHECK_FALSE(sc::query::other_platform_section(f, 1));
  CHECK(sc::query::other_platform_section(f, 3));
  CHECK(sc::query::other_platform_section(f, 4));
  CHECK_FALSE(sc::query::other_platform_section(f, 6));
  CHECK_FALSE(sc::query::other_platform_section(f, 8));   // names the Spark's Linux too
  CHECK_FALSE(sc::query::other_platform_section(f, 11));  // the nearer heading names aarch64
  CHECK_FALSE(sc::query::other_platform_section(f, 13));  // whole words only
}

TEST_CASE("query::other_platform_section: an all-bold paragraph labels like a heading", "[G9][query]") {
  MemProject m{{"BUILD.md",
                "## Build\n"                 // 1
                "\n"                         // 2
                "**x86 build:**\n"           // 3
                "\n"                         // 4
                "text\n"                     // 5
                "\n"                         // 6
                "**GB10 (aarch64) build**\n" // 7
                "\n"                         // 8
                "text\n"                     // 9
                "## Run\n"                   // 10
                "Some **x86** words.\n"      // 11: bold inside prose is no label
                "\n"                         // 12
                "text\n"}};                  // 13
  const sc::FileFacts& f = *m.p.find("BUILD.md")->facts;
  CHECK(sc::query::other_platform_section(f, 5));
  CHECK_FALSE(sc::query::other_platform_section(f, 9));
  CHECK_FALSE(sc::query::other_platform_section(f, 13));
}

TEST_CASE("query::copied_page: an address and a retrieval in the front matter", "[G9][query]") {
  MemProject m{{"copy.md", "---\ntitle: A recipe\nurl: https://docs.example.org/r\nretrieved: 2026-06-06\n---\ntext\n"},
               {"own.md", "---\ntitle: Ours\nurl: https://example.org/ours\ncreated: 2026-06-06\n---\ntext\n"},
               {"local.md", "---\nsource: notes/a.md\nfetched_by: me\n---\ntext\n"},
               {"open.md", "---\nurl: https://docs.example.org/r\nretrieved: 2026-06-06\ntext\n"},
               {"toml.md", "+++\nsource_url = \"https://a.example/b\"\nclipped = 2026-01-01\n+++\ntext\n"}};
  auto copied = [&](const char* path) { return sc::query::copied_page(*m.p.find(path)->facts); };
  CHECK(copied("copy.md"));
  CHECK_FALSE(copied("own.md"));    // created: is not a retrieval
  CHECK_FALSE(copied("local.md"));  // the address is no http(s) URL
  CHECK_FALSE(copied("open.md"));   // never closed: no front matter
  CHECK(copied("toml.md"));
}

TEST_CASE("G9 replaces_earlier_torch: torch already installed in the environment", "[G9]") {
  MemProject m{{"Dockerfile",
                "FROM ubuntu:24.04\n"
                "RUN pip install torch==2.9.1+cu130 --index-url https://download.pytorch.org/whl/cu130\n"
                "RUN pip install peft\n"
                "RUN pip install vllm\n"
                "RUN pip install --no-deps xformers==0.0.33 sglang\n"},
               {"environment.yml", "name: x\ndependencies:\n  - pytorch=2.5.1\n  - pytorch-cuda=12.4\n  - pip:\n"
                                   "    - peft\n    - torchvision\n"},
               {"later.sh", "pip install peft\npip install torch==2.9.1+cu130\n"}};
  auto out = m.run("G9");
  CHECK(out.count("Dockerfile", 3) == 0);  // needs torch>=X: pip keeps the installed torch
  REQUIRE(out.count("Dockerfile", 4, "replaces the torch installed earlier (torch==2.9.1+cu130)") == 1);
  for (const auto& f : out.findings)
    if (f.loc.path == "Dockerfile" && f.loc.range.line == 4) CHECK(f.related.back().loc.range.line == 2);
  CHECK(out.count("Dockerfile", 5) == 0);  // --no-deps: nothing re-resolves
  CHECK(out.count("environment.yml", 6) == 0);
  CHECK(out.count("environment.yml", 7, "replaces the torch installed earlier (pytorch=2.5.1)") == 1);
  CHECK(out.count("later.sh", 1) == 0);  // the exact CUDA torch installed after it is what stays
}

TEST_CASE("G9 other platforms: a stage on a ROCm or Ascend image", "[G9]") {
  MemProject m{{"Dockerfile.amd", "FROM rocm/vllm:latest\nRUN pip install transformers vllm\n"},
               {"Dockerfile", "FROM ubuntu:24.04\nRUN pip install transformers\n"}};
  auto out = m.run("G9");
  CHECK(out.lines("Dockerfile.amd").empty());
  CHECK(out.count("Dockerfile", 2, "not pinned") == 1);
}

// G9 sub-checks, one test each (rules/G9-unpinned-stack/G9.md "What it catches").
#include <catch2/catch.hpp>

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
  MemProject m{{"requirements.txt", "transformers\ntriton>=3.0\ntorch==2.9.1\n"}};
  auto out = m.run("G9");
  CHECK(out.count("requirements.txt", 1, "transformers is not pinned on bare pip") == 1);
  CHECK(out.count("requirements.txt", 2, "has only a lower bound on bare pip") == 1);
  CHECK(out.count("requirements.txt", 3) == 0);
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

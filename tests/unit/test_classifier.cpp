// SPDX-License-Identifier: Apache-2.0
// One classifier (the registered parsers' accepts) decides each file's kind; the
// pre-commit hook's `files:` regex must pass every file it reads.
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/registry.h"

namespace {

std::string hook_files_regex() {
  std::ifstream in(std::string(SC_SOURCE_DIR) + "/.pre-commit-hooks.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t k = text.find("files: &sparkcheck_files '");
  REQUIRE(k != std::string::npos);
  k = text.find('\'', k) + 1;
  return text.substr(k, text.find('\'', k) - k);
}

const sc::Parser* classify(const std::string& path, std::string_view head = {}) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  return sc::parser_for(sc::FileInfo{path, name, head});
}

}  // namespace

TEST_CASE("the pre-commit hook passes every file the classifier reads", "[classifier]") {
  RE2 hook(hook_files_regex());
  REQUIRE(hook.ok());
  const char* read[] = {
      "requirements.txt", "requirements/base.txt", "reqs/dev-requirements.txt", "constraints.txt",
      "requirements-dev.in", "scripts/train.sbatch", "run.slurm", "setup.sh", "env.zsh", "Dockerfile",
      "docker/Dockerfile-cuda", "Dockerfile.arm64", "Dockerfile_DGX_Spark", "app.Dockerfile", "Containerfile",
      "README.md", "docs/guide.mdx", "notes.markdown", "compose.yaml", "docker-compose.yml",
      ".github/workflows/x.yml", ".gitlab-ci.yml", "Makefile", "kernels/GNUmakefile", "rules.mk",
      "CMakeLists.txt", "cmake/cuda.cmake", "pyproject.toml", "uv.lock", "environment.yml", "train.py",
      "nb.ipynb", "config.json", "k8s/deploy.yaml", "sky.yaml", ".sparkcheck.yaml"};
  for (const char* p : read) {
    INFO(p);
    CHECK(classify(p) != nullptr);
    CHECK(RE2::PartialMatch(p, hook));
  }
}

TEST_CASE("shebang scripts: the hook passes names without a dot, the classifier sniffs them", "[classifier]") {
  RE2 hook(hook_files_regex());
  for (const char* p : {"scripts/train", "bin/launch"}) {
    INFO(p);
    CHECK(RE2::PartialMatch(p, hook));
    CHECK(classify(p) == nullptr);  // by name alone: not read
    CHECK(classify(p, "#!/usr/bin/env bash\n") != nullptr);
    CHECK(classify(p, "#!/usr/bin/env python3\n") != nullptr);
  }
}

TEST_CASE("files neither the hook nor the classifier takes", "[classifier]") {
  RE2 hook(hook_files_regex());
  for (const char* p : {"src/kernel.cu", "main.cpp", "docs/index.rst", "LICENSE.txt", "notes.txt", "logo.png"}) {
    INFO(p);
    CHECK(classify(p) == nullptr);
    CHECK_FALSE(RE2::PartialMatch(p, hook));
  }
}

TEST_CASE("*.in: pip-compile inputs, not templates", "[classifier]") {
  for (const char* p : {"requirements.in", "dev.in", "requirements/base.in"}) {
    INFO(p);
    REQUIRE(classify(p) != nullptr);
    CHECK(classify(p)->kind() == sc::FileKind::Requirements);
  }
  for (const char* p : {"kernels/fa.ptx.in", "config.h.in", "MANIFEST.in", "Makefile.in", "docs/Doxyfile.in",
                        "setup.cfg.in"}) {
    INFO(p);
    CHECK((classify(p) == nullptr || classify(p)->kind() != sc::FileKind::Requirements));
  }
}

TEST_CASE("file kinds by name", "[classifier]") {
  CHECK(classify("Makefile")->kind() == sc::FileKind::Makefile);
  CHECK(classify("CMakeLists.txt")->kind() == sc::FileKind::CMake);
  CHECK(classify("requirements/base.txt")->kind() == sc::FileKind::Requirements);
  CHECK(classify("x.sbatch")->kind() == sc::FileKind::Shell);
  CHECK(classify("Dockerfile-cuda")->kind() == sc::FileKind::Dockerfile);
}

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: every parser must survive any input (no crash, hang or UB).
// Built two ways: with clang's libFuzzer (fuzz/build.sh), and linked into a
// deterministic mutation driver (fuzz_smoke.cpp) that ctest runs under g++.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "core/registry.h"
#include "core/source.h"

namespace {
// One representative file path per parser kind; the first input byte picks one (the
// workflow parser goes by the directory too). Append new kinds: seeds keep their byte.
const char* const kNames[] = {"Dockerfile",   "requirements.txt",   "pyproject.toml", "environment.yml",
                              "uv.lock",      "config.yaml",        "ds_config.json", "train.toml",
                              "train.py",     "launch.sh",          "notebook.ipynb", "poetry.lock",
                              "README.md",    "docker-compose.yml", ".github/workflows/ci.yml",
                              "Makefile",     "CMakeLists.txt",     ".gitlab-ci.yml"};
}  // namespace

// How many kinds byte 0 picks from (fuzz_smoke.cpp runs each seed as every kind).
extern "C" size_t sparkcheck_fuzz_parser_kinds() { return sizeof kNames / sizeof kNames[0]; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string path = kNames[data[0] % (sizeof kNames / sizeof kNames[0])];
  const std::string name = path.substr(path.rfind('/') + 1);
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (!sc::valid_utf8(text)) return 0;  // the engine rejects non-UTF-8 before parsing
  sc::FileInfo info{path, name, text};
  const sc::Parser* p = sc::parser_for(info);
  if (!p) return 0;
  sc::SourceFile src(path, text);
  sc::FileFacts facts;
  sc::ParseDiag diag;
  if (data[0] / (sizeof kNames / sizeof kNames[0]) % 2)  // a Python file parsed around odd lines
    diag.python_lines = [](std::string_view t) {
      std::vector<int> odd;
      for (int l = 1, n = static_cast<int>(std::count(t.begin(), t.end(), '\n')) + 1; l <= n; l += 2) odd.push_back(l);
      return odd;
    };
  try {
    p->parse(src, facts, diag);
    for (sc::PostParsePass pass : sc::post_parse_passes()) pass(facts);
  } catch (const std::bad_alloc&) {
    throw;  // runaway memory is a bug, not a parse error
  } catch (...) {
    // parsers report problems through ParseDiag; the engine also guards
  }
  return 0;
}

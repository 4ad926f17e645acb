// Fuzz target: every parser must survive any input (no crash, hang or UB).
// Built two ways: with clang's libFuzzer (fuzz/build.sh), and linked into a
// deterministic mutation driver (fuzz_smoke.cpp) that ctest runs under g++.
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include "core/registry.h"
#include "core/source.h"

namespace {
// One representative file name per parser kind; the first input byte picks one.
const char* const kNames[] = {"Dockerfile", "requirements.txt", "pyproject.toml", "environment.yml",
                              "uv.lock",    "config.yaml",      "ds_config.json", "train.toml",
                              "train.py",   "launch.sh",        "notebook.ipynb", "poetry.lock"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const char* name = kNames[data[0] % (sizeof kNames / sizeof kNames[0])];
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (!sc::valid_utf8(text)) return 0;  // the engine rejects non-UTF-8 before parsing
  sc::FileInfo info{name, name, text};
  const sc::Parser* p = sc::parser_for(info);
  if (!p) return 0;
  sc::SourceFile src(name, text);
  sc::FileFacts facts;
  sc::ParseDiag diag;
  try {
    p->parse(src, facts, diag);
  } catch (const std::bad_alloc&) {
    throw;  // runaway memory is a bug, not a parse error
  } catch (...) {
    // parsers report problems through ParseDiag; the engine also guards
  }
  return 0;
}

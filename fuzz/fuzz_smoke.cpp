// SPDX-License-Identifier: Apache-2.0
// Deterministic fuzz smoke test for CI (no clang needed): mutates every file of a
// directory with a fixed-seed PRNG and feeds the results to one fuzz target's entry point
// (linked in: fuzz_parsers.cpp for fuzz_smoke, fuzz_T.cpp for fuzz_smoke_T).
// Usage: fuzz_smoke DIR [ITERATIONS_PER_FILE]
// With fuzz_parsers (the fixtures as DIR), each mutant is fed once per file kind (a kind
// byte in front); other targets get the mutants of their seeds (fuzz/corpus/T) as they are.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
extern "C" size_t sparkcheck_fuzz_parser_kinds() __attribute__((weak));

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fuzz_smoke FIXTURE_DIR [ITERATIONS]\n";
    return 2;
  }
  int iters = argc > 2 ? std::atoi(argv[2]) : 40;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  const size_t kinds = sparkcheck_fuzz_parser_kinds ? sparkcheck_fuzz_parser_kinds() : 0;
  std::mt19937_64 rng(20261130);
  std::vector<std::string> seeds;
  for (auto& e : fs::recursive_directory_iterator(argv[1])) {
    if (!e.is_regular_file() || e.file_size() > 200000) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    seeds.push_back(ss.str());
  }
  static const char* tokens[] = {"\\\n", "\"", "'", "[", "]", "{", "}", ":", "\n", "<<EOF\n", "${", "$(", "#", "=",
                                 "- ", "  ", "\t", "==", "+cu124", ";", ",", "\xc3\xa9"};
  size_t runs = 0;
  const bool trace = std::getenv("SC_FUZZ_TRACE") != nullptr;
  for (size_t s = 0; s < seeds.size(); ++s) {
    for (int i = 0; i < iters; ++i) {
      std::string t = seeds[s];
      int muts = 1 + static_cast<int>(rng() % 8);
      for (int m = 0; m < muts && !t.empty(); ++m) {
        size_t pos = rng() % (t.size() + 1);
        switch (rng() % 4) {
          case 0: t.insert(pos, tokens[rng() % (sizeof tokens / sizeof *tokens)]); break;
          case 1: t.erase(pos, rng() % 16); break;
          case 2: t = t.substr(0, pos); break;  // truncate
          default: t.insert(pos, t.substr(rng() % t.size(), rng() % 64)); break;
        }
      }
      for (size_t k = 0; k < std::max<size_t>(kinds, 1); ++k) {
        if (trace) std::cerr << "seed " << s << " iter " << i << " kind " << k << "\n";
        std::string in = kinds ? std::string(1, static_cast<char>(k)) : std::string();
        in += t;
        if (trace) std::ofstream("fuzz-last-input.bin", std::ios::binary) << in;
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(in.data()), in.size());
        ++runs;
      }
    }
  }
  std::cout << "fuzz_smoke: " << runs << " runs over " << seeds.size() << " seed files, no crash\n";
  return 0;
}

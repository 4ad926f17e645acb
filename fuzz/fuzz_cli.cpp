// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the command line (linter/cli/main.cpp, built with SPARKCHECK_CLI_FUZZ: its
// main() is replaced by sparkcheck_fuzz_command_line, which parses argv and checks the
// arguments of `lint` and `probe` without running any command). The input is argv[1..],
// split at NUL bytes. Nothing may crash, hang or let an exception out (CLI11's ParseError
// is turned into an exit status); what CLI11 prints goes nowhere.
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

int sparkcheck_fuzz_command_line(int argc, char** argv);

namespace {
struct NullBuf : std::streambuf {
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"sparkcheck"};
  std::string cur;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(data[i]));
    }
  }
  if (size) args.push_back(cur);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  static NullBuf null;
  std::streambuf* out = std::cout.rdbuf(&null);
  std::streambuf* err = std::cerr.rdbuf(&null);
  (void)sparkcheck_fuzz_command_line(static_cast<int>(args.size()), argv.data());
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  return 0;
}

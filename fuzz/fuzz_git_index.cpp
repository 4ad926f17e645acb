// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the .git/index reader (core/git_index.h). The index is untrusted input (a
// repository's .git comes with it): parse_git_index returns false on anything malformed
// and must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/git_index.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  sc::TrackedPaths out;
  (void)sc::parse_git_index(bytes, out);
  for (const std::string& f : out.files) (void)out.has(f, false);
  return 0;
}

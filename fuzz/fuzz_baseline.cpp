// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the baseline loader (--baseline FILE, JSON). It reports bad
// input through its error string and must never throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/baseline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  sc::Baseline b;
  std::string error;
  (void)sc::parse_baseline(text, "baseline.json", b, error);
  return 0;
}

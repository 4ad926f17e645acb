// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the configuration loader (.sparkcheck.yaml, [tool.sparkcheck]).
// The first byte picks the file name (YAML or TOML syntax); the rest is its text.
// A bad configuration must end in ConfigError; any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config.h"

namespace {
const char* const kNames[] = {".sparkcheck.yaml", ".sparkcheck.yml", "pyproject.toml"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const char* name = kNames[data[0] % (sizeof kNames / sizeof kNames[0])];
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    sc::Config c = sc::parse_config(text, name);
    sc::LintOptions opt;
    sc::apply_config(c, opt);
    (void)sc::render_config_text(c);
    (void)sc::render_config_json(c);
  } catch (const sc::ConfigError&) {
    // the documented failure: the message names the file and line
  }
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the .git/config reader (core/git_config.h). Byte 0 picks the key looked up,
// the rest is the config text; git_config_value must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/git_config.h"

namespace {
const std::pair<const char*, const char*> kKeys[] = {
    {"core", "excludesFile"}, {"core", "excludesfile"}, {"CORE", "EXCLUDESFILE"}, {"core", "fsmonitor"},
    {"user", "name"},         {"remote", "url"},        {"include", "path"},      {"", ""},
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto& [section, key] = kKeys[data[0] % (sizeof kKeys / sizeof kKeys[0])];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)sc::git_config_value(text, section, key);
  return 0;
}

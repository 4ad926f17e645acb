// SPDX-License-Identifier: Apache-2.0
// Dockerfiles parsed with build args given from outside (a compose service's
// `build.args`), which override the Dockerfile's ARG defaults.
#pragma once
#include <map>
#include <string>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// A build arg's value and where it is written (the compose `args:` entry).
struct BuildArgValue {
  std::string value;
  Location loc;
};

// Parse `src` as a Dockerfile whose ARGs named in `args` take those values. Facts whose
// value comes from such an arg are placed where the arg is written, with an Expansion
// naming the Dockerfile place that uses it; the overridden ARGs themselves give no
// EnvSetting (the compose file holds them).
void parse_dockerfile(const SourceFile& src, const std::map<std::string, BuildArgValue>& args, FileFacts& out,
                      ParseDiag& diag);

}  // namespace sc

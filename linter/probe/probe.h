// SPDX-License-Identifier: Apache-2.0
// `sparkcheck probe`: runtime checks of the live machine, reported under the rule ids they register.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace sc {

struct ProbeOptions {
  std::vector<std::string> checks;      // "G3","G5"...; empty = default set
  std::string format = "text";          // text | json | sarif
  std::string output;                   // file, empty = stdout
  std::string python;                   // --python PATH, empty = $VIRTUAL_ENV/bin/python else python3
  double need_gb = 0;                   // --need-gb
  double sample_seconds = 2;            // --sample-seconds
  bool intrusive = false, force = false;
  std::vector<std::string> configs;     // --config FILE... (linted with G10)
  std::string root_fs = "/";            // for tests: fake /proc, /sys, /etc root
};

// Exit code: 1 if any check FAILs, else 0; 2 on usage error.
int run_probe(const ProbeOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace sc

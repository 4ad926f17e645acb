// SPDX-License-Identifier: Apache-2.0
// Runs a program with pipes (posix_spawn, never a shell) under a time limit.
#pragma once
#include <string>
#include <vector>

namespace sc::probe {

struct SpawnResult {
  bool started = false;
  std::string error;       // why it did not start
  bool timed_out = false;  // killed (with its process group) at the limit
  int exit_code = -1;      // -1 when killed by a signal
  std::string out, err;
};

// argv[0] is looked up on PATH when it has no '/'. cwd empty: inherit.
SpawnResult spawn_capture(const std::vector<std::string>& argv, const std::string& cwd,
                          double timeout_s, size_t max_bytes = 8u << 20);

}  // namespace sc::probe

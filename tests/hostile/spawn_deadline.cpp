// SPDX-License-Identifier: Apache-2.0
// Row 11: a child that closes stdout/stderr and keeps running must not hold the
// probe past its deadline: spawn_capture kills its process group.
#include <chrono>
#include <cstdio>

#include "probe/spawn.h"

int main() {
  auto t0 = std::chrono::steady_clock::now();
  auto r = sc::probe::spawn_capture({"sh", "-c", "exec >&- 2>&-; sleep 30"}, "", 1.0, 1 << 20);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("started=%d timed_out=%d after %.2f s\n", r.started, r.timed_out, s);
  return r.started && r.timed_out && s < 5 ? 0 : 1;
}

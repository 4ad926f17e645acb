// SPDX-License-Identifier: Apache-2.0
// Reading a file named by configuration or on the command line (a config, a
// baseline) without trusting it: only a regular file is read (a FIFO, device or
// /dev/zero is refused before any read blocks), and never more than a bound.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <string>

namespace sc {

constexpr size_t kMaxSideFileBytes = 64u << 20;  // 64 MB: configs and baselines

// Reads `path` into `text`. On failure returns false with `error` saying why
// ("not a regular file (a FIFO)", "over the 64 MB limit", strerror text).
bool read_regular_file(const std::string& path, std::string& text, std::string& error,
                       size_t max_bytes = kMaxSideFileBytes, bool follow_links = true);

// "a FIFO (named pipe)", "a socket", "a device", "a directory": for messages.
const char* file_kind_name(mode_t mode);

}  // namespace sc

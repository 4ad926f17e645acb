// SPDX-License-Identifier: Apache-2.0
// What the client says about itself and what it reports: the server's options (from
// initializationOptions or workspace/didChangeConfiguration), and the file watchers the
// server asks for (workspace/didChangeWatchedFiles) so that files changed outside the
// editor (a `git checkout`, a generated requirements file) are linted again.
#pragma once
#include <string>
#include <vector>

#include "server/jsonrpc.h"

namespace sc::lsp {

struct ServerOptions {
  // Quiet time after the last edit before a lint; 0: lint as soon as no input is waiting.
  int debounce_ms = 150;
  static constexpr int kMaxDebounceMs = 5000;
};

// Reads `{"debounceMs": N}` from `j` (other keys and types ignored; N clamped to
// 0..kMaxDebounceMs). Takes the object itself or `{"sparkcheck": {...}}` (settings).
void read_options(const json& j, ServerOptions& o);

// LSP glob patterns of the files sparkcheck reads by name, and of what changes a lint
// (configuration, ignore files). Scripts recognised only by their `#!` line are not named.
const std::vector<std::string>& watch_globs();

// Whether the client takes a dynamic registration for workspace/didChangeWatchedFiles.
bool can_watch(const json& client_capabilities);

// The params of the client/registerCapability request for the watchers.
json watcher_registration();

// The absolute paths named in a didChangeWatchedFiles notification (non-file URIs skipped).
std::vector<std::string> changed_paths(const json& params);

}  // namespace sc::lsp

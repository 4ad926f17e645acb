// SPDX-License-Identifier: Apache-2.0
// `sparkcheck server`: a language server (LSP 3.17 over stdio). It keeps the open
// buffers, re-lints the workspace with them laid over the files on disk after each
// burst of changes, and republishes the diagnostics of every file whose findings changed.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "server/jsonrpc.h"

namespace sc::lsp {

// Runs the server on the two file descriptors until `exit` or end of input.
// Returns the process exit status: 0 after shutdown+exit, 1 otherwise (as LSP asks).
int serve(int in_fd, int out_fd);

// One lint of a workspace root (or a lone file outside every root).
struct Workspace {
  std::string root;      // absolute directory
  std::string only_file; // set: lint just this file (an open file outside every root)
  LintResult result;
  std::string config_error;  // a bad .sparkcheck.yaml: linted with defaults
  // the files parsed by the last lint of this workspace, reused where unchanged
  std::shared_ptr<ParseCache> parsed = std::make_shared<ParseCache>();
};

// Lints `ws.root` with the buffers in `overlays` (absolute path -> text) in place of the disk.
void lint_workspace(Workspace& ws, const std::map<std::string, std::string>& overlays);

}  // namespace sc::lsp

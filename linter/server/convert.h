// SPDX-License-Identifier: Apache-2.0
// sparkcheck findings as LSP objects: diagnostics, code actions, hover text.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/project.h"
#include "core/diagnostics.h"
#include "server/jsonrpc.h"
#include "server/lsp_text.h"

namespace sc::lsp {

// Absolute path <-> display path of a project (display paths are relative to its root).
std::string abs_path(const Project& p, const std::string& display);
std::string uri_of(const Project& p, const std::string& display);

// The LSP range of `loc` (converted with the text of its file when the project has it).
json lsp_range(const Project& p, const Location& loc);
json to_diagnostic(const Project& p, const Finding& f);
json to_diagnostic(const Project& p, const Notification& n);

// Quick fixes for one finding: its `fixes`, then the suppression comment where its file
// kind can hold one. `diag` is the diagnostic the actions resolve.
std::vector<json> code_actions(const Project& p, const Finding& f, const json& diag);

// The `# sparkcheck: ignore[ID] -- reason` line to insert above the finding, as an LSP
// TextEdit, or nothing when the file cannot hold such a comment there.
std::optional<json> suppression_edit(const ParsedFile& pf, const Finding& f);

// For an `unused-suppression` finding: the edit that removes the unused id from its comment,
// or the whole comment when it names nothing else (the line too when the comment stands alone).
std::optional<json> removal_edit(const ParsedFile& pf, const Finding& f);

// Markdown for a hover over `f`: the finding, then its rule's documentation.
std::string hover_markdown(const Finding& f, bool with_doc);

}  // namespace sc::lsp

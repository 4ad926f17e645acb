// SPDX-License-Identifier: Apache-2.0
// Generic config trees: YAML (yaml-cpp), JSON (tree-sitter-json), TOML (toml++)
// flattened to ConfigEntry lists with exact key and value locations.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// yaml-cpp 0.7 loops forever (allocating without bound) on a stray ',' at block
// level (", a", "--- ,", "{}, x"). Returns false, with the 1-based line in *line,
// for such text; call it before any YAML::Load*. Also false (with the reason in
// *why) for alias bombs, self-referencing aliases and nesting past the bounds.
bool yaml_safe_for_yaml_cpp(const std::string& text, int* line, std::string* why = nullptr);

void yaml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);
void json_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);
// A JSON string's body as json_entries reads it into keys and values (\b \f \r \/ give the
// character after the backslash, \uXXXX gives '?'). On the text of a whole valid JSON file it
// decodes every string alike (outside strings valid JSON has no backslash).
std::string json_unescape(std::string_view body);
void toml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);
// INI-style text (a Markdown ```ini block): config entries, and for systemd units the
// Environment= settings and ExecStart= command lines (see config_ini.cpp).
void ini_entries(const SourceFile& src, FileFacts& out, ParseDiag& diag);

// SkyPilot tasks and Kubernetes manifests among plain YAML files (recognised by content):
// their shell blocks, container commands and images become Command and Image facts.
void yaml_workloads(const SourceFile& src, FileFacts& out, ParseDiag& diag);

}  // namespace sc

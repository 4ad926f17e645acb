// Generic config trees: YAML (yaml-cpp), JSON (tree-sitter-json), TOML (toml++)
// flattened to ConfigEntry lists with exact key and value locations.
#pragma once
#include <vector>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

void yaml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);
void json_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);
void toml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag);

}  // namespace sc

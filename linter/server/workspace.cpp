// SPDX-License-Identifier: Apache-2.0
// One lint of a workspace folder with the editor's buffers laid over the disk.
#include <filesystem>

#include "config/config.h"
#include "engine/baseline.h"
#include "engine/facts_cache.h"
#include "server/server.h"

namespace sc::lsp {
namespace {

// The configuration for `ws` (an open, unsaved .sparkcheck.yaml counts); throws ConfigError.
Config workspace_config(const Workspace& ws, const std::map<std::string, std::string>& overlays) {
  std::string file = find_config(ws.only_file.empty() ? ws.root : ws.only_file);
  if (file.empty()) {
    Config c;
    c.base_dir = ws.root;
    return c;
  }
  auto open = overlays.find(file);
  return open == overlays.end() ? load_config(file, true) : parse_config(open->second, file, true);
}

void apply_baseline_file(const Config& cfg, LintOptions& opt, std::string& error) {
  if (cfg.baseline.value.empty()) return;
  Baseline bl;
  if (!load_baseline(cfg.baseline.value, bl, error)) return;
  opt.baseline = std::move(bl.fingerprints);
  opt.baseline_base = std::filesystem::path(cfg.baseline.value).parent_path().generic_string();
}

}  // namespace

void lint_workspace(Workspace& ws, const std::map<std::string, std::string>& overlays) {
  LintOptions opt;
  ws.config_error.clear();
  try {
    Config cfg = workspace_config(ws, overlays);
    apply_config(cfg, opt);
    apply_baseline_file(cfg, opt, ws.config_error);
  } catch (const ConfigError& e) {
    ws.config_error = e.what();
    opt = LintOptions();
  } catch (const std::exception& e) {  // a parser's own failure on hostile bytes
    ws.config_error = std::string("cannot read the configuration: ") + e.what();
    opt = LintOptions();
  }
  opt.paths = {ws.only_file.empty() ? ws.root : ws.only_file};
  opt.root = ws.root;
  opt.overlays = overlays;
  opt.reuse = ws.parsed.get();
  // The first lint starts from the CLI's facts cache where one exists (read only).
  if (ws.parsed->entries.empty() && !cache_off_by_env()) seed_from_disk_cache(opt, ws.root, *ws.parsed);
  ws.result = run_lint(opt);
}

}  // namespace sc::lsp

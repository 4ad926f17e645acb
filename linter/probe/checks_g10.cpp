// SPDX-License-Identifier: Apache-2.0
// G10: rendezvous environment, and --config files linted with the G10 rule.
#include <cstdlib>

#include "engine/engine.h"
#include "probe/checks.h"

namespace sc::probe {

CheckResult check_g10(Context& c) {
  CheckResult r{"G10"};
  const auto& env = c.env();
  std::map<std::string, std::string> seen;
  for (auto k : {"WORLD_SIZE", "LOCAL_WORLD_SIZE", "NNODES", "PET_NNODES", "NODE_RANK", "GROUP_RANK", "SLURM_NNODES",
                 "SLURM_JOB_NUM_NODES", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MASTER_ADDR", "MASTER_PORT"})
    if (env.count(k)) seen[k] = env.at(k);
  r.readings["environment"] = seen;
  int nodes = 0;
  for (auto k : {"NNODES", "PET_NNODES", "SLURM_NNODES", "SLURM_JOB_NUM_NODES"})
    if (seen.count(k) && lead_int(seen[k]) > 0) {
      nodes = lead_int(seen[k]);
      break;
    }
  auto world_local = [&](const char* w, const char* l) {
    if (nodes == 0 && seen.count(w) && seen.count(l)) {
      int ws = lead_int(seen[w]), ls = lead_int(seen[l]);
      if (ws > 0 && ls > 0) nodes = (ws + ls - 1) / ls;
    }
  };
  world_local("WORLD_SIZE", "LOCAL_WORLD_SIZE");
  world_local("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE");
  r.readings["nodes"] = nodes;
  std::vector<std::string> kv;
  for (auto& [k, v] : seen) kv.push_back(k + "=" + v);
  std::string envs = seen.empty() ? "no rendezvous variables (WORLD_SIZE, NNODES, LOCAL_WORLD_SIZE...) set"
                                  : "rendezvous " + join(kv, " ") + (nodes > 0 ? " (" + std::to_string(nodes) + " node" + (nodes == 1 ? ")" : "s)") : "");
  if (c.opt.configs.empty()) {
    r.verdict = Verdict::Info;
    r.message = envs + (nodes > 1 ? "; across Sparks train with DDP/FSDP, not tensor parallelism" : "") +
                "; pass --config FILE to lint a launch config for TP across nodes";
    return r;
  }
  LintOptions lo;
  lo.paths = c.opt.configs;
  lo.select = {"G10"};
  LintResult lr = sc::run_lint(lo);
  nlohmann::json fs = nlohmann::json::array();
  std::vector<std::string> errs, warns, notes;
  for (auto& f : lr.findings) {
    if (!f.suppressions.empty()) continue;
    std::string where = f.loc.path + (f.loc.range.valid() ? ":" + std::to_string(f.loc.range.line) : "");
    fs.push_back({{"path", f.loc.path}, {"line", f.loc.range.line}, {"level", level_name(f.level)}, {"message", f.message}});
    std::string s = where + " " + f.message;
    (f.level == Level::Error ? errs : f.level == Level::Warning ? warns : notes).push_back(s);
  }
  std::vector<std::string> problems;
  for (auto& n : lr.notifications) problems.push_back((n.path.empty() ? "" : n.path + ": ") + n.message);
  r.readings["findings"] = fs;
  r.readings["notifications"] = problems;
  r.readings["linted"] = std::vector<std::string>(lr.linted.begin(), lr.linted.end());
  std::string files = std::to_string(lr.linted.size()) + " config file" + (lr.linted.size() == 1 ? "" : "s");
  if (!errs.empty() || !warns.empty()) {
    r.verdict = errs.empty() ? Verdict::Warn : Verdict::Fail;
    std::vector<std::string> all = errs;
    all.insert(all.end(), warns.begin(), warns.end());
    r.message = join(all, "; ") + "; " + envs;
    return r;
  }
  if (lr.linted.empty()) {
    r.verdict = Verdict::Skip;
    r.message = "no config could be linted" + (problems.empty() ? std::string() : ": " + join(problems, "; ")) + "; " + envs;
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = "G10 lint of " + files + ": no tensor parallelism across nodes" +
              (notes.empty() ? "" : " (notes: " + join(notes, "; ") + ")") +
              (problems.empty() ? "" : "; not read: " + join(problems, "; ")) + "; " + envs;
  return r;
}

SPARKCHECK_PROBE_CHECK("G10", check_g10);

}  // namespace sc::probe

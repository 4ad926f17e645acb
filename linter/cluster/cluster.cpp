// SPDX-License-Identifier: Apache-2.0
// run_cluster: read every report, compare, write the result.
#include "cluster/cluster.h"

#include "output/write_file.h"

namespace sc::cluster {

int comparison_exit_code(const Comparison& c);  // write.cpp

namespace {

bool valid(const ClusterOptions& opt, std::ostream& err) {
  if (opt.format != "text" && opt.format != "json" && opt.format != "sarif") {
    err << "sparkcheck cluster: unknown --format '" << opt.format << "' (text, json, sarif)\n";
    return false;
  }
  if (opt.reports.size() < 2) {
    err << "sparkcheck cluster: give at least two probe reports (one per node)\n";
    return false;
  }
  return true;
}

bool emit(const Comparison& c, const ClusterOptions& opt, std::ostream& out, std::ostream& err) {
  auto render = [&](std::ostream& os) {
    if (opt.format == "json") write_json(c, os);
    else if (opt.format == "sarif") write_sarif(c, os);
    else write_text(c, os);
  };
  return emit_report(opt.output, render, out, err, "sparkcheck cluster");
}

}  // namespace

int run_cluster(const ClusterOptions& opt, std::ostream& out, std::ostream& err) {
  if (!valid(opt, err)) return 2;
  Comparison c;
  for (const auto& path : opt.reports) {
    auto n = load_report(path, opt.max_bytes, c.notes);
    if (n) c.nodes.push_back(std::move(*n));
    else c.unreadable = true;
  }
  if (c.nodes.size() >= 2) compare_nodes(c);
  else c.notes.push_back({"", "too-few-reports", "fewer than two readable reports: nothing compared"});
  if (!emit(c, opt, out, err)) return 2;
  return comparison_exit_code(c);
}

}  // namespace sc::cluster

// SPDX-License-Identifier: Apache-2.0
// run_probe: choose the checks, run them on a Machine, write the report.
#include "probe/probe.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/read_file.h"
#include "output/write_file.h"
#include "probe/checks.h"

namespace sc {

namespace probe {

namespace {

std::vector<ProbeCheck>& check_store() {
  static std::vector<ProbeCheck> v;
  return v;
}

nlohmann::json host_json(Context& c) {
  const auto& g = c.gpu();
  nlohmann::json h = {{"hostname", c.machine.hostname()}, {"profile", c.profile()}};
  nlohmann::json gpu = {{"nvml", g.nvml}, {"cuda_driver", g.cuda}};
  if (!g.nvml) gpu["nvml_error"] = g.nvml_error;
  if (!g.cuda) gpu["cuda_error"] = g.cuda_error;
  if (!g.name.empty()) gpu["name"] = g.name;
  if (!c.capability().empty()) gpu["capability"] = c.capability();
  if (g.count > 0) gpu["count"] = g.count;
  if (!g.driver_version.empty()) gpu["driver_version"] = g.driver_version;
  if (g.cuda_driver_version > 0)
    gpu["driver_cuda"] = std::to_string(g.cuda_driver_version / 1000) + "." + std::to_string((g.cuda_driver_version % 1000) / 10);
  if (g.mem_total_gb > 0) gpu["memory_gb"] = g.mem_total_gb;
  h["gpu"] = gpu;
  return h;
}

nlohmann::json python_json(Context& c) {
  nlohmann::json py = {{"interpreter", c.python().interpreter}, {"ok", c.python().ok}};
  if (!c.python().ok) {
    py["error"] = c.python().error;
    return py;
  }
  // strings only: the report writers read them as such (the report is outside input)
  const nlohmann::json& d = c.python().data;
  if (d.is_object() && d.contains("python") && d["python"].is_string()) py["version"] = d["python"];
  if (d.is_object() && d.contains("executable") && d["executable"].is_string()) py["executable"] = d["executable"];
  return py;
}

bool valid_options(const ProbeOptions& opt, std::ostream& err) {
  if (opt.format != "text" && opt.format != "json" && opt.format != "sarif") {
    err << "sparkcheck probe: unknown --format '" << opt.format << "' (text, json, sarif)\n";
    return false;
  }
  if (opt.sample_seconds < 0 || opt.sample_seconds > 3600 || opt.need_gb < 0) {
    err << "sparkcheck probe: --sample-seconds must be 0..3600 and --need-gb not negative\n";
    return false;
  }
  return true;
}

bool readable_configs(const ProbeOptions& opt, std::ostream& err) {
  for (auto& f : opt.configs) {
    std::string text, why;  // a FIFO or device is refused here, never opened blocking
    if (!read_regular_file(f, text, why)) {
      err << "sparkcheck probe: --config " << f << ": cannot read the file: " << why << "\n";
      return false;
    }
  }
  return true;
}

std::string check_list() {
  std::string r;
  for (const auto& e : probe_checks()) r += (r.empty() ? "" : ", ") + std::string(e.id);
  return r;
}

// The checks named on the command line, upper-cased; false on an unknown one.
bool wanted_checks(const ProbeOptions& opt, std::set<std::string>& wanted, std::ostream& err) {
  for (auto& raw : opt.checks) {
    std::string id = raw;
    for (auto& ch : id) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const auto& all = probe_checks();
    if (std::none_of(all.begin(), all.end(), [&](const ProbeCheck& e) { return id == e.id; })) {
      err << "sparkcheck probe: unknown check '" << raw << "' (" << check_list() << ")\n";
      return false;
    }
    wanted.insert(id);
  }
  return true;
}

Report run_checks(Machine& m, Context& c, const std::set<std::string>& wanted) {
  Report rep;
  for (const auto& e : probe_checks()) {
    if (!wanted.empty() && !wanted.count(e.id)) continue;
    // The interpreter's report is outside input (any python, its site hooks): a value of another
    // type there ends that check as a SKIP naming it, not the probe.
    try {
      rep.results.push_back(e.fn(c));
    } catch (const nlohmann::json::exception& ex) {
      rep.results.push_back(CheckResult(e.id, Verdict::Skip, std::string("unreadable reading: ") + ex.what()));
    }
  }
  rep.hostname = m.hostname();
  rep.host = host_json(c);
  if (c.opt.format != "text") rep.node = node_json(c);
  if (c.python_ran()) rep.host["python"] = python_json(c);
  return rep;
}

// The report on `out`, or in --output's file (checked write via a temporary file).
bool emit_report(const Report& rep, const ProbeOptions& opt, std::ostream& out, std::ostream& err) {
  auto render = [&](std::ostream& os) {
    if (opt.format == "json") write_json(rep, os);
    else if (opt.format == "sarif") write_sarif(rep, os);
    else write_text(rep, os);
  };
  return sc::emit_report(opt.output, render, out, err, "sparkcheck probe");
}

}  // namespace

ProbeCheckRegistrar::ProbeCheckRegistrar(const char* id, CheckFn fn) {
  check_store().push_back({id, fn});
  registered_checks().push_back({id, "probe"});
}

const std::vector<ProbeCheck>& probe_checks() {
  auto& v = check_store();
  std::sort(v.begin(), v.end(), [](const ProbeCheck& a, const ProbeCheck& b) { return rule_id_less(a.id, b.id); });
  return v;
}

int run_probe_on(Machine& m, const ProbeOptions& opt, std::ostream& out, std::ostream& err) {
  std::set<std::string> wanted;
  if (!valid_options(opt, err) || !wanted_checks(opt, wanted, err) || !readable_configs(opt, err)) return 2;
  Context c(m, opt);
  c.explicit_g5 = wanted.count("G5") > 0;
  Report rep = run_checks(m, c, wanted);
  if (!emit_report(rep, opt, out, err)) return 2;
  bool fail = std::any_of(rep.results.begin(), rep.results.end(), [](const CheckResult& r) { return r.verdict == Verdict::Fail; });
  return fail ? 1 : 0;
}

}  // namespace probe

int run_probe(const ProbeOptions& opt, std::ostream& out, std::ostream& err) {
  // SPARKCHECK_PROBE_FAKE=DIR replays a fixture (end-to-end tests);
  // SPARKCHECK_PROBE_RECORD=DIR saves what a real run read as a fixture.
  const char* fake = std::getenv("SPARKCHECK_PROBE_FAKE");
  const char* record = std::getenv("SPARKCHECK_PROBE_RECORD");
  std::unique_ptr<probe::Machine> m =
      fake && *fake ? probe::make_fake_machine(fake) : probe::make_real_machine(opt.root_fs);
  if (record && *record) m = probe::make_recording_machine(std::move(m), record);
  return probe::run_probe_on(*m, opt, out, err);
}

}  // namespace sc

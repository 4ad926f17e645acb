// SPDX-License-Identifier: Apache-2.0
// The probe checks' registry, their context and the report writers (internal to linter/probe).
#pragma once
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/registry.h"
#include "probe/machine.h"
#include "probe/probe.h"

namespace sc::probe {

// The number at the start of `s` after blanks (what atoi/atof read, without their undefined
// behaviour on overflow): 0 when there is none or it does not fit.
int lead_int(std::string_view s);
double lead_double(std::string_view s);

enum class Verdict { Pass, Fail, Warn, Skip, Info };
const char* verdict_name(Verdict v);  // "PASS" ...

struct CheckResult {
  explicit CheckResult(std::string i = "", Verdict v = Verdict::Skip, std::string m = "",
                       nlohmann::json rd = nlohmann::json::object())
      : id(std::move(i)), verdict(v), message(std::move(m)), readings(std::move(rd)) {}
  std::string id;        // "G1"
  Verdict verdict = Verdict::Skip;
  std::string message;   // one line of evidence (or the reason for SKIP)
  nlohmann::json readings = nlohmann::json::object();
};

// What every check may use; the expensive readings are taken once, lazily.
class Context {
 public:
  Context(Machine& m, const ProbeOptions& o) : machine(m), opt(o) {}
  Machine& machine;
  const ProbeOptions& opt;
  bool explicit_g5 = false;  // `probe G5` named on the command line

  const GpuInfo& gpu();
  bool gb10();                    // capability 12.1
  std::string capability();       // "12.1" or "" when unknown
  const PythonReport& python();   // the interpreter's report
  bool python_ran() const { return py_.has_value(); }
  const std::map<std::string, std::string>& env();
  const std::vector<ProcInfo>& processes();
  const std::map<std::string, std::string>& runtimes();
  // Installed distribution version ("" when absent), keys lower-case with '-'.
  std::string dist_version(const std::string& name);
  const nlohmann::json& torch();  // python().data["torch"] or an empty object
  std::string profile();          // "GB10", "other GPU (capability 9.0)", "no GPU readable"
  // The largest shared objects of an installed distribution (from the report).
  std::vector<std::string> shared_objects(const std::string& dist);
  const KernelArches& kernel_arches(const std::string& so_path);  // cached cuobjdump

 private:
  std::optional<GpuInfo> gpu_;
  std::optional<PythonReport> py_;
  std::optional<std::map<std::string, std::string>> env_;
  std::optional<std::vector<ProcInfo>> procs_;
  std::optional<std::map<std::string, std::string>> runtimes_;
  std::map<std::string, KernelArches> arches_;
};

// A probe check registers itself under its rule id: SPARKCHECK_PROBE_CHECK("G3", check_g3);
// the id is then listed with `checks: probe` by `sparkcheck rules` (core/registry.h).
using CheckFn = CheckResult (*)(Context&);
struct ProbeCheck {
  const char* id;
  CheckFn fn;
};
// Every registered check, in rule order.
const std::vector<ProbeCheck>& probe_checks();
struct ProbeCheckRegistrar {
  ProbeCheckRegistrar(const char* id, CheckFn fn);
};

// --- helpers shared by the checks ------------------------------------------
// Compares dotted versions numerically ("2.10.0a0+x" -> 2.10.0): <0, 0, >0.
int compare_versions(const std::string& a, const std::string& b);
// Does a kernel built for `arch` ("sm_120", "sm_121a", "sm_120f"; ptx: a PTX
// target) run on a device of capability major.minor?
bool arch_runs_on(const std::string& arch, bool ptx, int major, int minor);
std::string fmt(double v, int decimals = 1);
std::string join(const std::vector<std::string>& v, const std::string& sep = ", ");

// The probe itself, on any machine; the report goes to `out`.
int run_probe_on(Machine& m, const ProbeOptions& opt, std::ostream& out, std::ostream& err);

// The report's schema (docs/probe-report.md): 1 had no schema_version and no node block;
// 2 adds `node`, the readings `sparkcheck cluster` compares.
constexpr int kProbeReportSchema = 2;

// The node block: every reading a cluster comparison needs, each with its source (node.cpp).
nlohmann::json node_json(Context& c);

struct Report {
  std::string hostname;
  nlohmann::json host;               // profile, GPU, driver, interpreter
  std::vector<CheckResult> results;
  nlohmann::json node;               // null for text output
};
void write_text(const Report& r, std::ostream& out);
void write_json(const Report& r, std::ostream& out);
void write_sarif(const Report& r, std::ostream& out);

}  // namespace sc::probe

#define SPARKCHECK_PROBE_CHECK(id, fn) \
  static ::sc::probe::ProbeCheckRegistrar SC_CAT(sc_probe_check_reg_, __LINE__)(id, fn)

// SPDX-License-Identifier: Apache-2.0
// Context: readings taken once and shared by the checks; small helpers.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "knowledge/versions.h"
#include "probe/checks.h"

namespace sc::probe {

namespace {
std::string_view number_start(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i < s.size() && s[i] == '+') ++i;
  return s.substr(i);
}
}  // namespace

int lead_int(std::string_view s) {
  s = number_start(s);
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() ? v : 0;
}

double lead_double(std::string_view s) {
  s = number_start(s);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() ? v : 0;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "PASS";
    case Verdict::Fail: return "FAIL";
    case Verdict::Warn: return "WARN";
    case Verdict::Skip: return "SKIP";
    case Verdict::Info: return "INFO";
  }
  return "SKIP";
}

const GpuInfo& Context::gpu() {
  if (!gpu_) gpu_ = machine.gpu();
  return *gpu_;
}

std::string Context::capability() {
  if (gpu().cc_major >= 0) return std::to_string(gpu().cc_major) + "." + std::to_string(gpu().cc_minor);
  if (!py_) return "";  // never start the interpreter just for this
  auto& t = torch();
  if (t.contains("capability") && t["capability"].is_array() && t["capability"].size() == 2)
    return std::to_string(t["capability"][0].get<int>()) + "." + std::to_string(t["capability"][1].get<int>());
  return "";
}

bool Context::gb10() { return capability() == "12.1"; }

std::string Context::profile() {
  std::string cc = capability();
  if (cc == "12.1") return "GB10";
  if (cc.empty()) return "no GPU readable";
  return "other GPU (capability " + cc + ")";
}

const PythonReport& Context::python() {
  if (!py_) {
    std::string interp = opt.python.empty() ? default_python(env()) : opt.python;
    py_ = machine.python(interp);
  }
  return *py_;
}

const nlohmann::json& Context::torch() {
  static const nlohmann::json empty = nlohmann::json::object();
  const auto& p = python();
  if (!p.ok || !p.data.contains("torch") || !p.data["torch"].is_object()) return empty;
  return p.data["torch"];
}

const std::map<std::string, std::string>& Context::env() {
  if (!env_) env_ = machine.environment();
  return *env_;
}

const std::vector<ProcInfo>& Context::processes() {
  if (!procs_) procs_ = machine.processes();
  return *procs_;
}

const std::map<std::string, std::string>& Context::runtimes() {
  if (!runtimes_) runtimes_ = machine.cuda_runtimes();
  return *runtimes_;
}

std::string Context::dist_version(const std::string& name) {
  // torch's metadata version can lack the local tag that torch.__version__ has
  // ("2.11.0" vs "2.11.0+cu130"); the runtime string is the one that matters.
  if (name == "torch" && torch().contains("version") && torch()["version"].is_string())
    return torch()["version"].get<std::string>();
  const auto& p = python();
  if (!p.ok || !p.data.contains("dists")) return "";
  const auto& d = p.data["dists"];
  auto it = d.find(name);
  if (it == d.end() || !it->contains("version")) return "";
  return (*it)["version"].get<std::string>();
}

std::vector<std::string> Context::shared_objects(const std::string& dist) {
  std::vector<std::string> out;
  const auto& p = python();
  if (!p.ok || !p.data.contains("dists")) return out;
  const auto& d = p.data["dists"];
  auto it = d.find(dist);
  if (it == d.end() || !it->contains("shared_objects")) return out;
  for (auto& s : (*it)["shared_objects"])
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

const KernelArches& Context::kernel_arches(const std::string& so_path) {
  auto it = arches_.find(so_path);
  if (it == arches_.end()) it = arches_.emplace(so_path, machine.kernel_arches(so_path)).first;
  return it->second;
}

int compare_versions(const std::string& a, const std::string& b) { return knowledge::compare_versions(a, b); }

bool arch_runs_on(const std::string& arch, bool ptx, int major, int minor) {
  // "sm_121a" -> 121, suffix 'a'; "sm_90" -> 90.
  size_t i = arch.find('_');
  if (i == std::string::npos) return false;
  std::string digits;
  char suffix = 0;
  for (size_t k = i + 1; k < arch.size(); ++k) {
    if (std::isdigit(static_cast<unsigned char>(arch[k]))) digits += arch[k];
    else suffix = arch[k];
  }
  if (digits.size() < 2) return false;
  int num = lead_int(digits);
  int am = num / 10, an = num % 10;
  int dev = major * 10 + minor;
  if (suffix == 'a') return am == major && an == minor;      // arch-specific: exact chip only
  if (suffix == 'f') return am == major && an <= minor;      // family-specific
  if (ptx) return num <= dev;                                // PTX JIT-compiles forward
  return am == major && an <= minor;                          // SASS: same major, newer minor
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string fmt(double v, int decimals) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

}  // namespace sc::probe

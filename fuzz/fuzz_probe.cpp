// SPDX-License-Identifier: Apache-2.0
// Fuzz target: what `sparkcheck probe` parses from the machine (linter/probe): the Python
// interpreter's report (the JSON after "SPARKCHECK-JSON " on its standard output),
// cuobjdump's listing, /etc/ld.so.cache, /proc/meminfo, /proc/1/cgroup, a process's cmdline
// and environ, and what NVML would say; then every check and the report writer run on
// them (a Machine answering from the input). Nothing may crash, hang or throw.
//
// Input layout:  byte 0   bits 0-1: report format (text, json, sarif); bit 2: cuobjdump exits 1;
//                         bit 3: `probe G5` named; bit 4: /.dockerenv exists
//                the rest "\x1e"-separated parts (missing ones empty): 0 the interpreter's stdout,
//                1 cuobjdump's stdout, 2 its stderr, 3 /etc/ld.so.cache, 4 /proc/meminfo,
//                5 /proc/1/cgroup, 6 JSON {"gpu": {...}, "samples": [...], "env": {...},
//                "gpu_processes": [...]} (the fields of GpuInfo, GpuSample, GpuProcess),
//                7 a process's cmdline, 8 its environ (NUL-separated)
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "probe/checks.h"

namespace {

using nlohmann::json;

// A field of the made-up NVML/sample JSON, or `d` when absent or of another type (those
// come from libraries, not text; only the parsed texts are under test).
template <class T>
T get(const json& j, const char* k, T d) {
  if (!j.is_object()) return d;
  auto it = j.find(k);
  if (it == j.end()) return d;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // nlohmann casts 1e115 to int unchecked (undefined): whole numbers in range only.
    if (!it->is_number_integer()) return d;
    if (it->is_number_unsigned()) {
      auto v = it->get<std::uint64_t>();
      return std::in_range<T>(v) ? static_cast<T>(v) : d;
    }
    auto v = it->get<std::int64_t>();
    return std::in_range<T>(v) ? static_cast<T>(v) : d;
  }
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    return d;
  }
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> out;
  for (size_t start = 0; start < s.size();) {
    size_t end = s.find('\0', start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

class FuzzMachine : public sc::probe::Machine {
 public:
  FuzzMachine(std::vector<std::string> parts, uint8_t flags) : p_(std::move(parts)), flags_(flags) {
    j_ = json::parse(p_[6], nullptr, false);
    if (!j_.is_object()) j_ = json::object();
  }
  std::optional<std::string> read_file(const std::string& path) override {
    if (path == "/etc/ld.so.cache") return p_[3];
    if (path == "/proc/meminfo") return p_[4];
    if (path == "/proc/1/cgroup") return p_[5];
    return std::nullopt;
  }
  bool exists(const std::string& path) override { return (flags_ & 16) && path == "/.dockerenv"; }
  std::vector<std::string> list_dir(const std::string&) override { return {}; }
  sc::probe::NcclLibrary nccl_library() override { return {}; }
  std::vector<sc::probe::ProcInfo> processes() override {
    if (p_[7].empty()) return {};
    sc::probe::ProcInfo p;
    p.pid = 77;
    p.argv = split_nul(p_[7]);
    if (!p_[8].empty()) {
      p.env.emplace();
      for (const std::string& kv : split_nul(p_[8]))
        if (size_t eq = kv.find('='); eq != std::string::npos) (*p.env)[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return {p};
  }
  std::map<std::string, std::string> environment() override {
    std::map<std::string, std::string> env;
    if (auto it = j_.find("env"); it != j_.end() && it->is_object())
      for (auto& [k, v] : it->items())
        if (v.is_string()) env[k] = v.get<std::string>();
    return env;
  }
  std::string hostname() override { return "fuzz-host"; }
  int self_pid() override { return 4242; }
  sc::probe::GpuInfo gpu() override {
    sc::probe::GpuInfo g;
    json gj = j_.value("gpu", json::object());
    g.nvml = get(gj, "nvml", false);
    g.nvml_error = g.nvml ? "" : "no NVML (fuzz)";
    g.cuda = get(gj, "cuda", false);
    g.cuda_error = g.cuda ? "" : "no CUDA driver (fuzz)";
    g.count = get(gj, "count", g.nvml ? 1 : 0);
    g.name = get<std::string>(gj, "name", "");
    g.cc_major = get(gj, "cc_major", -1);
    g.cc_minor = get(gj, "cc_minor", -1);
    g.driver_version = get<std::string>(gj, "driver_version", "");
    g.cuda_driver_version = get(gj, "cuda_driver_version", 0);
    g.mem_total_gb = get(gj, "mem_total_gb", -1.0);
    g.mem_used_gb = get(gj, "mem_used_gb", -1.0);
    g.bus_width_bits = get(gj, "bus_width_bits", 0);
    g.max_mem_clock_mhz = get(gj, "max_mem_clock_mhz", 0);
    g.power_limit_w = get(gj, "power_limit_w", 0.0);
    return g;
  }
  std::vector<sc::probe::GpuSample> sample_gpu(double) override {
    std::vector<sc::probe::GpuSample> out;
    json s = j_.value("samples", json::array());
    if (!s.is_array()) return out;
    for (const json& e : s) {
      sc::probe::GpuSample g;
      g.t = get(e, "t", 0.0);
      g.temp_c = get(e, "temp_c", -1);
      g.power_w = get(e, "power_w", -1.0);
      g.sm_clock_mhz = get(e, "sm_clock_mhz", -1);
      g.mem_clock_mhz = get(e, "mem_clock_mhz", -1);
      g.reasons_known = e.is_object() && e.contains("reasons");
      g.reasons = get<unsigned long long>(e, "reasons", 0);
      out.push_back(g);
    }
    return out;
  }
  std::vector<sc::probe::GpuProcess> gpu_processes() override {
    std::vector<sc::probe::GpuProcess> out;
    json s = j_.value("gpu_processes", json::array());
    if (!s.is_array()) return out;
    for (const json& e : s) out.push_back({get(e, "pid", 0), get(e, "used_gb", -1.0), get<std::string>(e, "kind", "compute")});
    return out;
  }
  sc::probe::BandwidthResult measure_bandwidth() override {
    sc::probe::BandwidthResult b;
    json bj = j_.value("bandwidth", json::object());
    b.ok = get(bj, "ok", false);
    b.error = b.ok ? "" : "no reading (fuzz)";
    b.gbps = get(bj, "gbps", 0.0);
    b.buffer_gb = get(bj, "buffer_gb", 1.07);
    b.copies = get(bj, "copies", 20);
    b.seconds = get(bj, "seconds", 0.0);
    return b;
  }
  sc::probe::PythonReport python(const std::string& interpreter) override {
    sc::probe::PythonReport r;
    r.interpreter = interpreter;
    if (!sc::probe::parse_python_output(p_[0], r)) r.error = "exited 1 without a report";
    return r;
  }
  std::map<std::string, std::string> cuda_runtimes() override {
    std::map<std::string, std::string> out;
    if (auto cache = read_file("/etc/ld.so.cache")) sc::probe::ld_cache_runtimes(*cache, out);
    return out;
  }
  sc::probe::KernelArches kernel_arches(const std::string&) override {
    return sc::probe::parse_cuobjdump(p_[1], p_[2], (flags_ & 4) ? 1 : 0);
  }

 private:
  std::vector<std::string> p_;
  uint8_t flags_;
  json j_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> parts;
  for (size_t cut; parts.size() < 8 && (cut = in.find('\x1e')) != std::string_view::npos;) {
    parts.emplace_back(in.substr(0, cut));
    in.remove_prefix(cut + 1);
  }
  parts.emplace_back(in);
  parts.resize(9);
  FuzzMachine m(std::move(parts), data[0]);
  sc::ProbeOptions opt;
  static const char* const kFormats[] = {"text", "json", "sarif", "text"};
  opt.format = kFormats[data[0] & 3];
  opt.sample_seconds = 0;
  opt.need_gb = 8;
  if (data[0] & 8) opt.checks = {"G5"};
  std::ostringstream out, err;
  (void)sc::probe::run_probe_on(m, opt, out, err);
  return 0;
}

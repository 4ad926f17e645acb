// SPDX-License-Identifier: Apache-2.0
// A machine replayed from a fixture directory (see machine.h). Keys absent
// from machine.json behave like a machine without that facility: no NVML, no
// CUDA driver, no interpreter, no cuobjdump.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <type_traits>
#include <utility>

#include "probe/machine.h"

namespace sc::probe {

namespace {

using nlohmann::json;

template <class T>
T get_or(const json& j, const char* k, T dflt) {
  auto it = j.find(k);
  if (it == j.end() || it->is_null()) return dflt;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // nlohmann casts 1e115 to int unchecked (undefined): whole numbers in range only.
    if (!it->is_number_integer()) return dflt;
    if (it->is_number_unsigned()) {
      auto v = it->get<std::uint64_t>();
      return std::in_range<T>(v) ? static_cast<T>(v) : dflt;
    }
    auto v = it->get<std::int64_t>();
    return std::in_range<T>(v) ? static_cast<T>(v) : dflt;
  }
  return it->get<T>();
}

class FakeMachine : public Machine {
 public:
  FakeMachine(std::string dir, const json& patch) : dir_(std::move(dir)) {
    std::ifstream f(dir_ + "/machine.json");
    if (f) j_ = json::parse(f, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    if (!j_.is_object()) j_ = json::object();
    if (patch.is_object() && !patch.empty()) j_.merge_patch(patch);
    root_ = dir_ + "/root";
  }

  std::optional<std::string> read_file(const std::string& path) override { return read_below(root_, path); }
  bool exists(const std::string& path) override {
    std::error_code ec;
    return std::filesystem::exists(root_ + path, ec);
  }
  std::vector<std::string> list_dir(const std::string& path) override { return list_below(root_, path); }
  std::vector<ProcInfo> processes() override { return scan_proc(root_, self_pid()); }
  std::map<std::string, std::string> environment() override {
    return get_or(j_, "env", std::map<std::string, std::string>{});
  }
  std::string hostname() override { return get_or<std::string>(j_, "hostname", "fake-host"); }
  int self_pid() override { return get_or(j_, "pid", 4242); }

  GpuInfo gpu() override {
    GpuInfo g;
    const json gj = j_.value("gpu", json::object());
    g.nvml = get_or(gj, "nvml", false);
    g.nvml_error = get_or<std::string>(gj, "nvml_error", g.nvml ? "" : "libnvidia-ml.so.1 not loadable (fixture)");
    g.cuda = get_or(gj, "cuda", false);
    g.cuda_error = get_or<std::string>(gj, "cuda_error", g.cuda ? "" : "libcuda.so.1 not loadable (fixture)");
    g.count = get_or(gj, "count", g.nvml ? 1 : 0);
    g.name = get_or<std::string>(gj, "name", "");
    g.cc_major = get_or(gj, "cc_major", -1);
    g.cc_minor = get_or(gj, "cc_minor", -1);
    g.driver_version = get_or<std::string>(gj, "driver_version", "");
    g.cuda_driver_version = get_or(gj, "cuda_driver_version", 0);
    g.mem_total_gb = get_or(gj, "mem_total_gb", -1.0);
    g.mem_used_gb = get_or(gj, "mem_used_gb", -1.0);
    g.bus_width_bits = get_or(gj, "bus_width_bits", 0);
    g.max_mem_clock_mhz = get_or(gj, "max_mem_clock_mhz", 0);
    g.power_limit_w = get_or(gj, "power_limit_w", 0.0);
    return g;
  }

  std::vector<GpuSample> sample_gpu(double) override {
    std::vector<GpuSample> out;
    for (auto& s : j_.value("samples", json::array())) {
      GpuSample g;
      g.t = get_or(s, "t", 0.0);
      g.temp_c = get_or(s, "temp_c", -1);
      g.power_w = get_or(s, "power_w", -1.0);
      g.sm_clock_mhz = get_or(s, "sm_clock_mhz", -1);
      g.mem_clock_mhz = get_or(s, "mem_clock_mhz", -1);
      g.reasons_known = s.contains("reasons");
      g.reasons = get_or<unsigned long long>(s, "reasons", 0);
      out.push_back(g);
    }
    return out;
  }

  std::vector<GpuProcess> gpu_processes() override {
    std::vector<GpuProcess> out;
    for (auto& p : j_.value("gpu_processes", json::array()))
      out.push_back({get_or(p, "pid", 0), get_or(p, "used_gb", -1.0), get_or<std::string>(p, "kind", "compute")});
    return out;
  }

  BandwidthResult measure_bandwidth() override {
    BandwidthResult r;
    const json b = j_.value("bandwidth", json::object());
    r.ok = get_or(b, "ok", false);
    r.error = get_or<std::string>(b, "error", r.ok ? "" : "no bandwidth reading in fixture");
    r.gbps = get_or(b, "gbps", 0.0);
    r.buffer_gb = get_or(b, "buffer_gb", 1.07);
    r.copies = get_or(b, "copies", 20);
    r.seconds = get_or(b, "seconds", 0.0);
    return r;
  }

  PythonReport python(const std::string& interpreter) override {
    PythonReport r;
    r.interpreter = interpreter;
    const json p = j_.value("python", json::object());
    r.ok = get_or(p, "ok", false);
    r.error = get_or<std::string>(p, "error", r.ok ? "" : "No such file or directory");
    if (r.ok) r.data = p.value("data", json::object());
    return r;
  }

  std::map<std::string, std::string> cuda_runtimes() override {
    return get_or(j_, "cuda_runtimes", std::map<std::string, std::string>{});
  }

  KernelArches kernel_arches(const std::string& so_path) override {
    KernelArches k;
    const json all = j_.value("kernel_arches", json::object());
    if (!all.contains(so_path)) {
      k.error = "cuobjdump not found (fixture)";
      return k;
    }
    const json& e = all[so_path];
    k.ok = get_or(e, "ok", true);
    k.error = get_or<std::string>(e, "error", "");
    k.sass = get_or(e, "sass", std::vector<std::string>{});
    k.ptx = get_or(e, "ptx", std::vector<std::string>{});
    return k;
  }

  NcclLibrary nccl_library() override {
    NcclLibrary n;
    const json e = j_.value("nccl_library", json::object());
    n.ok = get_or(e, "ok", false);
    n.error = get_or<std::string>(e, "error", n.ok ? "" : "libnccl.so.2 not loadable (fixture)");
    n.version = get_or(e, "version", 0);
    return n;
  }

 private:
  std::string dir_, root_;
  json j_;
};

}  // namespace

std::unique_ptr<Machine> make_fake_machine(const std::string& fixture_dir, const json& patch) {
  return std::make_unique<FakeMachine>(fixture_dir, patch);
}

}  // namespace sc::probe

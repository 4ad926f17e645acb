// SPDX-License-Identifier: Apache-2.0
// The node block of `probe --format json` (schema 2, docs/probe-report.md): every reading that
// `sparkcheck cluster` compares between nodes, keyed flat ("driver.version", "package.vllm",
// "net.enP2p1s0f1np1.mtu"), each {"value", "source"} or {"absent": reason, "source"}. A reading
// the machine cannot give is absent with its reason, never guessed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "probe/checks.h"

namespace sc::probe {

namespace {

using nlohmann::json;

constexpr size_t kMaxInterfaces = 64;

json reading(json value, const std::string& source) { return {{"value", std::move(value)}, {"source", source}}; }
json absent(const std::string& why, const std::string& source) { return {{"absent", why}, {"source", source}}; }

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// `KEY=value` or `KEY="value"` lines (/etc/os-release, /run/.containerenv).
std::map<std::string, std::string> key_values(const std::string& text) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string v = trimmed(line.substr(eq + 1));
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    out[trimmed(line.substr(0, eq))] = v;
  }
  return out;
}

void add_gpu(Context& c, json& r) {
  const GpuInfo& g = c.gpu();
  const std::string nvml = "NVML";
  auto no_nvml = [&](const char* key) { r[key] = absent(g.nvml_error.empty() ? "NVML not loaded" : g.nvml_error, nvml); };
  if (!g.driver_version.empty()) r["driver.version"] = reading(g.driver_version, "NVML nvmlSystemGetDriverVersion");
  else no_nvml("driver.version");
  if (g.cuda_driver_version > 0)
    r["cuda.driver"] = reading(std::to_string(g.cuda_driver_version / 1000) + "." + std::to_string((g.cuda_driver_version % 1000) / 10),
                               "CUDA driver cuDriverGetVersion / NVML");
  else r["cuda.driver"] = absent(g.cuda_error.empty() ? "no CUDA driver version" : g.cuda_error, "CUDA driver");
  if (!g.name.empty()) r["gpu.name"] = reading(g.name, "NVML nvmlDeviceGetName");
  else no_nvml("gpu.name");
  if (!c.capability().empty()) r["gpu.capability"] = reading(c.capability(), "NVML / CUDA driver / torch");
  else r["gpu.capability"] = absent("no GPU readable", nvml);
  if (g.nvml) r["gpu.count"] = reading(g.count, "NVML nvmlDeviceGetCount");
  else no_nvml("gpu.count");
}

void add_gpu_limits(Context& c, json& r) {
  const GpuInfo& g = c.gpu();
  const std::string nvml = "NVML";
  if (g.power_limit_w > 0) r["gpu.power_limit_w"] = reading(g.power_limit_w, "NVML nvmlDeviceGetEnforcedPowerLimit");
  else r["gpu.power_limit_w"] = absent(g.nvml ? "NVML reports no power limit" : g.nvml_error, nvml);
  if (g.max_mem_clock_mhz > 0) r["gpu.max_mem_clock_mhz"] = reading(g.max_mem_clock_mhz, "NVML nvmlDeviceGetMaxClockInfo");
  else r["gpu.max_mem_clock_mhz"] = absent(g.nvml ? "NVML reports no memory clock" : g.nvml_error, nvml);
  if (g.mem_total_gb > 0) r["gpu.memory_gb"] = reading(g.mem_total_gb, "NVML nvmlDeviceGetMemoryInfo");
  else r["gpu.memory_gb"] = absent(c.gb10() ? "unified memory: NVML reports no GPU total on GB10 (see memory.total_gb)" : "NVML reports no memory total", nvml);
}

void add_memory(Context& c, json& r) {
  auto mi = c.machine.read_file("/proc/meminfo");
  size_t at = mi ? mi->find("MemTotal:") : std::string::npos;
  if (at == std::string::npos) {
    r["memory.total_gb"] = absent("/proc/meminfo unreadable or without MemTotal", "/proc/meminfo");
    return;
  }
  double kb = lead_double(std::string_view(*mi).substr(at + 9));
  r["memory.total_gb"] = reading(std::round(kb * 1024 / 1e9 * 10) / 10, "/proc/meminfo MemTotal");
  r["memory.unified"] = reading(c.gb10(), "GPU capability 12.1 (GB10 shares one LPDDR5x pool)");
}

void add_os(Context& c, json& r) {
  auto& m = c.machine;
  if (auto k = m.read_file("/proc/sys/kernel/osrelease")) r["os.kernel"] = reading(trimmed(*k), "/proc/sys/kernel/osrelease");
  else r["os.kernel"] = absent("/proc/sys/kernel/osrelease unreadable", "/proc");
  auto os = m.read_file("/etc/os-release");
  auto kv = os ? key_values(*os) : std::map<std::string, std::string>{};
  if (kv.count("PRETTY_NAME")) r["os.release"] = reading(kv["PRETTY_NAME"], "/etc/os-release PRETTY_NAME");
  else r["os.release"] = absent("/etc/os-release unreadable or without PRETTY_NAME", "/etc/os-release");
  const json& d = c.python().data;
  if (c.python().ok && d.is_object() && d.contains("machine") && d["machine"].is_string())
    r["os.arch"] = reading(d["machine"], "python platform.machine()");
  else r["os.arch"] = absent("no interpreter report", "python platform.machine()");
}

std::string container_kind(Context& c) {
  auto& m = c.machine;
  if (m.exists("/run/.containerenv")) return "podman";
  if (m.exists("/.dockerenv")) return "docker";
  if (c.env().count("KUBERNETES_SERVICE_HOST")) return "kubernetes";
  if (auto cg = m.read_file("/proc/1/cgroup"))
    for (auto k : {"docker", "containerd", "kubepods", "libpod", "lxc"})
      if (cg->find(k) != std::string::npos) return k;
  if (c.env().count("container")) return c.env().at("container");
  return "host";
}

void add_container(Context& c, json& r) {
  std::string kind = container_kind(c);
  r["container.kind"] = reading(kind, "/.dockerenv, /run/.containerenv, /proc/1/cgroup, $container");
  const std::string src = "/run/.containerenv";
  auto ce = kind == "podman" ? c.machine.read_file(src) : std::nullopt;
  auto kv = ce ? key_values(*ce) : std::map<std::string, std::string>{};
  std::string why = kind == "host" ? "bare host, no container" : kind + " does not show the image inside the container";
  if (kv.count("image")) r["container.image"] = reading(kv["image"], src + " image");
  else r["container.image"] = absent(why, src);
  if (kv.count("imageid")) r["container.digest"] = reading(kv["imageid"], src + " imageid");
  else r["container.digest"] = absent(why, src);
  for (auto k : {"NVIDIA_PYTORCH_VERSION", "NVIDIA_VLLM_VERSION", "NVIDIA_BUILD_ID", "NVIDIA_PRODUCT_NAME", "CUDA_VERSION"})
    if (c.env().count(k)) r[std::string("container.env.") + k] = reading(c.env().at(k), std::string("$") + k);
}

const std::vector<std::string>& stack_packages() {
  static const std::vector<std::string> v = {"torch", "triton", "transformers", "vllm", "flash-attn", "unsloth", "deepspeed",
                                             "accelerate", "peft", "trl", "bitsandbytes", "xformers", "flashinfer-python",
                                             "nvidia-nccl-cu13", "nvidia-nccl-cu12"};
  return v;
}

void add_python(Context& c, json& r) {
  const PythonReport& p = c.python();
  if (!p.ok) {
    for (const char* k : {"python.version", "torch.version", "torch.cuda", "torch.arch_list", "nccl.torch"})
      r[k] = absent("interpreter " + p.interpreter + ": " + p.error, "python");
    return;
  }
  const json& d = p.data;
  if (d.contains("python") && d["python"].is_string()) r["python.version"] = reading(d["python"], "python sys.version");
  const std::string md = "importlib.metadata";
  for (const auto& name : stack_packages()) {
    std::string v = c.dist_version(name);
    r["package." + name] = reading(v.empty() ? "not installed" : v, name == "torch" && !v.empty() ? "torch.__version__" : md);
  }
  const json& t = c.torch();
  auto str = [&](const char* k) { return t.contains(k) && t[k].is_string(); };
  std::string no_torch = t.value("installed", false) ? t.value("import_error", std::string("torch did not report it")) : "torch not installed";
  r["torch.version"] = str("version") ? reading(t["version"], "torch.__version__") : absent(no_torch, "torch");
  r["torch.cuda"] = str("cuda") ? reading(t["cuda"], "torch.version.cuda") : absent(no_torch + " (or a CPU build)", "torch");
  r["torch.arch_list"] = t.contains("arch_list") && t["arch_list"].is_array() ? reading(t["arch_list"], "torch.cuda.get_arch_list()")
                                                                               : absent(no_torch, "torch");
  r["nccl.torch"] = str("nccl") ? reading(t["nccl"], "torch.cuda.nccl.version()")
                                : absent(t.value("nccl_error", no_torch), "torch.cuda.nccl.version()");
}

void add_nccl_library(Context& c, json& r) {
  NcclLibrary n = c.machine.nccl_library();
  const std::string src = "dlopen libnccl.so.2, ncclGetVersion";
  if (!n.ok) {
    r["nccl.loader"] = absent(n.error, src);
    return;
  }
  int major = n.version >= 10000 ? n.version / 10000 : n.version / 1000;
  int minor = n.version >= 10000 ? (n.version % 10000) / 100 : (n.version % 1000) / 100;
  int patch = n.version % 100;
  r["nccl.loader"] = reading(std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch), src);
}

bool rendezvous_var(const std::string& k) {
  static const std::set<std::string> exact = {"MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "NNODES", "NODE_RANK", "RANK",
                                              "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "PET_NNODES", "CUDA_VISIBLE_DEVICES",
                                              "VLLM_HOST_IP", "TP_SOCKET_IFNAME"};
  for (const char* p : {"NCCL_", "GLOO_", "UCX_", "TORCH_NCCL_", "OMPI_MCA_"})
    if (k.rfind(p, 0) == 0) return true;
  return exact.count(k) > 0;
}

void add_env(Context& c, json& r) {
  for (const auto& [k, v] : c.env())
    if (rendezvous_var(k) && k != "NCCL_VERSION") r["env." + k] = reading(v, "process environment");
  if (c.env().count("NCCL_VERSION")) r["nccl.image"] = reading(c.env().at("NCCL_VERSION"), "$NCCL_VERSION (set by the image)");
}

std::optional<std::string> sys_value(Machine& m, const std::string& path) {
  auto v = m.read_file(path);
  if (!v) return std::nullopt;
  return trimmed(*v);
}

void add_interface(Machine& m, const std::string& name, json& r) {
  const std::string dir = "/sys/class/net/" + name;
  const std::string key = "net." + name;
  if (auto s = sys_value(m, dir + "/operstate")) r[key + ".state"] = reading(*s, dir + "/operstate");
  if (auto s = sys_value(m, dir + "/mtu")) r[key + ".mtu"] = reading(lead_int(*s), dir + "/mtu");
  auto speed = sys_value(m, dir + "/speed");  // unreadable or -1 while the link is down
  if (speed && lead_int(*speed) > 0) r[key + ".speed_mbps"] = reading(lead_int(*speed), dir + "/speed");
  else r[key + ".speed_mbps"] = absent("no link speed (link down, virtual interface or unreadable)", dir + "/speed");
  if (auto s = sys_value(m, dir + "/address")) r[key + ".address"] = reading(*s, dir + "/address");
}

void add_network(Context& c, json& r) {
  auto& m = c.machine;
  auto names = m.list_dir("/sys/class/net");
  if (names.empty()) r["net"] = absent("/sys/class/net unreadable or empty", "/sys/class/net");
  size_t n = 0;
  for (const auto& name : names)
    if (name != "lo" && n++ < kMaxInterfaces) add_interface(m, name, r);
  for (const auto& dev : m.list_dir("/sys/class/infiniband")) {
    const std::string base = "/sys/class/infiniband/" + dev + "/ports";
    for (const auto& port : m.list_dir(base)) {
      const std::string key = "ib." + dev + "." + port;
      if (auto s = sys_value(m, base + "/" + port + "/state")) r[key + ".state"] = reading(*s, base + "/" + port + "/state");
      if (auto s = sys_value(m, base + "/" + port + "/rate")) r[key + ".rate"] = reading(*s, base + "/" + port + "/rate");
    }
  }
}

}  // namespace

json node_json(Context& c) {
  json r = json::object();
  r["hostname"] = reading(c.machine.hostname(), "gethostname");
  add_gpu(c, r);
  add_gpu_limits(c, r);
  add_memory(c, r);
  add_os(c, r);
  add_container(c, r);
  add_python(c, r);
  add_nccl_library(c, r);
  add_env(c, r);
  add_network(c, r);
  return r;
}

}  // namespace sc::probe

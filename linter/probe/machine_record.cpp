// SPDX-License-Identifier: Apache-2.0
// A Machine that passes every call to another one and keeps what it read, so
// a real run can be saved as a fixture (machine.json + root/) and replayed by
// FakeMachine. Used when SPARKCHECK_PROBE_RECORD=DIR is set. Environment
// variables are filtered to the ones the checks read (no secrets).
#include <filesystem>
#include <fstream>
#include <set>

#include "probe/machine.h"

namespace sc::probe {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool keep_env(const std::string& k) {
  static const std::set<std::string> exact = {"WORLD_SIZE", "LOCAL_WORLD_SIZE", "NNODES", "PET_NNODES", "NODE_RANK",
                                              "GROUP_RANK", "SLURM_NNODES", "SLURM_JOB_NUM_NODES", "MASTER_ADDR",
                                              "MASTER_PORT", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                              "VIRTUAL_ENV", "TRITON_PTXAS_PATH", "container", "CUDA_HOME",
                                              "CUDA_VERSION", "CUDA_VISIBLE_DEVICES", "RANK", "LOCAL_RANK", "VLLM_HOST_IP", "TP_SOCKET_IFNAME"};
  for (const char* p : {"NVIDIA_", "PYTORCH_", "OLLAMA_", "NCCL_", "TORCH_CUDA_ARCH", "GLOO_", "UCX_", "TORCH_NCCL_"})
    if (k.rfind(p, 0) == 0) return true;
  if (k == "NVIDIA_REQUIRE_CUDA") return false;  // long and unused
  return exact.count(k) > 0;
}

class RecordingMachine : public Machine {
 public:
  RecordingMachine(std::unique_ptr<Machine> inner, std::string dir) : m_(std::move(inner)), dir_(std::move(dir)) {}
  ~RecordingMachine() override { save(); }

  std::optional<std::string> read_file(const std::string& path) override {
    auto r = m_->read_file(path);
    if (r) files_[path] = *r;
    return r;
  }
  bool exists(const std::string& path) override {
    bool e = m_->exists(path);
    if (e && !files_.count(path)) files_[path] = "";
    return e;
  }
  std::vector<std::string> list_dir(const std::string& path) override { return m_->list_dir(path); }
  NcclLibrary nccl_library() override {
    auto n = m_->nccl_library();
    j_["nccl_library"] = {{"ok", n.ok}, {"error", n.error}, {"version", n.version}};
    return n;
  }
  std::vector<ProcInfo> processes() override {
    auto v = m_->processes();
    procs_ = v;
    return v;
  }
  std::map<std::string, std::string> environment() override {
    auto e = m_->environment();
    for (auto& [k, v] : e)
      if (keep_env(k)) j_["env"][k] = v;
    return e;
  }
  std::string hostname() override {
    std::string h = m_->hostname();
    j_["hostname"] = h;
    return h;
  }
  int self_pid() override {
    int p = m_->self_pid();
    j_["pid"] = p;
    return p;
  }
  GpuInfo gpu() override {
    GpuInfo g = m_->gpu();
    j_["gpu"] = {{"nvml", g.nvml}, {"nvml_error", g.nvml_error}, {"cuda", g.cuda}, {"cuda_error", g.cuda_error},
                 {"count", g.count}, {"name", g.name}, {"cc_major", g.cc_major}, {"cc_minor", g.cc_minor},
                 {"driver_version", g.driver_version}, {"cuda_driver_version", g.cuda_driver_version},
                 {"mem_total_gb", g.mem_total_gb}, {"mem_used_gb", g.mem_used_gb}, {"bus_width_bits", g.bus_width_bits},
                 {"max_mem_clock_mhz", g.max_mem_clock_mhz}, {"power_limit_w", g.power_limit_w}};
    return g;
  }
  std::vector<GpuSample> sample_gpu(double seconds) override {
    auto v = m_->sample_gpu(seconds);
    json a = json::array();
    for (auto& s : v) {
      json e = {{"t", s.t}, {"temp_c", s.temp_c}, {"power_w", s.power_w}, {"sm_clock_mhz", s.sm_clock_mhz},
                {"mem_clock_mhz", s.mem_clock_mhz}};
      if (s.reasons_known) e["reasons"] = s.reasons;
      a.push_back(e);
    }
    j_["samples"] = a;
    return v;
  }
  std::vector<GpuProcess> gpu_processes() override {
    auto v = m_->gpu_processes();
    json a = json::array();
    for (auto& p : v) a.push_back({{"pid", p.pid}, {"used_gb", p.used_gb}, {"kind", p.kind}});
    j_["gpu_processes"] = a;
    return v;
  }
  BandwidthResult measure_bandwidth() override {
    auto b = m_->measure_bandwidth();
    j_["bandwidth"] = {{"ok", b.ok}, {"error", b.error}, {"gbps", b.gbps}, {"buffer_gb", b.buffer_gb},
                       {"copies", b.copies}, {"seconds", b.seconds}};
    return b;
  }
  PythonReport python(const std::string& interpreter) override {
    auto p = m_->python(interpreter);
    j_["python"] = {{"ok", p.ok}, {"error", p.error}, {"data", p.data}};
    return p;
  }
  std::map<std::string, std::string> cuda_runtimes() override {
    auto r = m_->cuda_runtimes();
    j_["cuda_runtimes"] = r;
    return r;
  }
  KernelArches kernel_arches(const std::string& so_path) override {
    auto k = m_->kernel_arches(so_path);
    if (k.ok) j_["kernel_arches"][so_path] = {{"ok", true}, {"sass", k.sass}, {"ptx", k.ptx}};
    else j_["kernel_arches"][so_path] = {{"ok", false}, {"error", k.error}};
    return k;
  }

 private:
  void save() {
    std::error_code ec;
    fs::create_directories(dir_ + "/root", ec);
    auto write = [&](const std::string& rel, const std::string& text) {
      fs::path p = fs::path(dir_) / "root" / fs::path(rel).relative_path();
      fs::create_directories(p.parent_path(), ec);
      std::ofstream(p, std::ios::binary) << text;
    };
    for (auto& [path, text] : files_) write(path, text);
    // Only the processes the checks care about are kept (argv of each one).
    for (auto& p : procs_) {
      std::string joined, head;
      for (size_t i = 0; i < p.argv.size(); ++i) {
        joined += p.argv[i] + '\0';
        if (i < 3) head += p.argv[i] + ' ';
      }
      std::string exe = p.argv.empty() ? "" : p.argv[0].substr(p.argv[0].rfind('/') + 1);
      if (exe == "bash" || exe == "sh" || exe == "timeout" || exe == "env") continue;  // shells quote anything
      static const char* interesting[] = {"vllm", "sglang", "ollama", "tritonserver", "torchrun", "train", "accelerate",
                                          "deepspeed", "trtllm", "llama-server"};
      bool keep = false;
      for (auto w : interesting)
        if (head.find(w) != std::string::npos) keep = true;
      if (keep) write("/proc/" + std::to_string(p.pid) + "/cmdline", joined);
    }
    j_["recorded_processes_total"] = procs_.size();
    std::ofstream(dir_ + "/machine.json") << j_.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }

  std::unique_ptr<Machine> m_;
  std::string dir_;
  json j_ = json::object();
  std::map<std::string, std::string> files_;
  std::vector<ProcInfo> procs_;
};

}  // namespace

std::unique_ptr<Machine> make_recording_machine(std::unique_ptr<Machine> inner, const std::string& dir) {
  return std::make_unique<RecordingMachine>(std::move(inner), dir);
}

}  // namespace sc::probe

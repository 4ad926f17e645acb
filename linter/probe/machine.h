// SPDX-License-Identifier: Apache-2.0
// Everything `sparkcheck probe` reads from the machine goes through Machine.
// RealMachine reads the live system (files under a root, NVML and the CUDA
// driver through dlopen, the Python interpreter through posix_spawn);
// FakeMachine replays fixture data so every verdict path runs without a GPU.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sc::probe {

// One GPU as NVML and the CUDA driver describe it. Fields NVML cannot give
// (GB10 answers "not supported" for memory totals) stay at their defaults.
struct GpuInfo {
  bool nvml = false;            // NVML loaded and initialised
  std::string nvml_error;       // why not
  bool cuda = false;            // CUDA driver loaded and initialised
  std::string cuda_error;
  int count = 0;                // devices NVML sees
  std::string name;
  int cc_major = -1, cc_minor = -1;
  std::string driver_version;   // "580.95.05"
  int cuda_driver_version = 0;  // 13000 = CUDA 13.0
  double mem_total_gb = -1, mem_used_gb = -1;  // -1: not reported
  int bus_width_bits = 0;
  int max_mem_clock_mhz = 0;
  double power_limit_w = 0;
};

// One reading of the sensors (G4).
struct GpuSample {
  double t = 0;                 // seconds since the first sample
  int temp_c = -1;
  double power_w = -1;
  int sm_clock_mhz = -1, mem_clock_mhz = -1;
  unsigned long long reasons = 0;  // nvmlClocksEventReasons bit mask
  bool reasons_known = false;
};

// A process NVML lists on the GPU.
struct GpuProcess {
  int pid = 0;
  double used_gb = -1;          // -1: NVML reported no figure
  std::string kind;             // "compute" | "graphics"
};

// A process from the /proc scan (G6).
struct ProcInfo {
  int pid = 0;
  std::vector<std::string> argv;
  std::optional<std::map<std::string, std::string>> env;  // nullopt: environ unreadable
};

struct BandwidthResult {
  bool ok = false;
  std::string error;
  double gbps = 0;              // bytes read + bytes written per second / 1e9
  double buffer_gb = 0;
  int copies = 0;
  double seconds = 0;
};

// The JSON the embedded script printed, or why there is none.
struct PythonReport {
  bool ok = false;
  std::string interpreter;      // what was run
  std::string error;            // spawn failure, timeout, bad JSON...
  nlohmann::json data;
};

struct KernelArches {
  bool ok = false;              // cuobjdump ran
  std::string error;
  std::vector<std::string> sass;  // "sm_80", "sm_121a"
  std::vector<std::string> ptx;   // "sm_80" (PTX targets, printed as compute_XX)
};

// The NCCL library the dynamic loader finds (libnccl.so.2, ncclGetVersion), or why not.
struct NcclLibrary {
  bool ok = false;
  std::string error;
  int version = 0;              // 22803 = 2.28.3
};

class Machine {
 public:
  virtual ~Machine() = default;
  // A file below the probed root ("/proc/meminfo"); nullopt when unreadable.
  virtual std::optional<std::string> read_file(const std::string& path) = 0;
  virtual bool exists(const std::string& path) = 0;
  // The names in a directory below the probed root ("/sys/class/net"), sorted; empty when unreadable.
  virtual std::vector<std::string> list_dir(const std::string& path) = 0;
  virtual std::vector<ProcInfo> processes() = 0;
  virtual std::map<std::string, std::string> environment() = 0;  // the probe's own
  virtual std::string hostname() = 0;
  virtual int self_pid() = 0;
  virtual GpuInfo gpu() = 0;
  virtual std::vector<GpuSample> sample_gpu(double seconds) = 0;
  virtual std::vector<GpuProcess> gpu_processes() = 0;
  virtual BandwidthResult measure_bandwidth() = 0;
  virtual PythonReport python(const std::string& interpreter) = 0;
  // libcudart.so.N files the dynamic loader can find: "libcudart.so.13" -> where.
  virtual std::map<std::string, std::string> cuda_runtimes() = 0;
  // Which SASS/PTX targets a shared library's fat binaries carry (cuobjdump).
  virtual KernelArches kernel_arches(const std::string& so_path) = 0;
  // libnccl.so.2 through dlopen: its ncclGetVersion.
  virtual NcclLibrary nccl_library() = 0;
};

// The live machine; files are read below root_fs ("/" normally).
std::unique_ptr<Machine> make_real_machine(const std::string& root_fs);

// A machine described by a fixture directory: `machine.json` (GPU, samples,
// processes, bandwidth, python report, environment, runtimes, kernel arches)
// and `root/` (a fake tree of /proc, /sys, /etc...).
// `patch` (a JSON merge patch) is applied to machine.json, for test variants.
std::unique_ptr<Machine> make_fake_machine(const std::string& fixture_dir,
                                           const nlohmann::json& patch = nlohmann::json::object());

// Passes every call to `inner` and writes what it read to `dir` as a fixture
// that make_fake_machine replays (SPARKCHECK_PROBE_RECORD=DIR).
std::unique_ptr<Machine> make_recording_machine(std::unique_ptr<Machine> inner, const std::string& dir);

// Shared by both: reads /proc/<pid>/cmdline and environ below a root.
std::vector<ProcInfo> scan_proc(const std::string& root_fs, int skip_pid);
std::optional<std::string> read_below(const std::string& root_fs, const std::string& path);
std::vector<std::string> list_below(const std::string& root_fs, const std::string& path);

// Parsers of what the live machine's programs and files print (RealMachine uses them; the
// fuzz target fuzz_probe feeds them any bytes).
// The report in the interpreter's standard output: the JSON after the last "SPARKCHECK-JSON "
// tag, to the end of that line, into rep.data (rep.ok), or rep.error when it is unreadable.
// False when there is no tag at all.
bool parse_python_output(const std::string& out, PythonReport& rep);
// `cuobjdump --list-elf --list-ptx` output: its SASS and PTX targets, or why there are none.
KernelArches parse_cuobjdump(const std::string& out, const std::string& err, int exit_code);
// The libcudart.so.N paths in /etc/ld.so.cache (NUL-separated strings) not already in `out`.
void ld_cache_runtimes(const std::string& cache, std::map<std::string, std::string>& out);

// The interpreter the probe interrogates when --python is not given.
std::string default_python(const std::map<std::string, std::string>& env);

// The script run with `python -I -c` (prints one JSON object).
const std::string& python_probe_script();

}  // namespace sc::probe

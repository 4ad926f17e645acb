// SPDX-License-Identifier: Apache-2.0
// The live machine. NVML and the CUDA driver are loaded with dlopen at run
// time (no CUDA headers, no link dependency): without them the GPU methods
// report why, and the checks SKIP.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include "output/write_file.h"
#include "probe/machine.h"
#include "probe/spawn.h"

extern char** environ;

namespace sc::probe {

namespace {

namespace fs = std::filesystem;

// Importing torch takes seconds (5.4 s on the H200 test machine), longer on a cold cache.
constexpr double kPythonTimeout = 60;

// ---- NVML (the few entry points used, declared here) ----------------------
using nvmlDevice_t = void*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlProcessInfo_t {  // nvmlProcessInfo_v2_t layout, used by the _v3 calls
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};
constexpr unsigned long long kNvmlValueNotAvailable = ~0ULL;
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

struct Nvml {
  void* lib = nullptr;
  std::string error;
  nvmlDevice_t dev = nullptr;
  int (*Init)() = nullptr;
  int (*Shutdown)() = nullptr;
  const char* (*ErrorString)(int) = nullptr;
  int (*SystemGetDriverVersion)(char*, unsigned) = nullptr;
  int (*SystemGetCudaDriverVersion)(int*) = nullptr;
  int (*DeviceGetCount)(unsigned*) = nullptr;
  int (*DeviceGetHandleByIndex)(unsigned, nvmlDevice_t*) = nullptr;
  int (*DeviceGetName)(nvmlDevice_t, char*, unsigned) = nullptr;
  int (*DeviceGetCudaComputeCapability)(nvmlDevice_t, int*, int*) = nullptr;
  int (*DeviceGetMemoryInfo)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  int (*DeviceGetTemperature)(nvmlDevice_t, int, unsigned*) = nullptr;
  int (*DeviceGetPowerUsage)(nvmlDevice_t, unsigned*) = nullptr;
  int (*DeviceGetEnforcedPowerLimit)(nvmlDevice_t, unsigned*) = nullptr;
  int (*DeviceGetClockInfo)(nvmlDevice_t, int, unsigned*) = nullptr;
  int (*DeviceGetMaxClockInfo)(nvmlDevice_t, int, unsigned*) = nullptr;
  int (*DeviceGetClockReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  int (*DeviceGetMemoryBusWidth)(nvmlDevice_t, unsigned*) = nullptr;
  int (*DeviceGetComputeProcs)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*) = nullptr;
  int (*DeviceGetGraphicsProcs)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*) = nullptr;
  unsigned count = 0;

  template <class F>
  void sym(F& f, const char* name, const char* fallback = nullptr) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f && fallback) f = reinterpret_cast<F>(dlsym(lib, fallback));
  }
  std::string err(int rc) const {
    return ErrorString ? ErrorString(rc) : "NVML error " + std::to_string(rc);
  }

  bool open() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      error = std::string("libnvidia-ml.so.1 not loadable (") + (e ? e : "?") + ")";
      return false;
    }
    sym(Init, "nvmlInit_v2", "nvmlInit");
    sym(Shutdown, "nvmlShutdown");
    sym(ErrorString, "nvmlErrorString");
    sym(SystemGetDriverVersion, "nvmlSystemGetDriverVersion");
    sym(SystemGetCudaDriverVersion, "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
    sym(DeviceGetCount, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    sym(DeviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
    sym(DeviceGetName, "nvmlDeviceGetName");
    sym(DeviceGetCudaComputeCapability, "nvmlDeviceGetCudaComputeCapability");
    sym(DeviceGetMemoryInfo, "nvmlDeviceGetMemoryInfo");
    sym(DeviceGetTemperature, "nvmlDeviceGetTemperature");
    sym(DeviceGetPowerUsage, "nvmlDeviceGetPowerUsage");
    sym(DeviceGetEnforcedPowerLimit, "nvmlDeviceGetEnforcedPowerLimit");
    sym(DeviceGetClockInfo, "nvmlDeviceGetClockInfo");
    sym(DeviceGetMaxClockInfo, "nvmlDeviceGetMaxClockInfo");
    sym(DeviceGetClockReasons, "nvmlDeviceGetCurrentClocksEventReasons",
        "nvmlDeviceGetCurrentClocksThrottleReasons");
    sym(DeviceGetMemoryBusWidth, "nvmlDeviceGetMemoryBusWidth");
    sym(DeviceGetComputeProcs, "nvmlDeviceGetComputeRunningProcesses_v3",
        "nvmlDeviceGetComputeRunningProcesses_v2");
    sym(DeviceGetGraphicsProcs, "nvmlDeviceGetGraphicsRunningProcesses_v3",
        "nvmlDeviceGetGraphicsRunningProcesses_v2");
    if (!Init || !DeviceGetCount || !DeviceGetHandleByIndex) {
      error = "libnvidia-ml.so.1 lacks nvmlInit/nvmlDeviceGetCount";
      return false;
    }
    int rc = Init();
    if (rc != 0) {
      error = "nvmlInit failed: " + err(rc);
      return false;
    }
    rc = DeviceGetCount(&count);
    if (rc != 0 || count == 0) {
      error = rc ? "nvmlDeviceGetCount failed: " + err(rc) : "NVML sees no GPU";
      return false;
    }
    rc = DeviceGetHandleByIndex(0, &dev);
    if (rc != 0) {
      error = "nvmlDeviceGetHandleByIndex(0) failed: " + err(rc);
      return false;
    }
    return true;
  }
};

// ---- CUDA driver API ---------------------------------------------------------
using CUdeviceptr = unsigned long long;
using CUcontext = void*;
enum { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };

struct Cuda {
  void* lib = nullptr;
  std::string error;
  bool inited = false;
  int (*Init)(unsigned) = nullptr;
  int (*DriverGetVersion)(int*) = nullptr;
  int (*DeviceGet)(int*, int) = nullptr;
  int (*DeviceGetAttribute)(int*, int, int) = nullptr;
  int (*PrimaryCtxRetain)(CUcontext*, int) = nullptr;
  int (*PrimaryCtxRelease)(int) = nullptr;
  int (*CtxSetCurrent)(CUcontext) = nullptr;
  int (*CtxSynchronize)() = nullptr;
  int (*MemAlloc)(CUdeviceptr*, size_t) = nullptr;
  int (*MemFree)(CUdeviceptr) = nullptr;
  int (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  int (*MemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  int (*MemGetInfo)(size_t*, size_t*) = nullptr;
  int (*GetErrorString)(int, const char**) = nullptr;

  template <class F>
  void sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
  }
  std::string err(int rc) const {
    const char* s = nullptr;
    if (GetErrorString && GetErrorString(rc, &s) == 0 && s) return s;
    return "CUDA error " + std::to_string(rc);
  }
  bool open() {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      error = std::string("libcuda.so.1 not loadable (") + (e ? e : "?") + ")";
      return false;
    }
    sym(Init, "cuInit");
    sym(DriverGetVersion, "cuDriverGetVersion");
    sym(DeviceGet, "cuDeviceGet");
    sym(DeviceGetAttribute, "cuDeviceGetAttribute");
    sym(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    sym(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    sym(CtxSetCurrent, "cuCtxSetCurrent");
    sym(CtxSynchronize, "cuCtxSynchronize");
    sym(MemAlloc, "cuMemAlloc_v2");
    sym(MemFree, "cuMemFree_v2");
    sym(MemcpyDtoD, "cuMemcpyDtoD_v2");
    sym(MemsetD8, "cuMemsetD8_v2");
    sym(MemGetInfo, "cuMemGetInfo_v2");
    sym(GetErrorString, "cuGetErrorString");
    if (!Init || !DriverGetVersion || !DeviceGet || !DeviceGetAttribute) {
      error = "libcuda.so.1 lacks cuInit/cuDeviceGet";
      return false;
    }
    int rc = Init(0);
    if (rc != 0) {
      error = "cuInit failed: " + err(rc);
      return false;
    }
    inited = true;
    return true;
  }
};

std::string env_get(const char* k) {
  const char* v = std::getenv(k);
  return v ? v : "";
}

std::vector<std::string> split_path(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(':', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string find_program(const std::string& name, const std::vector<std::string>& extra_dirs) {
  std::vector<std::string> dirs;
  for (auto& d : split_path(env_get("PATH"))) dirs.push_back(d);
  for (auto& d : extra_dirs) dirs.push_back(d);
  for (auto& d : dirs) {
    if (d.empty()) continue;
    std::string p = d + "/" + name;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

class RealMachine : public Machine {
 public:
  explicit RealMachine(std::string root) : root_(std::move(root)) {}
  ~RealMachine() override {
    if (nvml_opened_ && nvml_.Shutdown && nvml_.error.empty()) nvml_.Shutdown();
  }

  std::optional<std::string> read_file(const std::string& path) override { return read_below(root_, path); }
  bool exists(const std::string& path) override {
    std::error_code ec;
    return fs::exists(root_ == "/" ? path : root_ + path, ec);
  }
  std::vector<ProcInfo> processes() override { return scan_proc(root_, self_pid()); }
  std::map<std::string, std::string> environment() override {
    std::map<std::string, std::string> m;
    for (char** e = environ; e && *e; ++e) {
      std::string kv = *e;
      size_t eq = kv.find('=');
      if (eq != std::string::npos) m[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return m;
  }
  std::string hostname() override {
    char b[256] = {0};
    if (gethostname(b, sizeof b - 1) != 0) return "localhost";
    return b;
  }
  int self_pid() override { return static_cast<int>(getpid()); }

  Nvml& nvml() {
    if (!nvml_opened_) {
      nvml_opened_ = true;
      if (!nvml_.open()) nvml_.dev = nullptr;
    }
    return nvml_;
  }
  Cuda& cuda() {
    if (!cuda_opened_) {
      cuda_opened_ = true;
      cuda_.open();
    }
    return cuda_;
  }

  GpuInfo gpu() override {
    GpuInfo g;
    Nvml& n = nvml();
    g.nvml = n.dev != nullptr;
    g.nvml_error = n.error;
    if (g.nvml) {
      g.count = static_cast<int>(n.count);
      char buf[256] = {0};
      if (n.DeviceGetName && n.DeviceGetName(n.dev, buf, sizeof buf) == 0) g.name = buf;
      if (n.SystemGetDriverVersion && n.SystemGetDriverVersion(buf, sizeof buf) == 0) g.driver_version = buf;
      int v = 0;
      if (n.SystemGetCudaDriverVersion && n.SystemGetCudaDriverVersion(&v) == 0) g.cuda_driver_version = v;
      int ma = -1, mi = -1;
      if (n.DeviceGetCudaComputeCapability && n.DeviceGetCudaComputeCapability(n.dev, &ma, &mi) == 0) {
        g.cc_major = ma;
        g.cc_minor = mi;
      }
      nvmlMemory_t mem{};
      if (n.DeviceGetMemoryInfo && n.DeviceGetMemoryInfo(n.dev, &mem) == 0 && mem.total > 0) {
        g.mem_total_gb = static_cast<double>(mem.total) / 1e9;
        g.mem_used_gb = static_cast<double>(mem.used) / 1e9;
      }
      unsigned u = 0;
      if (n.DeviceGetMemoryBusWidth && n.DeviceGetMemoryBusWidth(n.dev, &u) == 0) g.bus_width_bits = static_cast<int>(u);
      if (n.DeviceGetMaxClockInfo && n.DeviceGetMaxClockInfo(n.dev, NVML_CLOCK_MEM, &u) == 0)
        g.max_mem_clock_mhz = static_cast<int>(u);
      if (n.DeviceGetEnforcedPowerLimit && n.DeviceGetEnforcedPowerLimit(n.dev, &u) == 0) g.power_limit_w = u / 1000.0;
    }
    Cuda& c = cuda();
    g.cuda = c.inited;
    g.cuda_error = c.error;
    if (c.DriverGetVersion) {
      int v = 0;
      if (c.DriverGetVersion(&v) == 0 && v > 0) g.cuda_driver_version = v;
    }
    if (c.inited && g.cc_major < 0) {
      int dev = 0, ma = -1, mi = -1;
      if (c.DeviceGet(&dev, 0) == 0 &&
          c.DeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == 0 &&
          c.DeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == 0) {
        g.cc_major = ma;
        g.cc_minor = mi;
      }
    }
    return g;
  }

  std::vector<GpuSample> sample_gpu(double seconds) override {
    std::vector<GpuSample> out;
    Nvml& n = nvml();
    if (!n.dev) return out;
    auto t0 = std::chrono::steady_clock::now();
    const double step = 0.25;
    int count = std::max(2, static_cast<int>(seconds / step) + 1);
    for (int i = 0; i < count; ++i) {
      GpuSample s;
      s.t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      unsigned u = 0;
      if (n.DeviceGetTemperature && n.DeviceGetTemperature(n.dev, 0, &u) == 0) s.temp_c = static_cast<int>(u);
      if (n.DeviceGetPowerUsage && n.DeviceGetPowerUsage(n.dev, &u) == 0) s.power_w = u / 1000.0;
      if (n.DeviceGetClockInfo && n.DeviceGetClockInfo(n.dev, NVML_CLOCK_SM, &u) == 0) s.sm_clock_mhz = static_cast<int>(u);
      if (n.DeviceGetClockInfo && n.DeviceGetClockInfo(n.dev, NVML_CLOCK_MEM, &u) == 0) s.mem_clock_mhz = static_cast<int>(u);
      unsigned long long r = 0;
      if (n.DeviceGetClockReasons && n.DeviceGetClockReasons(n.dev, &r) == 0) {
        s.reasons = r;
        s.reasons_known = true;
      }
      out.push_back(s);
      if (i + 1 < count) {
        auto next = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(step * (i + 1)));
        std::this_thread::sleep_until(next);
      }
    }
    return out;
  }

  std::vector<GpuProcess> gpu_processes() override {
    std::vector<GpuProcess> out;
    Nvml& n = nvml();
    if (!n.dev) return out;
    auto collect = [&](auto fn, const char* kind) {
      if (!fn) return;
      unsigned cnt = 0;
      std::vector<nvmlProcessInfo_t> v(64);
      cnt = static_cast<unsigned>(v.size());
      if (fn(n.dev, &cnt, v.data()) != 0) return;
      for (unsigned i = 0; i < cnt && i < v.size(); ++i) {
        GpuProcess p;
        p.pid = static_cast<int>(v[i].pid);
        p.used_gb = v[i].usedGpuMemory == kNvmlValueNotAvailable ? -1 : v[i].usedGpuMemory / 1e9;
        p.kind = kind;
        out.push_back(p);
      }
    };
    collect(n.DeviceGetComputeProcs, "compute");
    collect(n.DeviceGetGraphicsProcs, "graphics");
    return out;
  }

  BandwidthResult measure_bandwidth() override {
    BandwidthResult r;
    Cuda& c = cuda();
    if (!c.inited) {
      r.error = c.error.empty() ? "CUDA driver not initialised" : c.error;
      return r;
    }
    if (!c.PrimaryCtxRetain || !c.CtxSetCurrent || !c.MemAlloc || !c.MemcpyDtoD || !c.CtxSynchronize) {
      r.error = "libcuda.so.1 lacks the memory entry points";
      return r;
    }
    int dev = 0;
    CUcontext ctx = nullptr;
    int rc = c.DeviceGet(&dev, 0);
    if (rc == 0) rc = c.PrimaryCtxRetain(&ctx, dev);
    if (rc == 0) rc = c.CtxSetCurrent(ctx);
    if (rc != 0) {
      r.error = "no CUDA context: " + c.err(rc);
      return r;
    }
    size_t free_b = 0, total_b = 0;
    size_t bytes = size_t(1) << 30;  // 1 GiB a buffer
    if (c.MemGetInfo && c.MemGetInfo(&free_b, &total_b) == 0 && free_b / 8 < bytes)
      bytes = std::max<size_t>(size_t(64) << 20, free_b / 8);
    CUdeviceptr a = 0, b = 0;
    rc = c.MemAlloc(&a, bytes);
    if (rc == 0) rc = c.MemAlloc(&b, bytes);
    if (rc == 0 && c.MemsetD8) rc = c.MemsetD8(a, 1, bytes);
    if (rc == 0) rc = c.CtxSynchronize();
    if (rc == 0) {
      for (int i = 0; i < 3 && rc == 0; ++i) rc = c.MemcpyDtoD(b, a, bytes);  // warm-up
      if (rc == 0) rc = c.CtxSynchronize();
    }
    double best = 0, secs = 0;
    int copies = 0;
    if (rc == 0) {
      // Batches of copies, each timed after a synchronise; keep the best batch.
      int batch = 10;
      for (int round = 0; round < 8 && rc == 0; ++round) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < batch && rc == 0; ++i) rc = (i % 2) ? c.MemcpyDtoD(a, b, bytes) : c.MemcpyDtoD(b, a, bytes);
        if (rc == 0) rc = c.CtxSynchronize();
        double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) break;
        copies += batch;
        secs += dt;
        double gbps = 2.0 * static_cast<double>(bytes) * batch / dt / 1e9;
        if (dt > 0.05) best = std::max(best, gbps);
        if (dt < 0.1) batch *= 2;  // too short to time well
      }
    }
    if (rc != 0) r.error = "copy failed: " + c.err(rc);
    if (b) c.MemFree(b);
    if (a) c.MemFree(a);
    if (c.PrimaryCtxRelease) c.PrimaryCtxRelease(dev);
    if (rc == 0 && best > 0) {
      r.ok = true;
      r.gbps = best;
      r.buffer_gb = static_cast<double>(bytes) / 1e9;
      r.copies = copies;
      r.seconds = secs;
    } else if (r.error.empty()) {
      r.error = "copies too fast to time";
    }
    return r;
  }

  PythonReport python(const std::string& interpreter) override {
    PythonReport rep;
    rep.interpreter = interpreter;
    // An empty directory outside the project, so nothing there can be imported.
    std::string tmpl = (fs::temp_directory_path() / "sparkcheck-probe-XXXXXX").string();
    std::vector<char> t(tmpl.begin(), tmpl.end());
    t.push_back('\0');
    const char* dir = mkdtemp(t.data());
    std::string cwd = dir ? dir : "/";
    int slot = dir ? remove_on_signal(cwd) : -1;
    auto res = spawn_capture({interpreter, "-I", "-c", python_probe_script()}, cwd, kPythonTimeout);
    if (dir) rmdir(dir);
    forget_on_signal(slot);
    if (!res.started) {
      rep.error = res.error;
      return rep;
    }
    if (res.timed_out) {
      rep.error = "no answer within " + std::to_string(static_cast<int>(kPythonTimeout)) + " s (killed)";
      return rep;
    }
    if (!parse_python_output(res.out, rep)) {
      std::string tail = res.err.size() > 300 ? res.err.substr(res.err.size() - 300) : res.err;
      rep.error = "exited " + std::to_string(res.exit_code) + " without a report" +
                  (tail.empty() ? "" : ": " + tail);
    }
    return rep;
  }

  std::map<std::string, std::string> cuda_runtimes() override {
    std::map<std::string, std::string> out;
    static const std::regex name_re(R"(libcudart\.so\.(\d+)$)");
    if (auto cache = read_file("/etc/ld.so.cache")) ld_cache_runtimes(*cache, out);
    std::vector<std::string> dirs = split_path(env_get("LD_LIBRARY_PATH"));
    for (const char* d : {"/usr/local/cuda/lib64", "/usr/local/cuda/targets/sbsa-linux/lib",
                          "/usr/local/cuda/targets/x86_64-linux/lib"})
      dirs.push_back(d);
    for (auto& d : dirs) {
      std::error_code ec;
      std::string real = root_ == "/" ? d : root_ + d;
      if (d.empty() || !fs::is_directory(real, ec)) continue;
      for (auto& e : fs::directory_iterator(real, ec)) {
        std::string base = e.path().filename().string();
        std::smatch m;
        if (std::regex_search(base, m, name_re) && !out.count(base)) out[base] = d + "/" + base;
      }
    }
    return out;
  }

  KernelArches kernel_arches(const std::string& so_path) override {
    KernelArches k;
    std::string cuda_home = env_get("CUDA_HOME");
    std::vector<std::string> extra = {"/usr/local/cuda/bin"};
    if (!cuda_home.empty()) extra.insert(extra.begin(), cuda_home + "/bin");
    std::string tool = find_program("cuobjdump", extra);
    if (tool.empty()) {
      k.error = "cuobjdump not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)";
      return k;
    }
    auto res = spawn_capture({tool, "--list-elf", "--list-ptx", so_path}, "", 60);
    if (!res.started || res.timed_out) {
      k.error = res.timed_out ? "cuobjdump timed out" : res.error;
      return k;
    }
    return parse_cuobjdump(res.out, res.err, res.exit_code);
  }

  std::vector<std::string> list_dir(const std::string& path) override { return list_below(root_, path); }

  NcclLibrary nccl_library() override {
    NcclLibrary n;
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      n.error = e ? e : "libnccl.so.2 not loadable";
      return n;
    }
    using GetVersion = int (*)(int*);
    auto fn = reinterpret_cast<GetVersion>(dlsym(lib, "ncclGetVersion"));
    if (!fn) n.error = "libnccl.so.2 has no ncclGetVersion";
    else if (fn(&n.version) != 0) n.error = "ncclGetVersion failed";
    else n.ok = true;
    dlclose(lib);
    return n;
  }

 private:
  std::string root_;
  Nvml nvml_;
  Cuda cuda_;
  bool nvml_opened_ = false, cuda_opened_ = false;
};

}  // namespace

std::unique_ptr<Machine> make_real_machine(const std::string& root_fs) {
  return std::make_unique<RealMachine>(root_fs.empty() ? "/" : root_fs);
}

}  // namespace sc::probe

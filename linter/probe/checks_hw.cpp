// SPDX-License-Identifier: Apache-2.0
// Checks that read the hardware: G3 (memory), G4 (thermals), G5 (bandwidth),
// G6 (neighbours on the GPU).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <sstream>

#include "probe/checks.h"
#include "core/path_names.h"

namespace sc::probe {

namespace {

using nlohmann::json;



}  // namespace

// ---- G3 ----------------------------------------------------------------------
CheckResult check_g3(Context& c) {
  CheckResult r{"G3"};
  auto text = c.machine.read_file("/proc/meminfo");
  if (!text) {
    r.verdict = Verdict::Skip;
    r.message = "/proc/meminfo not readable";
    return r;
  }
  std::map<std::string, double> kb;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    kb[line.substr(0, colon)] = lead_double(std::string_view(line).substr(colon + 1));
  }
  if (!kb.count("MemTotal")) {
    r.verdict = Verdict::Skip;
    r.message = "/proc/meminfo has no MemTotal";
    return r;
  }
  auto gb = [&](const char* k) { return kb.count(k) ? kb[k] * 1024.0 / 1e9 : 0.0; };
  double total = gb("MemTotal"), free = gb("MemFree");
  double avail = kb.count("MemAvailable") ? gb("MemAvailable") : free + gb("Cached");
  double cache = std::max(0.0, gb("Cached") + gb("Buffers") - gb("Shmem"));
  double huge = kb.count("HugePages_Total") ? kb["HugePages_Total"] * gb("Hugepagesize") : 0.0;
  double huge_free = kb.count("HugePages_Free") ? kb["HugePages_Free"] * gb("Hugepagesize") : 0.0;
  r.readings = {{"total_gb", total}, {"free_gb", free}, {"available_gb", avail}, {"page_cache_gb", cache},
                {"hugepages_gb", huge}, {"hugepages_free_gb", huge_free}, {"need_gb", c.opt.need_gb}};
  std::string reading = "available " + fmt(avail) + " of " + fmt(total) + " GB, free " + fmt(free) + " GB, page cache " +
                        fmt(cache) + " GB" + (huge > 0 ? ", huge pages " + fmt(huge) + " GB reserved (" + fmt(huge_free) + " free)" : "");
  const std::string reset = "reset between runs: sync; echo 3 | sudo tee /proc/sys/vm/drop_caches (root, flushes every process's cache)";
  if (!c.gb10()) {
    r.verdict = Verdict::Info;
    const auto& g = c.gpu();
    r.message = reading + " (host RAM, from /proc/meminfo)" +
                (g.mem_total_gb > 0 ? "; the GPU has its own " + fmt(g.mem_total_gb) + " GB" : "") +
                "; the unified-memory page-cache trap applies to GB10 only";
    return r;
  }
  std::string uma = " (one pool shared by CPU and GPU; NVML " +
                    std::string(c.gpu().mem_total_gb > 0 ? "reports " + fmt(c.gpu().mem_total_gb) + " GB" : "reports no memory total") + ")";
  double need = c.opt.need_gb;
  if (need <= 0) {
    r.verdict = Verdict::Info;
    r.message = reading + uma + "; pass --need-gb N to judge a load";
    return r;
  }
  if (need > avail) {
    r.verdict = Verdict::Fail;
    r.message = "need " + fmt(need) + " GB but only " + fmt(avail) + " GB is available even with the page cache dropped; " +
                reading + "; stop other jobs (G6)";
    return r;
  }
  if (need > free) {
    r.verdict = Verdict::Warn;
    r.message = "need " + fmt(need) + " GB, free " + fmt(free) + " GB: the rest sits in " + fmt(cache) +
                " GB of page cache that CUDA allocations on unified memory may not reclaim in time (OOM below 128 GB); " + reset;
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = "need " + fmt(need) + " GB fits in " + fmt(free) + " GB free without reclaiming the page cache; " + reading;
  return r;
}

// ---- G4 ----------------------------------------------------------------------
namespace {

// The sensor samples of G4 as series, plus the readings' JSON.
struct Series {
  std::vector<double> power;
  std::vector<int> temp, sm;
  unsigned long long reasons = 0;
  bool reasons_known = false;
  json json_samples = json::array();
};

template <class Samples>
Series series(const Samples& samples) {
  Series ser;
  for (auto& s : samples) {
    if (s.power_w >= 0) ser.power.push_back(s.power_w);
    if (s.temp_c >= 0) ser.temp.push_back(s.temp_c);
    if (s.sm_clock_mhz >= 0) ser.sm.push_back(s.sm_clock_mhz);
    if (s.reasons_known) {
      ser.reasons |= s.reasons;
      ser.reasons_known = true;
    }
    ser.json_samples.push_back({{"t", s.t}, {"temp_c", s.temp_c}, {"power_w", s.power_w}, {"sm_clock_mhz", s.sm_clock_mhz},
                                {"mem_clock_mhz", s.mem_clock_mhz}, {"reasons", s.reasons}});
  }
  return ser;
}

// NVML clock-event reason bits that mean throttling, by name.
std::vector<std::string> throttle_reasons(unsigned long long reasons) {
  struct Bit { unsigned long long bit; const char* name; };
  static const Bit bits[] = {{0x4, "sw-power-cap"}, {0x8, "hw-slowdown"}, {0x20, "sw-thermal"},
                             {0x40, "hw-thermal"}, {0x80, "hw-power-brake"}};
  std::vector<std::string> active;
  for (auto& b : bits)
    if (reasons & b.bit) active.push_back(b.name);
  return active;
}

}  // namespace

CheckResult check_g4(Context& c) {
  CheckResult r{"G4"};
  const auto& g = c.gpu();
  if (!g.nvml) {
    r.verdict = Verdict::Skip;
    r.message = "NVML unavailable: " + g.nvml_error;
    return r;
  }
  auto samples = c.machine.sample_gpu(c.opt.sample_seconds);
  if (samples.empty()) {
    r.verdict = Verdict::Skip;
    r.message = "NVML returned no sensor readings";
    return r;
  }
  Series ser = series(samples);
  const auto& power = ser.power;
  const auto& temp = ser.temp;
  const auto& sm = ser.sm;
  unsigned long long reasons = ser.reasons;
  bool reasons_known = ser.reasons_known;
  json js = ser.json_samples;
  r.readings["samples"] = js;
  r.readings["power_limit_w"] = g.power_limit_w;
  double secs = samples.back().t - samples.front().t;
  std::vector<std::string> parts;
  if (!temp.empty()) parts.push_back("temperature " + std::to_string(temp.front()) + "->" + std::to_string(temp.back()) + " C");
  double pmean = 0, pmin = 0, pmax = 0;
  if (!power.empty()) {
    pmean = std::accumulate(power.begin(), power.end(), 0.0) / power.size();
    pmin = *std::min_element(power.begin(), power.end());
    pmax = *std::max_element(power.begin(), power.end());
    parts.push_back("power " + fmt(pmean) + " W (" + fmt(pmin) + "-" + fmt(pmax) + ")" +
                    (g.power_limit_w > 0 ? " of " + fmt(g.power_limit_w, 0) + " W limit" : ""));
  }
  if (!sm.empty())
    parts.push_back("SM clock " + std::to_string(*std::min_element(sm.begin(), sm.end())) + "-" +
                    std::to_string(*std::max_element(sm.begin(), sm.end())) + " MHz");
  std::string reading = join(parts) + " over " + fmt(secs) + " s (" + std::to_string(samples.size()) + " samples)";
  std::vector<std::string> active = throttle_reasons(reasons);
  r.readings["throttle_reasons"] = active;
  if (!active.empty()) {
    r.verdict = Verdict::Warn;
    r.message = "throttling: " + join(active) + "; " + reading;
    return r;
  }
  bool rising = temp.size() >= 2 && temp.back() - temp.front() >= 2;
  if (c.gb10() && !power.empty() && pmean >= 85 && pmean <= 115 && pmax - pmin <= 15 && rising) {
    r.verdict = Verdict::Warn;
    r.message = "power plateaus near 100 W while temperature climbs: GB10's sustained cap (rated 240 W); " + reading +
                "; improve cooling or plan shorter runs";
    return r;
  }
  r.verdict = Verdict::Info;
  r.message = reading + (reasons_known ? "; no thermal or power throttle reason" : "; throttle reasons not reported") +
              (c.gb10() ? "" : "; the ~100 W plateau pattern is GB10's and is not judged here") +
              (secs < 60 ? "; a short sample cannot show throttling under sustained load: sample during a run with "
                           "--sample-seconds 600"
                         : "");
  return r;
}

// ---- G5 ----------------------------------------------------------------------
namespace {

// Other processes holding GPU memory ("pid 123 4.0 GB"), a desktop's small graphics clients left out.
std::vector<std::string> other_gpu_processes(Context& c) {
  int self = c.machine.self_pid();
  std::vector<std::string> others;
  for (auto& p : c.machine.gpu_processes()) {
    if (p.pid == self || p.used_gb == 0) continue;
    if (p.kind == "graphics" && p.used_gb < 1) continue;  // a desktop's X server / compositor
    others.push_back("pid " + std::to_string(p.pid) + (p.used_gb > 0 ? " " + fmt(p.used_gb) + " GB" : ""));
  }
  return others;
}

}  // namespace

CheckResult check_g5(Context& c) {
  CheckResult r{"G5"};
  if (!c.opt.intrusive && !c.explicit_g5) {
    r.verdict = Verdict::Skip;
    r.message = "intrusive (allocates two 1 GiB buffers and copies for about a second): run `sparkcheck probe G5` "
                "or pass --intrusive on an idle machine";
    return r;
  }
  const auto& g = c.gpu();
  if (!g.cuda) {
    r.verdict = Verdict::Skip;
    r.message = "CUDA driver unavailable: " + g.cuda_error;
    return r;
  }
  std::vector<std::string> others = other_gpu_processes(c);
  r.readings["other_gpu_processes"] = others;
  if (!others.empty() && !c.opt.force) {
    r.verdict = Verdict::Skip;
    r.message = "refused: other processes hold GPU memory (" + join(others) +
                "); the reading would be wrong" +
                (c.gb10() ? std::string(" and on unified memory the buffers compete with theirs") : std::string()) +
                "; --force to run anyway";
    return r;
  }
  auto b = c.machine.measure_bandwidth();
  if (!b.ok) {
    r.verdict = Verdict::Skip;
    r.message = "bandwidth not measured: " + b.error;
    return r;
  }
  r.readings = {{"gbps", b.gbps}, {"buffer_gb", b.buffer_gb}, {"copies", b.copies}, {"seconds", b.seconds},
                {"other_gpu_processes", others}};
  std::string head = "device-to-device copy " + fmt(b.gbps) + " GB/s (read+write, " + std::to_string(b.copies) +
                     " copies of " + fmt(b.buffer_gb, 2) + " GB" + (others.empty() ? "" : ", forced beside " + join(others)) + ")";
  if (c.gb10()) {
    r.readings["expected_gbps"] = {180, 192};
    if (b.gbps >= 162) {
      r.verdict = Verdict::Info;
      r.message = head + ": GB10 sustains 180-192; spec 273 is a ceiling, budget throughput from the measured figure";
    } else {
      r.verdict = Verdict::Warn;
      r.message = head + ": below GB10's measured 180-192 GB/s; look for a neighbour (G6) or throttling (G4)";
    }
    return r;
  }
  double peak = g.bus_width_bits > 0 && g.max_mem_clock_mhz > 0
                    ? g.bus_width_bits / 8.0 * g.max_mem_clock_mhz * 2.0 / 1000.0
                    : 0;
  if (peak <= 0) {
    r.verdict = Verdict::Info;
    r.message = head + "; NVML gives no bus width or memory clock to compare with; GB10's 180-192 GB/s does not apply";
    return r;
  }
  double ratio = b.gbps / peak;
  r.readings["peak_gbps"] = peak;
  r.readings["fraction_of_peak"] = ratio;
  std::string cmp = head + " = " + fmt(ratio * 100, 0) + "% of " + fmt(peak, 0) + " GB/s peak from NVML (" +
                    std::to_string(g.bus_width_bits) + "-bit x " + std::to_string(g.max_mem_clock_mhz) + " MHz x 2)";
  if (ratio >= 0.6) {
    r.verdict = Verdict::Info;
    r.message = cmp + "; GB10's 180-192 GB/s figure does not apply to capability " + c.capability();
  } else {
    r.verdict = Verdict::Warn;
    r.message = cmp + ": under 60% of peak; look for a neighbour (G6) or throttling (G4)";
  }
  return r;
}

// ---- G6 ----------------------------------------------------------------------
namespace {

struct Neighbour {
  int pid;
  std::string kind;
  std::optional<double> cap;  // fraction of the memory pool
  std::string cap_note;       // how the cap was read, or why it is unknown
  double used_gb = -1;
  bool from_nvml_only = false;
  std::string gpu_kind;
};

std::optional<std::string> flag_value(const std::vector<std::string>& argv, const std::string& flag) {
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == flag && i + 1 < argv.size()) return argv[i + 1];
    if (argv[i].rfind(flag + "=", 0) == 0) return argv[i].substr(flag.size() + 1);
  }
  return std::nullopt;
}

bool any_contains(const std::vector<std::string>& argv, const std::string& s, size_t from = 0) {
  for (size_t i = from; i < argv.size(); ++i)
    if (argv[i].find(s) != std::string::npos) return true;
  return false;
}

std::optional<Neighbour> classify(const ProcInfo& p) {
  if (p.argv.empty()) return std::nullopt;
  std::string exe = base_name(p.argv[0]);
  bool py = exe.rfind("python", 0) == 0;
  Neighbour n{p.pid, "", std::nullopt, "", -1, false, ""};
  auto cap_flag = [&](const std::string& flag, const std::string& dflt_note) {
    if (auto v = flag_value(p.argv, flag)) {
      n.cap = lead_double(*v);
      n.cap_note = flag + " " + *v;
    } else {
      n.cap_note = "no " + flag + " (" + dflt_note + ")";
    }
  };
  if (exe == "vllm" || any_contains(p.argv, "vllm.entrypoints") || (py && any_contains(p.argv, "vllm"))) {
    n.kind = "vllm";
    cap_flag("--gpu-memory-utilization", "default 0.9; NGC notes it behaves like 1.0 on unified memory");
  } else if (exe == "sglang" || any_contains(p.argv, "sglang.launch_server") ||
             (py && p.argv.size() > 2 && p.argv[1] == "-m" && p.argv[2].rfind("sglang", 0) == 0)) {
    n.kind = "sglang";
    cap_flag("--mem-fraction-static", "sized automatically");
  } else if (exe == "ollama") {
    n.kind = "ollama";
    if (!p.env) {
      n.cap_note = "OLLAMA_* settings unreadable without root (its environ belongs to another user)";
    } else {
      std::vector<std::string> kv;
      for (auto& [k, v] : *p.env)
        if (k.rfind("OLLAMA_", 0) == 0) kv.push_back(k + "=" + v);
      n.cap_note = "no memory fraction cap" + (kv.empty() ? std::string() : " (" + join(kv) + ")");
    }
  } else if (exe == "tritonserver") {
    n.kind = "tritonserver";
    n.cap_note = "no pool-wide cap (per-backend settings)";
  } else if (exe == "trtllm-serve" || any_contains(p.argv, "trtllm-serve")) {
    n.kind = "trtllm-serve";
    cap_flag("--kv_cache_free_gpu_memory_fraction", "default 0.9");
  } else if (exe == "llama-server") {
    n.kind = "llama-server";
    n.cap_note = "no memory cap";
  } else if (exe == "torchrun" || any_contains(p.argv, "torch.distributed.run") ||
             ((exe == "accelerate" || any_contains(p.argv, "accelerate")) && any_contains(p.argv, "launch")) ||
             exe == "deepspeed") {
    n.kind = exe == "deepspeed" ? "deepspeed" : (exe == "accelerate" ? "accelerate" : "torchrun");
    n.cap_note = "trainer: no memory cap";
  } else if (py && any_contains(p.argv, "train", 1)) {
    n.kind = "python trainer";
    n.cap_note = "trainer: no memory cap";
  } else {
    return std::nullopt;
  }
  return n;
}

}  // namespace

CheckResult check_g6(Context& c) {
  CheckResult r{"G6"};
  const auto& g = c.gpu();
  int self = c.machine.self_pid();
  std::vector<GpuProcess> gp;
  if (g.nvml) gp = c.machine.gpu_processes();
  const auto& procs = c.processes();
  if (!g.nvml && procs.empty()) {
    r.verdict = Verdict::Skip;
    r.message = "neither NVML (" + g.nvml_error + ") nor /proc is readable";
    return r;
  }
  std::vector<Neighbour> ns;
  std::map<int, const ProcInfo*> by_pid;
  for (auto& p : procs) {
    by_pid[p.pid] = &p;
    if (p.pid == self) continue;
    if (auto n = classify(p)) ns.push_back(*n);
  }
  // NVML's view: attach memory to known neighbours, add the ones the scan missed.
  for (auto& p : gp) {
    if (p.pid == self) continue;
    auto it = std::find_if(ns.begin(), ns.end(), [&](const Neighbour& n) { return n.pid == p.pid; });
    if (it != ns.end()) {
      it->used_gb = p.used_gb;
      continue;
    }
    Neighbour n{p.pid, "gpu process", std::nullopt,
                p.kind + " process, " + (p.used_gb >= 0 ? "cap unknown" : "memory not reported"), -1, true, p.kind};
    n.from_nvml_only = true;
    n.gpu_kind = p.kind;
    if (by_pid.count(p.pid) && !by_pid[p.pid]->argv.empty()) n.kind = base_name(by_pid[p.pid]->argv[0]);
    n.used_gb = p.used_gb;
    ns.push_back(n);
  }
  bool gb10 = c.gb10();
  double pool = gb10 ? 0 : g.mem_total_gb;
  if (gb10) {
    if (auto mi = c.machine.read_file("/proc/meminfo")) {
      size_t at = mi->find("MemTotal:");
      if (at != std::string::npos) pool = lead_double(std::string_view(*mi).substr(at + 9)) * 1024 / 1e9;
    }
  }
  json arr = json::array();
  std::vector<std::string> heavy, light;
  for (auto& n : ns) {
    bool near_full;
    if (n.cap) near_full = *n.cap > 0.5;
    else if (n.from_nvml_only) near_full = n.used_gb >= 0 && pool > 0 ? n.used_gb > 0.5 * pool : n.gpu_kind != "graphics";
    else near_full = true;  // a server or trainer with no cap takes what it can
    std::string d = n.kind + " pid " + std::to_string(n.pid) + " (" + n.cap_note +
                    (n.used_gb >= 0 ? ", " + fmt(n.used_gb) + " GB on the GPU" : "") + ")";
    (near_full ? heavy : light).push_back(d);
    arr.push_back({{"pid", n.pid}, {"kind", n.kind}, {"cap", n.cap ? json(*n.cap) : json(nullptr)},
                   {"cap_note", n.cap_note}, {"used_gb", n.used_gb}, {"near_capacity_or_uncapped", near_full}});
  }
  r.readings["neighbours"] = arr;
  r.readings["nvml"] = g.nvml;
  r.readings["processes_scanned"] = procs.size();
  std::string scope = gb10 ? "unified memory: one pool, a neighbour can evict this run silently"
                           : "discrete GPU: neighbours share its " + (g.mem_total_gb > 0 ? fmt(g.mem_total_gb, 0) + " GB" : std::string("memory")) +
                                 " (an OOM, not silent eviction)";
  std::string seen = std::string(g.nvml ? "NVML and " : "NVML unavailable; ") + std::to_string(procs.size()) + (procs.size() == 1 ? " process" : " processes") + " in /proc";
  if (!heavy.empty()) {
    r.verdict = Verdict::Warn;
    r.message = "uncapped or near-capacity neighbour: " + join(heavy, "; ") +
                (light.empty() ? "" : "; capped or small: " + join(light, "; ")) + "; " + scope +
                "; stop it or cap it (e.g. --gpu-memory-utilization 0.5) before a long run";
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = light.empty() ? "no other GPU process, inference server or trainer (" + seen + ")"
                            : "only capped or small neighbours: " + join(light, "; ") + " (a small capped job can coexist; " + seen + ")";
  return r;
}

SPARKCHECK_PROBE_CHECK("G3", check_g3);
SPARKCHECK_PROBE_CHECK("G4", check_g4);
SPARKCHECK_PROBE_CHECK("G5", check_g5);
SPARKCHECK_PROBE_CHECK("G6", check_g6);

}  // namespace sc::probe

// SPDX-License-Identifier: Apache-2.0
// Checks that read the Python environment: G1 (CUDA majors), G2 (flash-attn,
// Unsloth), G7 (kernel targets), G8 (known-broken combinations), G9 (drift).
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "knowledge/versions.h"
#include "probe/checks.h"
#include "query/packages.h"

namespace sc::probe {

namespace {

using nlohmann::json;


std::string interp_desc(Context& c) {
  const auto& p = c.python();
  std::string s = p.interpreter;
  if (p.ok && p.data.contains("python")) s += " (Python " + p.data["python"].get<std::string>() + ")";
  return s;
}

// SKIP result when the interpreter could not be interrogated.
std::optional<CheckResult> need_python(Context& c, const std::string& id) {
  const auto& p = c.python();
  if (p.ok) return std::nullopt;
  return CheckResult{id, Verdict::Skip, "could not interrogate " + p.interpreter + ": " + p.error, json::object()};
}

int cuda_major(const std::string& v) { return lead_int(v); }

std::string driver_cuda(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// What kernels an installed distribution's largest shared objects carry.
struct LibArches {
  std::string dist, version;
  bool known = false;  // cuobjdump read at least one object
  std::string error;
  std::set<std::string> sass, ptx;
  bool runs = false;        // some kernel runs on this device
  bool native_arch = false; // an arch- or family-specific (a/f) target for this device
};

LibArches lib_arches(Context& c, const std::string& dist) {
  LibArches l;
  l.dist = dist;
  l.version = c.dist_version(dist);
  for (auto& so : c.shared_objects(dist)) {
    const auto& k = c.kernel_arches(so);
    if (!k.ok) {
      if (l.error.empty()) l.error = k.error;
      continue;
    }
    l.known = true;
    l.sass.insert(k.sass.begin(), k.sass.end());
    l.ptx.insert(k.ptx.begin(), k.ptx.end());
  }
  std::string cc = c.capability();
  if (l.known && !cc.empty()) {
    int ma = lead_int(cc), mi = lead_int(std::string_view(cc).substr(cc.find('.') + 1));
    for (auto& a : l.sass) {
      if (arch_runs_on(a, false, ma, mi)) {
        l.runs = true;
        char last = a.back();
        if (last == 'a' || last == 'f') l.native_arch = true;
      }
    }
    for (auto& a : l.ptx)
      if (arch_runs_on(a, true, ma, mi)) l.runs = true;
  }
  return l;
}

std::string arch_summary(const LibArches& l) {
  std::vector<std::string> v(l.sass.begin(), l.sass.end());
  for (auto& p : l.ptx) v.push_back("compute_" + p.substr(3));
  return v.empty() ? "no device code" : join(v, " ");
}

json lib_json(const LibArches& l) {
  json j = {{"dist", l.dist}, {"version", l.version}, {"known", l.known}};
  if (l.known) {
    j["sass"] = std::vector<std::string>(l.sass.begin(), l.sass.end());
    j["ptx"] = std::vector<std::string>(l.ptx.begin(), l.ptx.end());
    j["runs_on_device"] = l.runs;
    j["arch_specific_for_device"] = l.native_arch;
  } else {
    j["error"] = l.error;
  }
  return j;
}

// Does torch's arch list ("sm_90", "compute_120") hold code for this device?
bool torch_covers(const json& arch_list, int ma, int mi) {
  for (auto& a : arch_list) {
    if (!a.is_string()) continue;
    std::string s = a.get<std::string>();
    bool ptx = s.rfind("compute_", 0) == 0;
    std::string arch = ptx ? "sm_" + s.substr(8) : s;
    if (arch_runs_on(arch, ptx, ma, mi)) return true;
  }
  return false;
}

}  // namespace

// ---- G1 ----------------------------------------------------------------------
CheckResult check_g1(Context& c) {
  CheckResult r{"G1"};
  if (auto s = need_python(c, "G1")) return *s;
  const json& t = c.torch();
  const auto& rt = c.runtimes();
  std::vector<std::string> majors;
  for (auto& [name, where] : rt) majors.push_back(name.substr(name.rfind('.') + 1));
  r.readings["interpreter"] = interp_desc(c);
  r.readings["libcudart_visible"] = rt;
  if (c.python().data.contains("wheel_cudart")) r.readings["wheel_cudart"] = c.python().data["wheel_cudart"];
  std::vector<std::string> wheel;
  if (c.python().data.contains("wheel_cudart"))
    for (auto& w : c.python().data["wheel_cudart"]) {
      std::string b = w.get<std::string>();
      b = b.substr(b.rfind('/') + 1);
      if (b.rfind("libcudart.so.", 0) == 0 && b.find('.', 13) == std::string::npos) wheel.push_back(b);
    }
  std::string seen = majors.empty() ? "no libcudart.so.N on the loader path" : "loader sees libcudart.so." + join(majors, "/.so.");
  if (!wheel.empty()) seen += ", wheels bundle " + join(wheel);
  if (!t.value("installed", false)) {
    r.verdict = Verdict::Skip;
    r.message = "torch is not installed in " + interp_desc(c) + "; pass --python PATH for the training environment";
    return r;
  }
  std::string ver = t.value("version", "?");
  r.readings["torch"] = ver;
  if (t.contains("import_error")) {
    r.verdict = Verdict::Fail;
    r.message = "torch " + c.dist_version("torch") + " is installed but `import torch` fails: " +
                t["import_error"].get<std::string>() + " (an undefined CUDA symbol here is the CUDA 12/13 mix)";
    return r;
  }
  const auto& g = c.gpu();
  bool driver = g.cuda_driver_version > 0;
  r.readings["driver_cuda"] = driver ? driver_cuda(g.cuda_driver_version) : "unknown";
  if (!t.contains("cuda") || t["cuda"].is_null()) {
    r.verdict = Verdict::Fail;
    r.message = "torch " + ver + " is a CPU-only build (torch.version.cuda is None)" +
                std::string(driver ? " on a machine whose driver supports CUDA " + driver_cuda(g.cuda_driver_version) : "") +
                "; aarch64 PyPI wheels are CPU-only (pytorch/pytorch#160162): install from "
                "download.pytorch.org/whl/cu130 or use an NGC container";
    return r;
  }
  std::string tcuda = t["cuda"].get<std::string>();
  r.readings["torch_cuda"] = tcuda;
  int tm = cuda_major(tcuda);
  std::string head = "torch " + ver + " built against CUDA " + tcuda;
  if (!driver) {
    r.verdict = Verdict::Info;
    r.message = head + "; no NVIDIA driver readable (" + (g.nvml_error.empty() ? g.cuda_error : g.nvml_error) +
                "), so the pairing is unchecked; " + seen;
    return r;
  }
  int dm = g.cuda_driver_version / 1000;
  std::string drv = "driver " + (g.driver_version.empty() ? std::string("?") : g.driver_version) + " supports CUDA " +
                    driver_cuda(g.cuda_driver_version);
  if (tm > dm) {
    r.verdict = Verdict::Fail;
    r.message = head + " but the " + drv + ": the driver is too old for this wheel";
    return r;
  }
  if (tm < dm) {
    r.verdict = Verdict::Fail;
    r.message = head + " on a CUDA " + std::to_string(dm) + " driver stack (" + drv + "; " + seen +
                "): extensions built for the system's CUDA " + std::to_string(dm) +
                " will not load next to it; install a cu" + std::to_string(dm) + "0 wheel or use a matching container";
    return r;
  }
  if (t.contains("cuda_available") && !t["cuda_available"].get<bool>()) {
    r.verdict = Verdict::Fail;
    std::string why = t.contains("cuda_error") ? t["cuda_error"].get<std::string>()
                      : (t.contains("warnings") && !t["warnings"].empty() ? t["warnings"][0].get<std::string>() : "");
    r.message = head + " and the " + drv + ", but torch.cuda.is_available() is False" + (why.empty() ? "" : ": " + why);
    return r;
  }
  bool other_major = false;
  for (auto& m : majors)
    if (lead_int(m) != tm) other_major = true;
  if (other_major) {
    r.verdict = Verdict::Warn;
    r.message = head + ", " + drv + "; but " + seen +
                ": a leftover runtime of another major lets a mismatched extension load the wrong one";
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = head + ", " + drv + "; " + seen;
  return r;
}

// ---- G2 ----------------------------------------------------------------------
CheckResult check_g2(Context& c) {
  CheckResult r{"G2"};
  if (auto s = need_python(c, "G2")) return *s;
  const json& d = c.python().data;
  const json fa = d.value("flash_attn", json::object());
  const json& t = c.torch();
  std::string unsloth = c.dist_version("unsloth");
  std::string sdp = t.contains("flash_sdp") ? (t["flash_sdp"].get<bool>() ? "on" : "off") : "unknown";
  r.readings["flash_sdp"] = sdp;
  r.readings["unsloth"] = unsloth;
  r.readings["flash_attn"] = fa;
  std::string tail = "; torch flash SDP " + sdp + (unsloth.empty() ? "; Unsloth not installed" : "; Unsloth " + unsloth);
  if (!fa.value("installed", false)) {
    r.verdict = Verdict::Pass;
    r.message = "flash_attn not installed: attention goes through torch SDPA" + tail;
    return r;
  }
  std::string fav = c.dist_version("flash-attn");
  if (!fa.value("importable", false)) {
    r.verdict = Verdict::Warn;
    r.message = "flash_attn " + fav + " is installed but does not import (" + fa.value("import_error", std::string("?")) +
                "): transformers and Unsloth fall back with a 'broken installation' warning; uninstall it" + tail;
    return r;
  }
  LibArches l = lib_arches(c, "flash-attn");
  r.readings["flash_attn_kernels"] = lib_json(l);
  std::string cc = c.capability();
  std::string kernels;
  bool no_kernels = false;
  if (l.known && !cc.empty()) {
    no_kernels = !l.runs;
    std::string sm = "sm_" + cc.substr(0, cc.find('.')) + cc.substr(cc.find('.') + 1);
    kernels = l.runs ? "has kernels for " + sm + " (" + arch_summary(l) + ")"
                     : "has NO kernels for capability " + cc + " (" + arch_summary(l) + ")";
  } else {
    kernels = "kernel targets not verified (" + (cc.empty() ? std::string("no GPU readable") : l.error) + ")";
  }
  std::string head = "flash_attn " + fa.value("version", fav) + " importable, " + kernels;
  if (no_kernels) {
    r.verdict = unsloth.empty() ? Verdict::Warn : Verdict::Fail;
    r.message = head + (unsloth.empty()
                            ? ": any attn_implementation=\"flash_attention_2\" fails at the first kernel call"
                            : ": Unsloth enables it on import alone and the first attention call fails "
                              "(Dao-AILab/flash-attention#1969); uninstall flash_attn") + tail;
    return r;
  }
  if (!unsloth.empty()) {
    r.verdict = Verdict::Warn;
    r.message = head + "; Unsloth " + unsloth +
                " prefers it and FastLanguageModel (llama/mistral/gemma/qwen) drops attn_implementation=\"sdpa\": to force "
                "SDPA set HAS_FLASH_ATTENTION=False in both unsloth.models._utils and unsloth.utils.attention_dispatch "
                "before from_pretrained" + std::string("; torch flash SDP ") + sdp;
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = head + tail;
  return r;
}

// ---- G7 ----------------------------------------------------------------------
CheckResult check_g7(Context& c) {
  CheckResult r{"G7"};
  c.python();  // torch's capability and arch list, also the fallback when NVML is missing
  std::string cc = c.capability();
  if (cc.empty()) {
    const auto& g = c.gpu();
    r.verdict = Verdict::Skip;
    r.message = "no compute capability readable (NVML: " + (g.nvml_error.empty() ? "no device" : g.nvml_error) +
                "; CUDA driver: " + (g.cuda_error.empty() ? "no device" : g.cuda_error) + ")";
    return r;
  }
  int ma = lead_int(cc), mi = lead_int(std::string_view(cc).substr(cc.find('.') + 1));
  bool gb10 = c.gb10();
  r.readings["capability"] = cc;
  std::string head = "capability " + cc + (gb10 ? " (GB10)" : "");
  const json& t = c.torch();
  std::string torch_part;
  bool torch_fail = false;
  if (c.python().ok && t.contains("arch_list")) {
    r.readings["torch_arch_list"] = t["arch_list"];
    std::vector<std::string> al;
    for (auto& a : t["arch_list"]) al.push_back(a.get<std::string>());
    if (torch_covers(t["arch_list"], ma, mi)) {
      torch_part = "torch " + t.value("version", "?") + " arch list [" + join(al, " ") + "] runs here";
    } else {
      torch_fail = !al.empty();
      torch_part = "torch " + t.value("version", "?") + " arch list [" + join(al, " ") + "] has no kernel for sm_" +
                   std::to_string(ma * 10 + mi);
    }
  } else {
    torch_part = c.python().ok ? "torch arch list unavailable" : "interpreter not interrogated (" + c.python().error + ")";
  }
  if (!c.python().ok) {
    r.verdict = Verdict::Info;
    r.message = head + "; " + torch_part + (gb10 ? "; kernel targets not checked" : "; the sm_121a/NVFP4 question applies to GB10 only");
    return r;
  }
  if (torch_fail) {
    r.verdict = Verdict::Fail;
    r.message = head + ": " + torch_part + " (cu126 and older wheels carry no Blackwell code); install a cu130 build";
    return r;
  }
  // Kernel libraries: NVFP4-capable engines, and other CUDA extensions.
  // knowledge/packages.yaml: cuda-kernels, with nvfp4-kernels for the NVFP4-capable engines.
  static const std::vector<std::string> kernel_libs = query::with_role("cuda-kernels");
  json libs = json::array();
  std::vector<std::string> fallback, dead, unverified, native;
  auto look = [&](const std::string& dist, bool fp4) {
    if (c.dist_version(dist).empty() || c.shared_objects(dist).empty()) return;
    LibArches l = lib_arches(c, dist);
    libs.push_back(lib_json(l));
    std::string name = dist + " " + l.version;
    if (!l.known) {
      unverified.push_back(name);
      return;
    }
    if (!l.runs) dead.push_back(name + " [" + arch_summary(l) + "]");
    else if (fp4 && gb10 && !l.native_arch) fallback.push_back(name + " [" + arch_summary(l) + "]");
    else if (fp4 && gb10) native.push_back(name);
  };
  for (auto& d : kernel_libs) look(d, query::has_role(d, "nvfp4-kernels"));
  r.readings["kernel_libraries"] = libs;
  std::string msg = head + "; " + torch_part;
  if (!dead.empty() || !fallback.empty()) {
    r.verdict = Verdict::Warn;
    std::vector<std::string> parts;
    if (!dead.empty()) {
      std::string refs;
      for (auto& d : dead) {
        if (d.rfind("bitsandbytes", 0) == 0) refs += " bitsandbytes-foundation/bitsandbytes#1829";
        if (d.rfind("flash-attn", 0) == 0) refs += " Dao-AILab/flash-attention#1969";
      }
      parts.push_back("no kernel for this GPU in: " + join(dead, "; ") + (refs.empty() ? "" : " (see" + refs + ")"));
    }
    if (!fallback.empty())
      parts.push_back("NVFP4 would fall back: " + join(fallback, "; ") +
                      " carry no sm_121a/sm_120f code, so the native E2M1 conversion is compiled out (software path; NaN "
                      "seen in vLLM before PR #37725); stay on FP8 or use a build with TORCH_CUDA_ARCH_LIST=12.1a");
    r.message = msg + "; " + join(parts, "; ");
    return r;
  }
  if (!unverified.empty()) {
    r.verdict = Verdict::Info;
    r.message = msg + "; kernel targets of " + join(unverified) + " not verified (" +
                lib_arches(c, libs.back()["dist"].get<std::string>()).error + ")";
    return r;
  }
  r.verdict = Verdict::Pass;
  if (gb10)
    msg += native.empty() ? "; no NVFP4 kernel library installed" : "; sm_121a-class kernels in " + join(native);
  else
    msg += "; the sm_121a/NVFP4 question applies to GB10 only";
  if (!libs.empty() && (!gb10 || native.empty()))
    msg += "; " + std::to_string(libs.size()) + (libs.size() == 1 ? " kernel library runs" : " kernel libraries run") + " here";
  r.message = msg;
  return r;
}

// ---- G8 ----------------------------------------------------------------------
namespace {

bool has_cudart(Context& c, int major) {
  std::string want = "libcudart.so." + std::to_string(major);
  if (c.runtimes().count(want)) return true;
  const auto& d = c.python().data;
  if (d.contains("wheel_cudart"))
    for (auto& p : d["wheel_cudart"])
      if (p.get<std::string>().find(want) != std::string::npos) return true;
  return false;
}

using Match = std::function<std::optional<std::string>(Context&)>;

// The combinations of knowledge/versions.yaml that only a live machine shows, by name.
const std::map<std::string, Match>& runtime_checks() {
  static const std::map<std::string, Match> m = {
      {"flashinfer-replaced-torch-with-cpu",
       [](Context& c) -> std::optional<std::string> {
         std::string f = c.dist_version("flashinfer-python"), t = c.dist_version("torch");
         if (!f.empty() && t.find("+cpu") != std::string::npos)
           return "flashinfer-python " + f + " with torch " + t +
                  ": its unpinned torch requirement re-resolved torch to the CPU wheel (pin torch with --override)";
         return std::nullopt;
       }},
      {"sgl-kernel-needs-libcudart12",
       [](Context& c) -> std::optional<std::string> {
         std::string s = c.dist_version("sgl-kernel");
         if (!s.empty() && !has_cudart(c, 12))
           return "sgl-kernel " + s + " with no libcudart.so.12 reachable: 'Could not load any common_ops library'"
                  " unless this build links CUDA 13";
         return std::nullopt;
       }},
      {"pypi-triton-ptxas-rejects-sm121a",
       [](Context& c) -> std::optional<std::string> {
         std::string t = c.dist_version("triton");
         if (t.empty()) t = c.dist_version("pytorch-triton");
         if (!t.empty() && !c.env().count("TRITON_PTXAS_PATH"))
           return "triton " + t + " without TRITON_PTXAS_PATH: a bundled CUDA 12.8/12.9 ptxas rejects sm_121a; "
                  "export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas";
         return std::nullopt;
       }},
      {"vllm-nvfp4-weight-only-kernel",
       [](Context& c) -> std::optional<std::string> {
         std::string v = c.dist_version("vllm");
         if (!v.empty() && compare_versions(v, "0.29.0") <= 0)
           return "vllm " + v + " (<= 0.29.0) picks the weight-only NVFP4 kernel on SM12x; "
                  "VLLM_DISABLED_KERNELS=FlashInferCuteDslNvFp4W4A16LinearKernel";
         return std::nullopt;
       }}
  };
  return m;
}

// `package` in the entry's range with `with` installed beside it.
std::optional<std::string> package_combo(Context& c, const knowledge::Entry& e) {
  std::string v = c.dist_version(e.get("package")), w = c.dist_version(e.get("with"));
  if (w.empty() || !knowledge::version_in_range(e, v)) return std::nullopt;
  return e.get("package") + " " + v + " + " + e.get("with") + " " + w + ": " + e.get("symptom");
}

// `env` set to `value` here or in a running process.
std::optional<std::string> env_setting(Context& c, const knowledge::Entry& e) {
  const std::string &name = e.get("env"), &value = e.get("value");
  auto it = c.env().find(name);
  if (it != c.env().end() && it->second == value) return name + "=" + value + " " + e.get("symptom");
  for (auto& p : c.processes())
    if (p.env && p.env->count(name) && p.env->at(name) == value)
      return "pid " + std::to_string(p.pid) + " has " + name + "=" + value + ": " + e.get("symptom");
  return std::nullopt;
}

struct BrokenCombo {
  std::string id;
  bool gb10_only;
  Verdict severity;
  std::string ref;
  Match match;  // the evidence when the machine matches
};

// knowledge/versions.yaml `broken-combinations`, each with the check that reads it.
const std::vector<BrokenCombo>& broken_combos() {
  static const std::vector<BrokenCombo> v = [] {
    std::vector<BrokenCombo> out;
    for (const knowledge::Entry& e : knowledge::table("broken-combinations").entries) {
      BrokenCombo b{e.get("name"), !e.get("gb10_only").empty(), e.get("severity") == "fail" ? Verdict::Fail : Verdict::Warn,
                    e.get("report"), {}};
      if (!e.get("runtime").empty()) b.match = runtime_checks().at(b.id);
      else if (!e.get("env").empty()) b.match = [&e](Context& c) { return env_setting(c, e); };
      else b.match = [&e](Context& c) { return package_combo(c, e); };
      out.push_back(std::move(b));
    }
    return out;
  }();
  return v;
}

}  // namespace

CheckResult check_g8(Context& c) {
  CheckResult r{"G8"};
  if (auto s = need_python(c, "G8")) return *s;
  bool gb10 = c.gb10();
  std::vector<std::string> fails, warns, not_applicable;
  json matched = json::array();
  for (auto& b : broken_combos()) {
    if (b.gb10_only && !gb10) {
      not_applicable.push_back(b.id);
      continue;
    }
    if (auto ev = b.match(c)) {
      std::string line = *ev + " (" + b.ref + ")";
      (b.severity == Verdict::Fail ? fails : warns).push_back(line);
      matched.push_back({{"id", b.id}, {"evidence", *ev}, {"ref", b.ref}, {"verdict", verdict_name(b.severity)}});
    }
  }
  r.readings["matched"] = matched;
  r.readings["table_size"] = broken_combos().size();
  r.readings["not_applicable"] = not_applicable;
  std::vector<std::string> stack;
  for (auto n : {"torch", "transformers", "trl", "peft", "bitsandbytes", "unsloth", "vllm", "triton"}) {
    std::string v = c.dist_version(n);
    if (!v.empty()) stack.push_back(std::string(n) + " " + v);
  }
  r.readings["stack"] = stack;
  const std::string where = "newer reports: github.com/NVIDIA/dgx-spark-playbooks/issues";
  if (!fails.empty() || !warns.empty()) {
    r.verdict = fails.empty() ? Verdict::Warn : Verdict::Fail;
    std::vector<std::string> all = fails;
    all.insert(all.end(), warns.begin(), warns.end());
    r.message = join(all, "; ") + "; " + where;
    return r;
  }
  r.verdict = Verdict::Pass;
  r.message = "no known-broken combination among " + std::to_string(broken_combos().size() - not_applicable.size()) +
              " table entries (" + (stack.empty() ? std::string("no playbook packages installed") : join(stack)) + ")" +
              (not_applicable.empty() ? "" : "; " + std::to_string(not_applicable.size()) + " GB10-only entries not applicable") +
              "; offline table, " + where;
  return r;
}

// ---- G9 ----------------------------------------------------------------------
CheckResult check_g9(Context& c) {
  CheckResult r{"G9"};
  auto& m = c.machine;
  std::vector<std::string> markers;
  if (m.exists("/.dockerenv")) markers.push_back("/.dockerenv");
  if (m.exists("/run/.containerenv")) markers.push_back("/run/.containerenv");
  if (auto cg = m.read_file("/proc/1/cgroup")) {
    for (auto k : {"docker", "containerd", "kubepods", "libpod", "lxc", "podman"})
      if (cg->find(k) != std::string::npos) {
        markers.push_back(std::string("/proc/1/cgroup mentions ") + k);
        break;
      }
  }
  const auto& env = c.env();
  if (env.count("container")) markers.push_back("container=" + env.at("container"));
  std::map<std::string, std::string> ngc;
  for (auto k : {"NVIDIA_PYTORCH_VERSION", "PYTORCH_BUILD_VERSION", "PYTORCH_VERSION", "NVIDIA_BUILD_ID",
                 "NVIDIA_PRODUCT_NAME", "NVIDIA_VLLM_VERSION", "CUDA_VERSION"})
    if (env.count(k)) ngc[k] = env.at(k);
  r.readings["markers"] = markers;
  r.readings["ngc_env"] = ngc;
  bool container = !markers.empty();
  bool ngc_image = ngc.count("NVIDIA_PYTORCH_VERSION") || ngc.count("PYTORCH_BUILD_VERSION");
  std::string where = container ? "container (" + join(markers) + ")" : "no container marker";
  if (ngc.count("NVIDIA_PYTORCH_VERSION")) where += ", NGC PyTorch " + ngc["NVIDIA_PYTORCH_VERSION"];
  else if (ngc.count("NVIDIA_PRODUCT_NAME"))
    where += ", NVIDIA " + ngc["NVIDIA_PRODUCT_NAME"] + " image" + (ngc.count("CUDA_VERSION") ? " (CUDA " + ngc["CUDA_VERSION"] + ")" : "");
  if (!c.python().ok) {
    r.verdict = Verdict::Info;
    r.message = where + "; drift not checked: could not interrogate " + c.python().interpreter + " (" + c.python().error + ")";
    return r;
  }
  const json& dists = c.python().data.value("dists", json::object());
  std::string torch = c.dist_version("torch");
  std::vector<std::string> drift, later;
  // torch replaced: the image says which build it shipped.
  std::string shipped = ngc.count("PYTORCH_BUILD_VERSION") ? ngc["PYTORCH_BUILD_VERSION"]
                        : ngc.count("PYTORCH_VERSION") ? ngc["PYTORCH_VERSION"] : "";
  bool torch_replaced = false;
  if (!torch.empty() && !shipped.empty() && torch != shipped) {
    drift.push_back("torch " + torch + " (image shipped " + shipped + ")");
    torch_replaced = true;
  } else if (!torch.empty() && ngc_image && torch.find("a0") == std::string::npos && torch.find("+nv") == std::string::npos) {
    drift.push_back("torch " + torch + " is not the NGC build (no a0/+nv)");
    torch_replaced = true;
  }
  // Installed after the image: dist-info newer than torch's by over an hour.
  double ref = 0;
  if (!torch_replaced && dists.contains("torch") && dists["torch"].contains("mtime"))
    ref = dists["torch"]["mtime"].get<double>();
  json ages = json::object();
  if (container && ref > 0) {
    for (auto n : {"triton", "pytorch-triton", "xformers", "flash-attn", "transformers", "bitsandbytes", "trl", "unsloth"}) {
      if (!dists.contains(n) || !dists[n].contains("mtime")) continue;
      double dt = dists[n]["mtime"].get<double>() - ref;
      ages[n] = dt / 86400.0;
      if (dt > 3600) {
        std::string s = std::string(n) + " " + dists[n].value("version", "?") + " (+" + fmt(dt / 86400.0) + " d)";
        std::string nm = n;
        if (nm == "transformers" || nm == "trl" || nm == "unsloth" || nm == "bitsandbytes") later.push_back(s);
        else drift.push_back(s + " installed after the image");
      }
    }
  }
  r.readings["installed_after_image_days"] = ages;
  r.readings["drift"] = drift;
  std::vector<std::string> versions, shipped_list;
  for (auto n : {"torch", "triton", "xformers", "transformers", "flash-attn"}) {
    std::string v = c.dist_version(n);
    if (v.empty()) continue;
    versions.push_back(std::string(n) + " " + v);
    bool added = ages.contains(n) && ages[n].get<double>() * 86400.0 > 3600;
    if (!added) shipped_list.push_back(std::string(n) + " " + v);
  }
  std::string vers = versions.empty() ? "no torch stack installed" : join(versions);
  bool venv = c.python().data.value("in_venv", false);
  if (container) {
    if (!drift.empty()) {
      r.verdict = Verdict::Warn;
      r.message = where + "; drift from the image: " + join(drift, "; ") +
                  "; reinstall with pip --no-deps or uv --override to keep the image's torch";
    } else {
      r.verdict = Verdict::Pass;
      r.message = where + "; " + (ref > 0 ? join(shipped_list) + " as shipped" : vers) +
                  (later.empty() ? "" : "; added later (expected for playbooks): " + join(later));
    }
    return r;
  }
  r.verdict = c.gb10() ? Verdict::Warn : Verdict::Info;
  r.message = where + " (cgroup v2 can hide one: not proof of a bare host)" + (venv ? ", virtualenv " : ", ") +
              c.python().data.value("prefix", std::string("?")) + ": " + vers +
              (c.gb10() ? "; bare pip lets these drift apart: prefer nvcr.io/nvidia/pytorch:25.11-py3 or unsloth/unsloth, "
                          "else pin torch and install Unsloth with --no-deps"
                        : "");
  return r;
}

SPARKCHECK_PROBE_CHECK("G1", check_g1);
SPARKCHECK_PROBE_CHECK("G2", check_g2);
SPARKCHECK_PROBE_CHECK("G7", check_g7);
SPARKCHECK_PROBE_CHECK("G8", check_g8);
SPARKCHECK_PROBE_CHECK("G9", check_g9);

}  // namespace sc::probe

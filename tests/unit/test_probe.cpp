// SPDX-License-Identifier: Apache-2.0
// sparkcheck probe: every verdict path, on fake machines built from
// fixtures-probe/ (plus JSON merge patches for the variants).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "probe/checks.h"
#include "probe/machine.h"
#include "probe/probe.h"
#include "probe/spawn.h"

using nlohmann::json;
using sc::ProbeOptions;

namespace {

// The arm64 cross build runs these tests under qemu-user (SC_QEMU_USER=1 from
// tests/CMakeLists.txt). qemu runs glibc's CLONE_VFORK spawn child as a plain
// fork, so the child's exec error never reaches the parent: a missing program
// looks started and exits 127. ctest reports the case skipped (SKIP_REGULAR_EXPRESSION).
bool skipped_under_qemu_user(const char* why) {
  if (std::getenv("SC_QEMU_USER") == nullptr) return false;
  std::printf("SKIPPED under qemu-user: %s\n", why);
  return true;
}

std::string fixture(const std::string& name) { return std::string(SC_SOURCE_DIR) + "/fixtures-probe/" + name; }

struct Out {
  int rc = -1;
  std::string text, err;
  json j;
  const json& check(const std::string& id) const {
    for (auto& c : j["checks"])
      if (c["id"] == id) return c;
    static const json none = json::object();
    return none;
  }
  std::string verdict(const std::string& id) const { return check(id).value("verdict", std::string("(absent)")); }
  std::string message(const std::string& id) const { return check(id).value("message", std::string()); }
};

Out run(const std::string& fx, const json& patch = json::object(), ProbeOptions o = {}) {
  auto m = sc::probe::make_fake_machine(fixture(fx), patch);
  std::ostringstream out, err;
  if (o.format == "text") o.format = "json";
  Out r;
  r.rc = sc::probe::run_probe_on(*m, o, out, err);
  r.text = out.str();
  r.err = err.str();
  if (r.rc != 2) r.j = json::parse(r.text);
  return r;
}

// Text output of a probe run on a fixture directory (which may not exist).
std::string text_of(const std::string& dir, const ProbeOptions& o) {
  auto m = sc::probe::make_fake_machine(dir);
  std::ostringstream out, err;
  sc::probe::run_probe_on(*m, o, out, err);
  return out.str();
}

ProbeOptions only(std::vector<std::string> checks) {
  ProbeOptions o;
  o.checks = std::move(checks);
  return o;
}

// Patch for the "python" report's data.
json py(json data) { return {{"python", {{"data", std::move(data)}}}}; }

}  // namespace

// fuzz_probe (fuzz/corpus/probe/regress-report-types): a report whose fields have other types
// ended the probe in std::terminate (json type_error out of check_g1).
TEST_CASE("probe: an interpreter report with values of other types", "[probe]") {
  auto r = run("gb10-healthy", py({{"python", 3}, {"executable", json::array()}, {"torch", {{"version", 2}, {"cuda", true}}},
                                   {"dists", 1}, {"in_venv", "yes"}, {"prefix", 7}, {"wheel_cudart", "x"}}));
  REQUIRE(r.rc != 2);
  CHECK(r.verdict("G1") == "SKIP");
  for (const auto& c : r.j["checks"]) CHECK(c.contains("verdict"));
  ProbeOptions text;
  text.format = "sarif";  // run() turns "text" into json; the text writer is checked below
  CHECK(run("gb10-healthy", py({{"python", 3}, {"executable", 4}}), text).rc != 2);
  auto m = sc::probe::make_fake_machine(fixture("gb10-healthy"), py({{"python", 3}, {"executable", 4}}));
  std::ostringstream out, err;
  CHECK(sc::probe::run_probe_on(*m, ProbeOptions{}, out, err) != 2);
  CHECK_THAT(out.str(), Catch::Contains("python"));
}

// fuzz_probe (fuzz/corpus/probe/regress-sarif-non-utf8): a reading that is not UTF-8 (a
// process's argv, cuobjdump's stderr) ended `probe --format json|sarif` in std::terminate
// (json type_error 316 from dump).
TEST_CASE("probe: readings that are not UTF-8 in the json and sarif reports", "[probe]") {
  sc::probe::Report rep;
  rep.hostname = "h\xff";
  rep.host = {{"hostname", "h"}};
  rep.results.push_back(sc::probe::CheckResult("G6", sc::probe::Verdict::Warn, "python \xf5\x80 train.py",
                                               {{"argv", {"python", "\xc3"}}}));
  std::ostringstream j, s;
  REQUIRE_NOTHROW(sc::probe::write_json(rep, j));
  REQUIRE_NOTHROW(sc::probe::write_sarif(rep, s));
  std::string msg = json::parse(j.str())["checks"][0]["message"];
  CHECK(msg.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD for the bad bytes
  CHECK(msg.find(" train.py") != std::string::npos);
  CHECK_NOTHROW(json::parse(s.str()));
}

TEST_CASE("probe: healthy GB10 in an NGC container", "[probe]") {
  ProbeOptions o;
  o.intrusive = true;
  auto r = run("gb10-healthy", json::object(), o);
  CHECK(r.rc == 0);
  CHECK(r.j["host"]["profile"] == "GB10");
  CHECK(r.verdict("G1") == "PASS");
  CHECK(r.verdict("G2") == "PASS");
  CHECK(r.verdict("G3") == "INFO");
  CHECK(r.verdict("G4") == "INFO");
  CHECK(r.verdict("G5") == "INFO");
  CHECK_THAT(r.message("G5"), Catch::Contains("187.4 GB/s") && Catch::Contains("180-192"));
  CHECK(r.verdict("G6") == "PASS");
  CHECK(r.verdict("G7") == "PASS");
  CHECK(r.verdict("G8") == "PASS");
  CHECK(r.verdict("G9") == "PASS");
  CHECK_THAT(r.message("G9"), Catch::Contains("NGC PyTorch 25.11"));
  CHECK(r.verdict("G10") == "INFO");
  CHECK(r.j["exit_code"] == 0);
}

TEST_CASE("probe: troubled GB10 bare host", "[probe]") {
  auto r = run("gb10-throttling");
  CHECK(r.rc == 1);
  CHECK(r.verdict("G1") == "FAIL");
  CHECK_THAT(r.message("G1"), Catch::Contains("CUDA 12.8") && Catch::Contains("libcudart.so.12"));
  CHECK(r.verdict("G2") == "FAIL");  // flash_attn without sm_12x kernels + Unsloth
  CHECK(r.verdict("G4") == "WARN");  // plateau near 100 W, temperature rising
  CHECK_THAT(r.message("G4"), Catch::Contains("100 W"));
  CHECK(r.verdict("G5") == "SKIP");  // not asked
  CHECK(r.verdict("G6") == "WARN");
  CHECK_THAT(r.message("G6"), Catch::Contains("vllm pid 2211") && Catch::Contains("ollama pid 3300") &&
                                  Catch::Contains("unreadable without root") && Catch::Contains("python trainer pid 4100"));
  CHECK(r.verdict("G7") == "WARN");
  CHECK_THAT(r.message("G7"), Catch::Contains("flash-attn") && Catch::Contains("NVFP4 would fall back"));
  CHECK(r.verdict("G8") == "FAIL");
  CHECK_THAT(r.message("G8"), Catch::Contains("NVIDIA/dgx-spark-playbooks#57") && Catch::Contains("triton-lang/triton#8539"));
  CHECK(r.verdict("G9") == "WARN");
  CHECK_THAT(r.message("G9"), Catch::Contains("not proof of a bare host"));
}

TEST_CASE("probe: no GPU and no interpreter", "[probe]") {
  ProbeOptions o;
  o.intrusive = true;
  auto r = run("no-gpu", json::object(), o);
  CHECK(r.rc == 0);
  CHECK(r.j["host"]["profile"] == "no GPU readable");
  for (auto id : {"G1", "G2", "G4", "G5", "G7", "G8"}) CHECK(r.verdict(id) == "SKIP");
  CHECK_THAT(r.message("G4"), Catch::Contains("libnvidia-ml.so.1"));
  CHECK_THAT(r.message("G5"), Catch::Contains("libcuda.so.1"));
  CHECK(r.verdict("G3") == "INFO");
  CHECK(r.verdict("G6") == "PASS");
  CHECK(r.verdict("G9") == "INFO");
}

TEST_CASE("probe G1: CUDA majors", "[probe][G1]") {
  auto o = only({"G1"});
  SECTION("CPU-only torch") {
    auto r = run("gb10-healthy", py({{"torch", {{"cuda", nullptr}, {"version", "2.9.1+cpu"}}}}), o);
    CHECK(r.verdict("G1") == "FAIL");
    CHECK_THAT(r.message("G1"), Catch::Contains("CPU-only") && Catch::Contains("pytorch/pytorch#160162"));
    CHECK(r.rc == 1);
  }
  SECTION("import fails") {
    auto r = run("gb10-healthy", py({{"torch", {{"import_error", "ImportError('undefined symbol: cudaGetDriverEntryPointByVersion')"}}}}), o);
    CHECK(r.verdict("G1") == "FAIL");
    CHECK_THAT(r.message("G1"), Catch::Contains("undefined symbol"));
  }
  SECTION("driver older than the wheel") {
    auto r = run("gb10-healthy", {{"gpu", {{"cuda_driver_version", 12080}}}}, o);
    CHECK(r.verdict("G1") == "FAIL");
    CHECK_THAT(r.message("G1"), Catch::Contains("too old"));
  }
  SECTION("torch cannot see the GPU") {
    auto r = run("gb10-healthy", py({{"torch", {{"cuda_available", false}}}}), o);
    CHECK(r.verdict("G1") == "FAIL");
  }
  SECTION("leftover runtime of another major") {
    auto r = run("gb10-healthy", {{"cuda_runtimes", {{"libcudart.so.12", "/usr/local/cuda-12.8/lib64/libcudart.so.12"}}}}, o);
    CHECK(r.verdict("G1") == "WARN");
    CHECK_THAT(r.message("G1"), Catch::Contains("libcudart.so.12"));
  }
  SECTION("no driver readable") {
    auto r = run("gb10-healthy", {{"gpu", {{"nvml", false}, {"cuda", false}, {"cuda_driver_version", 0}, {"cc_major", -1}}}}, o);
    CHECK(r.verdict("G1") == "INFO");
  }
  SECTION("torch not installed") {
    auto r = run("gb10-healthy", py({{"torch", {{"installed", false}}}}), o);
    CHECK(r.verdict("G1") == "SKIP");
  }
  SECTION("interpreter missing") {
    auto r = run("no-gpu", json::object(), o);
    CHECK(r.verdict("G1") == "SKIP");
    CHECK_THAT(r.message("G1"), Catch::Contains("No such file"));
  }
}

TEST_CASE("probe G2: flash-attn and Unsloth", "[probe][G2]") {
  auto o = only({"G2"});
  const std::string so = "/x/flash_attn_2_cuda.so";
  json fa_ok = {{"python", {{"data", {{"flash_attn", {{"installed", true}, {"importable", true}, {"version", "2.7.4.post1"}}},
                                      {"dists", {{"flash-attn", {{"version", "2.7.4.post1"}, {"shared_objects", {so}}}}}}}}}},
                {"kernel_arches", {{so, {{"sass", {"sm_80", "sm_90", "sm_120"}}}}}}};
  SECTION("importable with kernels, no Unsloth") {
    auto r = run("gb10-healthy", fa_ok, o);
    CHECK(r.verdict("G2") == "PASS");
    CHECK_THAT(r.message("G2"), Catch::Contains("has kernels for sm_121"));
  }
  SECTION("importable with kernels and Unsloth: the override warning") {
    json p = fa_ok;
    p["python"]["data"]["dists"]["unsloth"] = {{"version", "2026.7.2"}};
    auto r = run("gb10-healthy", p, o);
    CHECK(r.verdict("G2") == "WARN");
    CHECK_THAT(r.message("G2"), Catch::Contains("attention_dispatch"));
  }
  SECTION("no kernels for the GPU, no Unsloth") {
    json p = fa_ok;
    p["kernel_arches"][so]["sass"] = {"sm_80", "sm_90"};
    auto r = run("gb10-healthy", p, o);
    CHECK(r.verdict("G2") == "WARN");
    CHECK_THAT(r.message("G2"), Catch::Contains("NO kernels"));
  }
  SECTION("installed but broken") {
    auto r = run("gb10-healthy", py({{"flash_attn", {{"installed", true}, {"importable", false}, {"import_error", "ImportError('libc10_cuda.so')"}}},
                                     {"dists", {{"flash-attn", {{"version", "2.8.3"}}}}}}), o);
    CHECK(r.verdict("G2") == "WARN");
    CHECK_THAT(r.message("G2"), Catch::Contains("does not import"));
  }
  SECTION("kernel targets unknown without cuobjdump") {
    json p = fa_ok;
    p["kernel_arches"] = nullptr;
    auto r = run("gb10-healthy", p, o);
    CHECK(r.verdict("G2") == "PASS");
    CHECK_THAT(r.message("G2"), Catch::Contains("not verified"));
  }
  SECTION("no interpreter") { CHECK(run("no-gpu", json::object(), o).verdict("G2") == "SKIP"); }
}

TEST_CASE("probe G3: unified memory and the page cache", "[probe][G3]") {
  auto o = only({"G3"});
  SECTION("fits in free memory") {
    o.need_gb = 20;
    CHECK(run("gb10-healthy", json::object(), o).verdict("G3") == "PASS");
  }
  SECTION("needs the page cache back") {
    o.need_gb = 60;
    auto r = run("gb10-throttling", json::object(), o);
    CHECK(r.verdict("G3") == "WARN");
    CHECK_THAT(r.message("G3"), Catch::Contains("drop_caches"));
  }
  SECTION("does not fit at all") {
    o.need_gb = 110;
    auto r = run("gb10-throttling", json::object(), o);
    CHECK(r.verdict("G3") == "FAIL");
    CHECK(r.rc == 1);
  }
  SECTION("readings only") { CHECK(run("gb10-healthy", json::object(), o).verdict("G3") == "INFO"); }
  SECTION("discrete GPU: not applicable") {
    o.need_gb = 500;
    auto r = run("h200", json::object(), o);
    CHECK(r.verdict("G3") == "INFO");
    CHECK_THAT(r.message("G3"), Catch::Contains("GB10 only"));
  }
  SECTION("no /proc/meminfo") {
    CHECK_THAT(text_of(fixture("does-not-exist"), o), Catch::Contains("G3 SKIP: /proc/meminfo not readable"));
  }
}

TEST_CASE("probe G4: thermals", "[probe][G4]") {
  auto o = only({"G4"});
  SECTION("throttle reason") {
    json s = json::array();
    for (int i = 0; i < 4; ++i) s.push_back({{"t", i}, {"temp_c", 88}, {"power_w", 140}, {"sm_clock_mhz", 1200}, {"reasons", 0x20 | 0x4}});
    auto r = run("gb10-healthy", {{"samples", s}}, o);
    CHECK(r.verdict("G4") == "WARN");
    CHECK_THAT(r.message("G4"), Catch::Contains("sw-thermal") && Catch::Contains("sw-power-cap"));
  }
  SECTION("plateau pattern only counts on GB10") {
    auto gb = run("gb10-throttling", json::object(), o);
    CHECK(gb.verdict("G4") == "WARN");
    auto other = run("gb10-throttling", {{"gpu", {{"cc_major", 9}, {"cc_minor", 0}}}}, o);
    CHECK(other.verdict("G4") == "INFO");
  }
  SECTION("quiet sample") { CHECK(run("gb10-healthy", json::object(), o).verdict("G4") == "INFO"); }
  SECTION("no NVML") { CHECK(run("no-gpu", json::object(), o).verdict("G4") == "SKIP"); }
  SECTION("NVML without readings") { CHECK(run("gb10-healthy", {{"samples", json::array()}}, o).verdict("G4") == "SKIP"); }
}

TEST_CASE("probe G5: bandwidth", "[probe][G5]") {
  SECTION("default set does not run it") {
    auto r = run("gb10-healthy");
    CHECK(r.verdict("G5") == "SKIP");
    CHECK_THAT(r.message("G5"), Catch::Contains("intrusive"));
  }
  SECTION("naming G5 runs it") { CHECK(run("gb10-healthy", json::object(), only({"g5"})).verdict("G5") == "INFO"); }
  SECTION("GB10 below the measured range") {
    auto r = run("gb10-healthy", {{"bandwidth", {{"gbps", 120.0}}}}, only({"G5"}));
    CHECK(r.verdict("G5") == "WARN");
  }
  SECTION("refused beside other GPU processes, unless forced") {
    auto r = run("gb10-throttling", json::object(), only({"G5"}));
    CHECK(r.verdict("G5") == "SKIP");
    CHECK_THAT(r.message("G5"), Catch::Contains("refused") && Catch::Contains("pid 2211") && !Catch::Contains("pid 1500"));
    auto o = only({"G5"});
    o.force = true;
    auto f = run("gb10-throttling", json::object(), o);
    CHECK(f.verdict("G5") == "WARN");  // 141 GB/s on a GB10
    CHECK_THAT(f.message("G5"), Catch::Contains("forced beside"));
  }
  SECTION("other GPUs: compared with the NVML peak") {
    auto r = run("h200", json::object(), only({"G5"}));
    CHECK(r.verdict("G5") == "INFO");
    CHECK_THAT(r.message("G5"), Catch::Contains("4917 GB/s peak") && Catch::Contains("does not apply"));
    auto slow = run("h200", {{"bandwidth", {{"gbps", 1500.0}}}}, only({"G5"}));
    CHECK(slow.verdict("G5") == "WARN");
    auto nopeak = run("h200", {{"gpu", {{"bus_width_bits", 0}}}}, only({"G5"}));
    CHECK(nopeak.verdict("G5") == "INFO");
  }
  SECTION("measurement fails") {
    auto r = run("gb10-healthy", {{"bandwidth", {{"ok", false}, {"error", "copy failed: out of memory"}}}}, only({"G5"}));
    CHECK(r.verdict("G5") == "SKIP");
    CHECK_THAT(r.message("G5"), Catch::Contains("out of memory"));
  }
  SECTION("no CUDA driver") { CHECK(run("no-gpu", json::object(), only({"G5"})).verdict("G5") == "SKIP"); }
}

TEST_CASE("probe G6: neighbours", "[probe][G6]") {
  auto o = only({"G6"});
  SECTION("uncapped neighbours") { CHECK(run("gb10-throttling", json::object(), o).verdict("G6") == "WARN"); }
  SECTION("nothing else running") { CHECK(run("gb10-healthy", json::object(), o).verdict("G6") == "PASS"); }
  SECTION("NVML-only process holding most of a discrete GPU") {
    auto r = run("h200", {{"gpu_processes", {{{"pid", 777}, {"used_gb", 120.0}, {"kind", "compute"}}}}}, o);
    CHECK(r.verdict("G6") == "WARN");
    CHECK_THAT(r.message("G6"), Catch::Contains("pid 777") && Catch::Contains("discrete GPU"));
    auto small = run("h200", {{"gpu_processes", {{{"pid", 777}, {"used_gb", 3.0}, {"kind", "compute"}}}}}, o);
    CHECK(small.verdict("G6") == "PASS");
  }
  SECTION("neither NVML nor /proc") { CHECK_THAT(text_of(fixture("does-not-exist"), o), Catch::Contains("G6 SKIP")); }
}

TEST_CASE("probe G6: caps read from command lines", "[probe][G6]") {
  namespace fs = std::filesystem;
  auto dir = fs::temp_directory_path() / "sparkcheck-probe-g6";
  fs::remove_all(dir);
  fs::create_directories(dir / "root/proc/900");
  fs::create_directories(dir / "root/proc/901");
  auto write = [&](const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; };
  write(dir / "machine.json", R"({"gpu": {"nvml": true, "cc_major": 12, "cc_minor": 1}, "pid": 1})");
  write(dir / "root/proc/meminfo", "MemTotal: 125000000 kB\n");
  auto nul = [](std::vector<std::string> argv) {
    std::string s;
    for (auto& a : argv) s += a + '\0';
    return s;
  };
  write(dir / "root/proc/900/cmdline", nul({"vllm", "serve", "m", "--gpu-memory-utilization=0.4"}));
  write(dir / "root/proc/901/cmdline", nul({"python3", "-m", "sglang.launch_server", "--mem-fraction-static", "0.3"}));
  CHECK_THAT(text_of(dir.string(), only({"G6"})), Catch::Contains("G6 PASS: only capped or small neighbours") &&
                            Catch::Contains("--gpu-memory-utilization 0.4") && Catch::Contains("--mem-fraction-static 0.3"));
  write(dir / "root/proc/900/cmdline", nul({"vllm", "serve", "m", "--gpu-memory-utilization", "0.9"}));
  CHECK_THAT(text_of(dir.string(), only({"G6"})), Catch::Contains("G6 WARN") && Catch::Contains("--gpu-memory-utilization 0.9"));
  fs::remove_all(dir);
}

TEST_CASE("probe G7: kernel targets", "[probe][G7]") {
  auto o = only({"G7"});
  SECTION("torch without Blackwell kernels") {
    auto r = run("gb10-healthy", py({{"torch", {{"arch_list", {"sm_50", "sm_80", "sm_90", "compute_90"}}}}}), o);
    // compute_90 PTX JIT-compiles forward, so a PTX entry keeps torch runnable
    CHECK(r.verdict("G7") == "PASS");
    auto none = run("gb10-healthy", py({{"torch", {{"arch_list", {"sm_50", "sm_80", "sm_90"}}}}}), o);
    CHECK(none.verdict("G7") == "FAIL");
    CHECK_THAT(none.message("G7"), Catch::Contains("no kernel for sm_121"));
  }
  SECTION("NVFP4 engine without sm_121a") {
    const std::string so = "/x/vllm/_C.abi3.so";
    json p = {{"python", {{"data", {{"dists", {{"vllm", {{"version", "0.31.0"}, {"shared_objects", {so}}}}}}}}}},
              {"kernel_arches", {{so, {{"sass", {"sm_90", "sm_120"}}}}}}};
    auto r = run("gb10-healthy", p, o);
    CHECK(r.verdict("G7") == "WARN");
    CHECK_THAT(r.message("G7"), Catch::Contains("NVFP4 would fall back") && Catch::Contains("vllm 0.31.0"));
    p["kernel_arches"][so]["sass"] = {"sm_90", "sm_120", "sm_121a"};
    auto ok = run("gb10-healthy", p, o);
    CHECK(ok.verdict("G7") == "PASS");
    CHECK_THAT(ok.message("G7"), Catch::Contains("sm_121a-class kernels in vllm"));
    p["kernel_arches"] = nullptr;
    auto unknown = run("gb10-healthy", p, o);
    CHECK(unknown.verdict("G7") == "INFO");
    CHECK_THAT(unknown.message("G7"), Catch::Contains("not verified"));
  }
  SECTION("other GPUs: the sm_121a question does not apply") {
    auto r = run("h200", json::object(), o);
    CHECK(r.verdict("G7") == "PASS");
    CHECK_THAT(r.message("G7"), Catch::Contains("GB10 only"));
  }
  SECTION("capability from torch when NVML is missing") {
    auto r = run("gb10-healthy", {{"gpu", {{"nvml", false}, {"cc_major", -1}, {"cc_minor", -1}}}}, o);
    CHECK(r.verdict("G7") == "PASS");
    CHECK_THAT(r.message("G7"), Catch::Contains("capability 12.1"));
  }
  SECTION("capability known, interpreter missing: only a reading") {
    auto r = run("h200", {{"python", {{"ok", false}, {"error", "No such file or directory"}}}}, o);
    CHECK(r.verdict("G7") == "INFO");
    CHECK_THAT(r.message("G7"), Catch::Contains("interpreter not interrogated"));
  }
  SECTION("no capability at all") { CHECK(run("no-gpu", json::object(), o).verdict("G7") == "SKIP"); }
}

TEST_CASE("probe G8: known-broken combinations", "[probe][G8]") {
  auto o = only({"G8"});
  SECTION("clean") { CHECK(run("gb10-healthy", json::object(), o).verdict("G8") == "PASS"); }
  SECTION("warn-only match") {
    auto r = run("gb10-healthy", {{"env", {{"TRITON_PTXAS_PATH", nullptr}}}}, o);
    CHECK(r.verdict("G8") == "WARN");
    CHECK_THAT(r.message("G8"), Catch::Contains("TRITON_PTXAS_PATH"));
  }
  SECTION("flashinfer re-resolved torch to the CPU wheel") {
    auto r = run("gb10-healthy", py({{"dists", {{"flashinfer-python", {{"version", "0.5.2"}}}, {"torch", {{"version", "2.10.0"}}}}},
                                     {"torch", {{"version", "2.10.0+cpu"}}}}), o);
    CHECK(r.verdict("G8") == "FAIL");
    CHECK_THAT(r.message("G8"), Catch::Contains("eugr/spark-vllm-docker#263"));
  }
  SECTION("sgl-kernel without libcudart.so.12") {
    auto r = run("gb10-healthy", py({{"dists", {{"sgl-kernel", {{"version", "0.3.9"}}}}}}), o);
    CHECK(r.verdict("G8") == "FAIL");
  }
  SECTION("Ollama forced onto the CUDA 12 library") {
    auto r = run("gb10-healthy", {{"env", {{"OLLAMA_LLM_LIBRARY", "cuda"}}}}, o);
    CHECK(r.verdict("G8") == "WARN");
  }
  SECTION("GB10-only entries do not apply elsewhere") {
    auto r = run("gb10-throttling", {{"gpu", {{"cc_major", 9}, {"cc_minor", 0}}}}, o);
    CHECK(r.verdict("G8") == "FAIL");  // bitsandbytes 0.49.1 + Unsloth applies everywhere
    CHECK_THAT(r.message("G8"), !Catch::Contains("TRITON_PTXAS_PATH"));
  }
  SECTION("no interpreter") { CHECK(run("no-gpu", json::object(), o).verdict("G8") == "SKIP"); }
}

TEST_CASE("probe G9: container and drift", "[probe][G9]") {
  auto o = only({"G9"});
  SECTION("torch replaced inside the image") {
    auto r = run("gb10-healthy", py({{"torch", {{"version", "2.9.1+cu130"}}}}), o);
    CHECK(r.verdict("G9") == "WARN");
    CHECK_THAT(r.message("G9"), Catch::Contains("image shipped 2.10.0a0"));
  }
  SECTION("triton reinstalled after the image") {
    auto r = run("gb10-healthy", py({{"dists", {{"triton", {{"version", "3.6.0"}, {"mtime", 1763000000.0 + 5 * 86400}}}}}}), o);
    CHECK(r.verdict("G9") == "WARN");
    CHECK_THAT(r.message("G9"), Catch::Contains("triton 3.6.0") && Catch::Contains("installed after the image"));
  }
  SECTION("NGC environment without build version: torch without a0/+nv") {
    auto r = run("gb10-healthy", {{"env", {{"PYTORCH_BUILD_VERSION", nullptr}, {"PYTORCH_VERSION", nullptr}}},
                                  {"python", {{"data", {{"torch", {{"version", "2.9.1+cu130"}}}}}}}}, o);
    CHECK(r.verdict("G9") == "WARN");
    CHECK_THAT(r.message("G9"), Catch::Contains("not the NGC build"));
  }
  SECTION("cgroup marker") {
    namespace fs = std::filesystem;
    auto dir = fs::temp_directory_path() / "sparkcheck-probe-g9";
    fs::remove_all(dir);
    fs::create_directories(dir / "root/proc/1");
    std::ofstream(dir / "root/proc/1/cgroup") << "12:memory:/kubepods/burstable/pod1234\n";
    std::ofstream(dir / "machine.json") << R"({"python": {"ok": false, "error": "missing"}})";
    CHECK_THAT(text_of(dir.string(), o), Catch::Contains("G9 INFO: container (/proc/1/cgroup mentions kubepods)"));
    fs::remove_all(dir);
  }
  SECTION("bare host elsewhere is only reported") { CHECK(run("h200", json::object(), o).verdict("G9") == "INFO"); }
}

TEST_CASE("probe G10: rendezvous environment and configs", "[probe][G10]") {
  auto o = only({"G10"});
  SECTION("multi-node environment") {
    auto r = run("gb10-healthy", {{"env", {{"WORLD_SIZE", "2"}, {"LOCAL_WORLD_SIZE", "1"}}}}, o);
    CHECK(r.verdict("G10") == "INFO");
    CHECK(r.check("G10")["readings"]["nodes"] == 2);
    CHECK_THAT(r.message("G10"), Catch::Contains("DDP/FSDP"));
  }
  SECTION("a config linted with the G10 rule") {
    namespace fs = std::filesystem;
    auto dir = fs::temp_directory_path() / "sparkcheck-probe-g10";
    fs::create_directories(dir);
    auto cfg = (dir / "accelerate_tp.yaml").string();
    std::ofstream(cfg) << "num_machines: 2\nnum_processes: 2\ndistributed_type: FSDP\nparallelism_config:\n"
                          "  parallelism_config_tp_size: 2\n  parallelism_config_dp_shard_size: 1\n";
    o.configs = {cfg};
    auto r = run("gb10-healthy", json::object(), o);
    std::string v = r.verdict("G10");
    // With the lint engine linked: FAIL/WARN from the G10 rule; without it: SKIP with the reason.
    CHECK((v == "FAIL" || v == "WARN" || v == "SKIP"));
    if (v == "SKIP") CHECK_THAT(r.message("G10"), Catch::Contains("no lint engine"));
    else CHECK_THAT(r.message("G10"), Catch::Contains("accelerate_tp.yaml"));
    if (v != "SKIP") {
      // A config given relative to the checkout gives the SARIF result a physical location.
      std::string rel = "sparkcheck-probe-g10-test.yaml";
      fs::copy_file(cfg, rel, fs::copy_options::overwrite_existing);
      ProbeOptions so = only({"G10"});
      so.configs = {rel};
      so.format = "sarif";
      json s = json::parse(text_of(fixture("gb10-healthy"), so));
      fs::remove(rel);
      auto& loc = s["runs"][0]["results"][0]["locations"][0];
      CHECK(loc["physicalLocation"]["artifactLocation"]["uri"] == rel);
      CHECK(loc["physicalLocation"]["region"]["startLine"].get<int>() > 0);
      CHECK(s["runs"][0].contains("originalUriBaseIds"));
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("probe: usage errors", "[probe]") {
  CHECK(run("gb10-healthy", json::object(), only({"G11"})).rc == 2);
  ProbeOptions o;
  o.format = "xml";
  CHECK(run("gb10-healthy", json::object(), o).rc == 2);
  ProbeOptions c;
  c.configs = {"/nonexistent/config.yaml"};
  CHECK(run("gb10-healthy", json::object(), c).rc == 2);
}

TEST_CASE("probe: text output keeps the `^G[0-9]+ ` contract", "[probe][output]") {
  auto m = sc::probe::make_fake_machine(fixture("gb10-throttling"));
  std::ostringstream out, err;
  ProbeOptions o;
  int rc = sc::probe::run_probe_on(*m, o, out, err);
  CHECK(rc == 1);
  std::istringstream in(out.str());
  std::string line;
  int checks = 0;
  static const std::regex re(R"(^G([0-9]+) (PASS|FAIL|WARN|SKIP|INFO): .+)");
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) continue;
    CHECK(std::regex_match(line, re));
    ++checks;
  }
  CHECK(checks == 10);
}

TEST_CASE("probe: selected checks only, in order", "[probe][output]") {
  auto r = run("gb10-healthy", json::object(), only({"G9", "G3"}));
  REQUIRE(r.j["checks"].size() == 2);
  CHECK(r.j["checks"][0]["id"] == "G3");
  CHECK(r.j["checks"][1]["id"] == "G9");
}

TEST_CASE("probe: SARIF output", "[probe][output]") {
  auto m = sc::probe::make_fake_machine(fixture("gb10-throttling"));
  std::ostringstream out, err;
  ProbeOptions o;
  o.format = "sarif";
  sc::probe::run_probe_on(*m, o, out, err);
  json s = json::parse(out.str());
  CHECK(s["version"] == "2.1.0");
  auto& run0 = s["runs"][0];
  CHECK(run0["automationDetails"]["id"] == "sparkcheck/probe/");
  auto& rules = run0["tool"]["driver"]["rules"];
  REQUIRE(run0["results"].size() == 10);
  for (auto& res : run0["results"]) {
    int idx = res["ruleIndex"];
    CHECK(rules[idx]["id"] == res["ruleId"]);
    CHECK(res["locations"][0]["logicalLocations"][0]["name"] == "spark-02");
    CHECK(res["locations"][0].contains("physicalLocation") == false);
    if (res["properties"]["verdict"] == "FAIL") CHECK(res["level"] == "error");
    if (res["properties"]["verdict"] == "PASS") CHECK(res["kind"] == "pass");
  }
  for (const auto& check : sc::probe::probe_checks()) {
    bool found = false;
    for (auto& r : rules) found = found || r["id"] == check.id;
    CHECK(found);
  }
}

TEST_CASE("probe helpers: versions and architectures", "[probe]") {
  using sc::probe::arch_runs_on;
  using sc::probe::compare_versions;
  CHECK(compare_versions("0.49.1", "0.49.1") == 0);
  CHECK(compare_versions("2.10.0a0+b4e4ee8", "2.9.1") > 0);
  CHECK(compare_versions("0.29.0", "0.31.0") < 0);
  // PEP 440 pre-, post- and development releases (issue 13: 5.5.0rc1 was equal to 5.5.0)
  CHECK(compare_versions("5.5.0rc1", "5.5.0") < 0);
  CHECK(compare_versions("5.5.0", "5.5.0rc1") > 0);
  CHECK(compare_versions("5.5.0a1", "5.5.0b1") < 0);
  CHECK(compare_versions("5.5.0b2", "5.5.0rc1") < 0);
  CHECK(compare_versions("5.5.0.dev1", "5.5.0a1") < 0);
  CHECK(compare_versions("5.5.0rc1.dev1", "5.5.0rc1") < 0);
  CHECK(compare_versions("5.5.0.post1", "5.5.0") > 0);
  CHECK(compare_versions("5.5.0-1", "5.5.0.post1") == 0);
  CHECK(compare_versions("5.5", "5.5.0") == 0);
  CHECK(compare_versions("5.5.0rc1", "5.4.9") > 0);
  CHECK(compare_versions("2.10.0+cu130", "2.10.0") == 0);
  CHECK(compare_versions("2.5.1_cu124", "2.5.1") == 0);  // a build tag, not a "c" pre-release
  CHECK(arch_runs_on("sm_120", false, 12, 1));
  CHECK_FALSE(arch_runs_on("sm_120a", false, 12, 1));
  CHECK(arch_runs_on("sm_121a", false, 12, 1));
  CHECK(arch_runs_on("sm_120f", false, 12, 1));
  CHECK_FALSE(arch_runs_on("sm_100", false, 12, 1));
  CHECK(arch_runs_on("sm_90", true, 12, 1));
  CHECK_FALSE(arch_runs_on("sm_120", false, 9, 0));
}

TEST_CASE("probe: the embedded script is valid for python -I", "[probe]") {
  std::string s = sc::probe::python_probe_script();
  CHECK_THAT(s, Catch::Contains("SPARKCHECK-JSON") && Catch::Contains("importlib.metadata") &&
                    Catch::Contains("get_arch_list") && Catch::Contains("flash_sdp_enabled"));
}

TEST_CASE("probe: replay of the real H200 run", "[probe][h200-real]") {
  // fixtures-probe/h200-real was recorded on the device tool's H200 with
  // SPARKCHECK_PROBE_RECORD; output.json is what the probe printed there.
  std::ifstream f(fixture("h200-real/output.json"));
  REQUIRE(f);
  json recorded = json::parse(f);
  ProbeOptions o;
  o.intrusive = true;
  auto r = run("h200-real", json::object(), o);
  CHECK(r.rc == recorded["exit_code"].get<int>());
  CHECK(r.j["host"]["profile"] == "other GPU (capability 9.0)");
  for (auto& c : recorded["checks"]) {
    INFO(c["id"].get<std::string>() << ": " << c["message"].get<std::string>());
    CHECK(r.verdict(c["id"]) == c["verdict"]);
  }
  // output.txt comes from the recorded run itself: same readings, same words. (G6 counts the
  // processes in /proc, which the fixture keeps only in part.)
  std::ifstream txt(fixture("h200-real/output.txt"));
  std::string line;
  static const std::regex re(R"(^(G[0-9]+) ([A-Z]+): (.*)$)");
  int compared = 0;
  while (std::getline(txt, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, re) || m[1] == "G6") continue;
    CHECK(r.verdict(m[1]) == m[2].str());
    CHECK(r.message(m[1]) == m[3].str());
    ++compared;
  }
  CHECK(compared == 9);
  CHECK_THAT(r.message("G5"), Catch::Contains("4222.1 GB/s") && Catch::Contains("4814 GB/s peak") &&
                                  Catch::Contains("6016-bit"));
  CHECK_THAT(r.message("G1"), Catch::Contains("torch 2.11.0+cu130") && Catch::Contains("CUDA 13.0"));
  CHECK_THAT(r.message("G3"), Catch::Contains("GB10 only"));
  // The real machine beside a 9.1 GB trainer (neighbour.txt): G5 refused, G6 warns.
  json busy = {{"gpu_processes", {{{"pid", 508}, {"used_gb", 9.11}, {"kind", "compute"}}}}};
  auto b = run("h200-real", busy, only({"G5", "G6"}));
  CHECK(b.verdict("G5") == "SKIP");
  CHECK_THAT(b.message("G5"), Catch::Contains("pid 508 9.1 GB"));
  CHECK(b.verdict("G6") == "PASS");  // 9.1 of 151 GB, no command line recorded: a small neighbour
}

// ---- the real machine's plumbing (no GPU needed) ----------------------------

TEST_CASE("probe spawn: capture, exit code, timeout kill", "[probe][spawn]") {
  using sc::probe::spawn_capture;
  auto r = spawn_capture({"sh", "-c", "echo out; echo err >&2; exit 3"}, "", 10);
  CHECK(r.started);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.exit_code == 3);
  auto t = spawn_capture({"sh", "-c", "sleep 30"}, "", 0.3);
  CHECK(t.timed_out);
  auto cwd = spawn_capture({"pwd"}, "/", 5);
  CHECK(cwd.out == "/\n");
}

TEST_CASE("probe spawn: a missing program is not started", "[probe][spawn]") {
  if (skipped_under_qemu_user("posix_spawn cannot report a failed exec")) return;
  auto n = sc::probe::spawn_capture({"/nonexistent/interpreter"}, "", 1);
  CHECK_FALSE(n.started);
  CHECK_THAT(n.error, Catch::Contains("No such file"));
}

TEST_CASE("probe real machine: interpreter run isolated, outside the project", "[probe][real]") {
  namespace fs = std::filesystem;
  auto dir = fs::temp_directory_path() / "sparkcheck-probe-interp";
  fs::create_directories(dir);
  auto interp = (dir / "fakepython").string();
  {
    std::ofstream f(interp);
    // Prints the arguments and the working directory the probe gave it.
    f << "#!/bin/sh\nprintf 'noise from an import banner\\n'\n"
         "printf 'SPARKCHECK-JSON {\"python\": \"3.99\", \"argv1\": \"%s\", \"cwd\": \"%s\", \"torch\": {\"installed\": false}}\\n' "
         "\"$1\" \"$(pwd)\"\n";
  }
  fs::permissions(interp, fs::perms::owner_all);
  auto m = sc::probe::make_real_machine("/");
  auto rep = m->python(interp);
  REQUIRE(rep.ok);
  CHECK(rep.data["argv1"] == "-I");
  std::string cwd = rep.data["cwd"];
  CHECK(cwd.find("sparkcheck-probe-") != std::string::npos);
  CHECK(cwd.rfind(SC_SOURCE_DIR, 0) != 0);
  CHECK_FALSE(fs::exists(cwd));  // the temporary directory is removed afterwards
  fs::remove_all(dir);
}

TEST_CASE("probe real machine: a missing interpreter is an error", "[probe][real]") {
  if (skipped_under_qemu_user("posix_spawn cannot report a failed exec")) return;
  auto m = sc::probe::make_real_machine("/");
  auto missing = m->python("/nonexistent/sparkcheck-probe/python3");
  CHECK_FALSE(missing.ok);
  CHECK_THAT(missing.error, Catch::Contains("No such file"));
}

TEST_CASE("probe real machine: the embedded script runs under python3 -I", "[probe][real]") {
  auto which = sc::probe::spawn_capture({"python3", "-c", "print(1)"}, "", 20);
  if (!which.started || which.exit_code != 0) {
    WARN("python3 not available; embedded script not executed");
    return;
  }
  auto m = sc::probe::make_real_machine("/");
  auto rep = m->python("python3");
  INFO(rep.error);
  REQUIRE(rep.ok);
  CHECK(rep.data.contains("python"));
  CHECK(rep.data.contains("dists"));
  CHECK(rep.data["torch"].contains("installed"));
  CHECK(rep.data["flash_attn"].contains("installed"));
}

TEST_CASE("probe real machine: files read below --root", "[probe][real]") {
  // The real machine on a fake root: /proc, markers and cmdlines come from the fixture tree.
  ProbeOptions o = only({"G3", "G6"});
  o.root_fs = fixture("gb10-throttling/root");
  auto m = sc::probe::make_real_machine(o.root_fs);
  std::ostringstream out, err;
  sc::probe::run_probe_on(*m, o, out, err);
  std::string s = out.str();
  CHECK_THAT(s, Catch::Contains("G3 ") && Catch::Contains("page cache 67.1 GB"));
  CHECK_THAT(s, Catch::Contains("vllm pid 2211") && Catch::Contains("ollama pid 3300"));
}

TEST_CASE("probe numbers read without exceptions or overflow", "[probe]") {
  CHECK(sc::probe::lead_int(" 12.1") == 12);
  CHECK(sc::probe::lead_int("+7x") == 7);
  CHECK(sc::probe::lead_int("99999999999999999999") == 0);
  CHECK(sc::probe::lead_int("") == 0);
  CHECK(sc::probe::lead_double("\t131072 kB") == 131072.0);
  CHECK(sc::probe::lead_double("kB") == 0.0);
}

TEST_CASE("probe replay: a recorded number out of int's range is the default", "[probe]") {
  json huge = {{"gpu", {{"cuda_driver_version", 1.3e115}, {"cc_major", 99999999999999999999ull}, {"count", -5e30}}}};
  auto m = sc::probe::make_fake_machine(fixture("gb10-healthy"), huge);
  auto g = m->gpu();
  CHECK(g.cuda_driver_version == 0);
  CHECK(g.cc_major == -1);
  CHECK(g.count == (g.nvml ? 1 : 0));
  auto ok = sc::probe::make_fake_machine(fixture("gb10-healthy"), json{{"gpu", {{"cc_major", 12}}}});
  CHECK(ok->gpu().cc_major == 12);
}

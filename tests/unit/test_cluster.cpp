// SPDX-License-Identifier: Apache-2.0
// sparkcheck cluster: the probe's node block on the fake GB10 nodes, every kind of drift between
// two reports, a schema-1 report (the recorded H200 output), and bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cluster/cluster.h"
#include "probe/checks.h"
#include "probe/machine.h"
#include "probe/probe.h"

using nlohmann::json;
namespace cl = sc::cluster;

namespace {

std::string fixture(const std::string& name) { return std::string(SC_SOURCE_DIR) + "/fixtures-probe/" + name; }

// The probe's JSON report of a fake machine.
json probe_report(const std::string& fx, const json& patch = json::object()) {
  auto m = sc::probe::make_fake_machine(fixture(fx), patch);
  sc::ProbeOptions o;
  o.format = "json";
  std::ostringstream out, err;
  sc::probe::run_probe_on(*m, o, out, err);
  return json::parse(out.str());
}

json& reading(json& report, const std::string& key) { return report["node"][key]; }

cl::Comparison compare(const std::vector<std::pair<std::string, json>>& reports) {
  cl::Comparison c;
  for (const auto& [file, j] : reports) {
    auto n = cl::parse_report(j.dump(), file, c.notes);
    REQUIRE(n);
    c.nodes.push_back(*n);
  }
  cl::compare_nodes(c);
  return c;
}

const cl::Finding* finding(const cl::Comparison& c, const std::string& key) {
  for (const auto& f : c.findings)
    if (f.key == key) return &f;
  return nullptr;
}

std::string text_of(const cl::Comparison& c) {
  std::ostringstream s;
  cl::write_text(c, s);
  return s.str();
}

std::string write_temp(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("sc-cluster-" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

}  // namespace

TEST_CASE("cluster: the probe's node block on a fake GB10 node", "[cluster]") {
  json a = probe_report("gb10-node-a");
  CHECK(a["schema_version"] == 2);
  const json& n = a["node"];
  CHECK(n["hostname"]["value"] == "spark-a");
  CHECK(n["driver.version"]["value"] == "580.95.05");
  CHECK(n["cuda.driver"]["value"] == "13.0");
  CHECK(n["gpu.capability"]["value"] == "12.1");
  CHECK(n["torch.cuda"]["value"] == "13.0");
  CHECK(n["nccl.torch"]["value"] == "2.28.7");
  CHECK(n["nccl.loader"]["value"] == "2.28.7");
  CHECK(n["nccl.loader"]["source"] == "dlopen libnccl.so.2, ncclGetVersion");
  CHECK(n["package.transformers"]["value"] == "4.57.1");
  CHECK(n["package.vllm"]["value"] == "not installed");
  CHECK(n["container.kind"]["value"] == "podman");
  CHECK(n["container.image"]["value"] == "nvcr.io/nvidia/pytorch:25.11-py3");
  CHECK_THAT(n["container.digest"]["value"].get<std::string>(), Catch::StartsWith("sha256:3f1c"));
  CHECK(n["os.kernel"]["value"] == "6.11.0-1016-nvidia");
  CHECK(n["os.arch"]["value"] == "aarch64");
  CHECK(n["env.NCCL_SOCKET_IFNAME"]["value"] == "enp1s0f1np1");
  CHECK(n["net.enp1s0f1np1.mtu"]["value"] == 9000);
  CHECK(n["net.enp1s0f1np1.speed_mbps"]["value"] == 200000);
  CHECK(n["net.enp1s0f1np1.state"]["value"] == "up");
  CHECK(n["net.enp1s0f0np0.speed_mbps"].contains("absent"));  // link down: no speed, not invented
  CHECK_FALSE(n.contains("net.lo.state"));
  CHECK(n["ib.rocep1s0f1.1.state"]["value"] == "4: ACTIVE");
  CHECK(n["memory.unified"]["value"] == true);
  // GB10: NVML gives no memory total or power limit; absent with the reason
  CHECK_THAT(n["gpu.memory_gb"]["absent"].get<std::string>(), Catch::Contains("unified memory"));
  CHECK(n["gpu.power_limit_w"].contains("absent"));
  for (auto& [key, r] : n.items()) {
    INFO(key);
    CHECK((r.contains("value") != r.contains("absent")));
    CHECK(r.contains("source"));
  }
}

TEST_CASE("cluster: a machine that cannot give readings records them absent", "[cluster]") {
  json r = probe_report("no-gpu");
  const json& n = r["node"];
  CHECK(n["driver.version"].contains("absent"));
  CHECK(n["nccl.loader"]["absent"] == "libnccl.so.2 not loadable (fixture)");
  CHECK(n["torch.version"].contains("absent"));
  CHECK(n["container.kind"]["value"] == "host");
  CHECK_THAT(n["container.image"]["absent"].get<std::string>(), Catch::Contains("bare host"));
}

TEST_CASE("cluster: two matching GB10 nodes agree", "[cluster]") {
  auto c = compare({{"a.json", probe_report("gb10-node-a")}, {"b.json", probe_report("gb10-node-b")}});
  for (const auto& f : c.findings) INFO(f.message);
  CHECK(c.findings.empty());
  CHECK(c.notes.empty());
  CHECK_THAT(text_of(c), Catch::Contains("the nodes agree"));
}

TEST_CASE("cluster: each kind of drift names the nodes and both values", "[cluster]") {
  json a = probe_report("gb10-node-a"), b = probe_report("gb10-node-b");
  SECTION("G1 driver") {
    reading(b, "driver.version")["value"] = "580.82.09";
    auto c = compare({{"a.json", a}, {"b.json", b}});
    REQUIRE(finding(c, "driver.version"));
    CHECK(finding(c, "driver.version")->rule == "G1");
    CHECK(finding(c, "driver.version")->message == "NVIDIA driver differs: 580.95.05 on spark-a; 580.82.09 on spark-b");
  }
  SECTION("G9 package, one node without it") {
    reading(b, "package.transformers")["value"] = "4.56.2";
    reading(a, "package.vllm")["value"] = "0.11.0";
    auto c = compare({{"b.json", b}, {"a.json", a}});  // any order
    REQUIRE(finding(c, "package.transformers"));
    CHECK(finding(c, "package.transformers")->rule == "G9");
    CHECK(finding(c, "package.transformers")->message == "transformers differs: 4.56.2 on spark-b; 4.57.1 on spark-a");
    CHECK(finding(c, "package.vllm")->message == "vllm differs: not installed on spark-b; 0.11.0 on spark-a");
  }
  SECTION("G8 known-broken combination on one node") {
    for (auto& check : b["checks"])
      if (check["id"] == "G8") check["readings"]["matched"] = {{{"id", "pypi-triton-ptxas-rejects-sm121a"}, {"verdict", "FAIL"}}};
    auto c = compare({{"a.json", a}, {"b.json", b}});
    REQUIRE(finding(c, "g8.matched"));
    CHECK(finding(c, "g8.matched")->rule == "G8");
    CHECK_THAT(finding(c, "g8.matched")->message, Catch::Contains("none on spark-a; pypi-triton-ptxas-rejects-sm121a on spark-b"));
  }
  SECTION("G10 NCCL versions and environment") {
    reading(b, "nccl.loader")["value"] = "2.27.3";
    b["node"].erase("env.NCCL_IB_HCA");
    reading(b, "env.MASTER_ADDR")["value"] = "192.168.100.99";
    auto c = compare({{"a.json", a}, {"b.json", b}});
    CHECK(finding(c, "nccl.loader")->rule == "G10");
    CHECK(finding(c, "env.NCCL_IB_HCA")->message == "$NCCL_IB_HCA differs: rocep1s0f1 on spark-a; unset on spark-b");
    CHECK(finding(c, "env.MASTER_ADDR"));
    CHECK_FALSE(finding(c, "env.NODE_RANK"));     // ranks must differ
    CHECK_FALSE(finding(c, "env.VLLM_HOST_IP"));  // each node's own address
    CHECK_FALSE(finding(c, "hostname"));
  }
  SECTION("G10 chosen NCCL interface down, slower, other MTU") {
    reading(b, "net.enp1s0f1np1.state")["value"] = "down";
    reading(b, "net.enp1s0f1np1.mtu")["value"] = 1500;
    reading(b, "net.enp1s0f1np1.speed_mbps")["value"] = 100000;
    auto c = compare({{"a.json", a}, {"b.json", b}});
    REQUIRE(finding(c, "nccl.if.state"));
    CHECK(finding(c, "nccl.if.state")->message == "state of the chosen nccl interface is down on spark-b (up on spark-a)");
    CHECK(finding(c, "nccl.if.mtu")->message == "MTU of the chosen nccl interface differs: 9000 on spark-a; 1500 on spark-b");
    CHECK(finding(c, "nccl.if.speed_mbps")->message ==
          "link speed (Mb/s) of the chosen nccl interface is lower on spark-b: 100000 on spark-b, 200000 on spark-a");
    CHECK(finding(c, "gloo.if.state"));
    CHECK_FALSE(finding(c, "net.enp1s0f1np1.address"));  // MAC addresses differ by nature
  }
  SECTION("G10 NCCL interface name that matches nothing") {
    reading(b, "env.NCCL_SOCKET_IFNAME")["value"] = "eth";
    auto c = compare({{"a.json", a}, {"b.json", b}});
    REQUIRE(finding(c, "nccl.if.state"));
    CHECK(finding(c, "nccl.if.state")->message == "state of the chosen nccl interface is no interface matching 'eth' on spark-b (up on spark-a)");
  }
  SECTION("two reports of one host") {
    auto c = compare({{"a.json", a}, {"a2.json", a}});
    REQUIRE(finding(c, "hostname"));
    CHECK(finding(c, "hostname")->message == "the reports a.json, a2.json all come from hostname spark-a");
  }
  SECTION("a reading one node cannot give is not compared, with a note") {
    reading(b, "nccl.loader") = {{"absent", "libnccl.so.2: cannot open shared object file"}, {"source", "dlopen"}};
    auto c = compare({{"a.json", a}, {"b.json", b}});
    CHECK_FALSE(finding(c, "nccl.loader"));
    REQUIRE(c.notes.size() == 1);
    CHECK(c.notes[0].id == "cannot-compare");
    CHECK(c.notes[0].file == "b.json");
    CHECK_THAT(c.notes[0].message, Catch::Contains("on spark-b") && Catch::Contains("cannot open shared object"));
  }
}

TEST_CASE("cluster: a schema-1 report (the recorded H200 run) is read with a note", "[cluster]") {
  std::ifstream f(fixture("h200-real/output.json"));
  json h200 = json::parse(f);
  REQUIRE_FALSE(h200.contains("node"));
  auto c = compare({{"h200.json", h200}, {"a.json", probe_report("gb10-node-a")}});
  REQUIRE(c.nodes[0].legacy);
  bool noted = false;
  for (const auto& n : c.notes) noted = noted || (n.id == "old-schema" && n.file == "h200.json");
  CHECK(noted);
  REQUIRE(finding(c, "driver.version"));
  CHECK(finding(c, "driver.version")->message == "NVIDIA driver differs: 580.159.04 on vm; 580.95.05 on spark-a");
  CHECK(finding(c, "gpu.name"));
  CHECK(finding(c, "package.transformers"));  // from the G8 stack
  CHECK_FALSE(finding(c, "nccl.loader"));     // not in a schema-1 report: not drift
  CHECK_FALSE(finding(c, "container.image"));
}

TEST_CASE("cluster: bad input", "[cluster]") {
  std::vector<cl::Note> notes;
  std::string good = probe_report("gb10-node-a").dump();
  CHECK_FALSE(cl::parse_report(good.substr(0, good.size() / 2), "t.json", notes));
  CHECK(notes.back().id == "unreadable-report");
  CHECK_FALSE(cl::parse_report("[1,2,3]", "x.json", notes));
  CHECK_FALSE(cl::parse_report(R"({"command": "lint", "host": {}})", "x.json", notes));
  CHECK_FALSE(cl::parse_report(std::string(100000, '[') + std::string(100000, ']'), "deep.json", notes));
  CHECK_THAT(notes.back().message, Catch::Contains("nested deeper"));
  // wrong types: ignored with a note, never a crash
  json w = json::parse(good);
  w["node"]["driver.version"] = {{"value", {{"nested", 1}}}};
  w["node"]["gpu.name"] = 42;
  w["schema_version"] = "two";
  w["host"]["hostname"] = json::array();
  notes.clear();
  auto n = cl::parse_report(w.dump(), "w.json", notes);
  REQUIRE(n);
  CHECK_FALSE(n->readings.count("driver.version"));
  CHECK(n->schema == 1);
  CHECK(notes.size() == 2);
  // a huge file is refused by its size before it is read
  std::string big = write_temp("big.json", std::string(4096, ' '));
  notes.clear();
  CHECK_FALSE(cl::load_report(big, 1024, notes));
  CHECK_THAT(notes.back().message, Catch::Contains("limit"));
  std::filesystem::resize_file(big, (1ull << 30) * 4);  // sparse 4 GB: fstat says no, nothing read
  CHECK_FALSE(cl::load_report(big, cl::kMaxReportBytes, notes));
  std::filesystem::remove(big);
  CHECK_FALSE(cl::load_report("/nonexistent/report.json", cl::kMaxReportBytes, notes));
}

TEST_CASE("cluster: hostile strings are escaped in every format", "[cluster]") {
  json a = probe_report("gb10-node-a"), b = probe_report("gb10-node-b");
  const std::string evil = "\x1b]0;owned\x07\x1b[2J580\r\n::error::x";
  reading(b, "driver.version")["value"] = evil;
  reading(b, "hostname")["value"] = "spark-\x1b[31mb";
  auto c = compare({{"a.json", a}, {"b.json", b}});
  std::string text = text_of(c);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  CHECK_THAT(text, Catch::Contains("\\x1b]0;owned"));
  std::ostringstream j, s;
  cl::write_json(c, j);
  cl::write_sarif(c, s);
  CHECK(j.str().find('\x1b') == std::string::npos);
  CHECK(s.str().find('\x1b') == std::string::npos);
  CHECK_THAT(j.str(), Catch::Contains("\\u001b]0;owned"));
}

TEST_CASE("cluster: run_cluster exit codes", "[cluster]") {
  std::string a = write_temp("a.json", probe_report("gb10-node-a").dump());
  json bj = probe_report("gb10-node-b");
  std::string b = write_temp("b.json", bj.dump());
  reading(bj, "package.torch")["value"] = "2.9.0";
  std::string d = write_temp("d.json", bj.dump());
  std::string t = write_temp("t.json", "{\"command\": \"probe\", \"ho");
  auto rc = [](std::vector<std::string> files, std::string format = "text") {
    cl::ClusterOptions o;
    o.reports = std::move(files);
    o.format = std::move(format);
    std::ostringstream out, err;
    return cl::run_cluster(o, out, err);
  };
  CHECK(rc({a, b}) == 0);
  CHECK(rc({a, d}) == 1);
  CHECK(rc({a, d}, "sarif") == 1);
  CHECK(rc({a, b, t}) == 2);
  CHECK(rc({a}) == 2);
  CHECK(rc({a, b}, "xml") == 2);
  for (auto& p : {a, b, d, t}) std::filesystem::remove(p);
}

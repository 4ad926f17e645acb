// SPDX-License-Identifier: Apache-2.0
// Probe report writers: text (one `GN VERDICT: evidence` line a check), JSON
// and SARIF 2.1.0 (the machine as a logical location).
#include <filesystem>
#include <map>

#include "core/rule_docs.h"
#include "output/sarif.h"
#include "probe/checks.h"

namespace sc::probe {

namespace {

using nlohmann::json;

std::map<std::string, int> counts(const Report& r) {
  std::map<std::string, int> n;
  for (auto& c : r.results) n[verdict_name(c.verdict)]++;
  return n;
}

std::string summary_line(const Report& r) {
  auto n = counts(r);
  std::string s;
  for (auto v : {"FAIL", "WARN", "PASS", "INFO", "SKIP"})
    if (n[v]) s += (s.empty() ? "" : ", ") + std::to_string(n[v]) + " " + v;
  return s.empty() ? "no checks run" : s;
}

std::string host_line(const Report& r) {
  const json& h = r.host;
  std::string s = "# sparkcheck probe on " + r.hostname + ": " + h.value("profile", std::string("?"));
  if (h.contains("gpu")) {
    const json& g = h["gpu"];
    std::vector<std::string> parts;
    if (g.contains("name")) parts.push_back(g["name"].get<std::string>());
    if (g.contains("driver_version")) parts.push_back("driver " + g["driver_version"].get<std::string>());
    if (g.contains("driver_cuda")) parts.push_back("CUDA " + g["driver_cuda"].get<std::string>());
    std::string j;
    for (auto& p : parts) j += (j.empty() ? "" : ", ") + p;
    if (!j.empty()) s += " (" + j + ")";
  }
  if (h.contains("python")) {
    const json& p = h["python"];
    s += "; python " + p.value("interpreter", std::string("?"));
    std::string exe = p.value("executable", std::string()), ver = p.value("version", std::string());
    if (!exe.empty() && exe != p.value("interpreter", std::string())) s += " = " + exe;
    if (!ver.empty()) s += " (" + ver + ")";
  }
  return s;
}

// Rules come from the shared SARIF driver (rules/*.md). Defensive: a G-number
// without a document would get a minimal entry, so every result has its rule.
struct RuleTable {
  json driver;
  std::map<std::string, int> index;
};

RuleTable rule_table() {
  RuleTable t;
  t.driver = json::parse(sarif_driver().dump());
  json& rules = t.driver["rules"];
  for (size_t i = 0; i < rules.size(); ++i) t.index[rules[i]["id"].get<std::string>()] = static_cast<int>(i);
  for (const auto& check : probe_checks()) {  // a check without a doc still gets a rule entry
    std::string id = check.id;
    if (t.index.count(id)) continue;
    t.index[id] = static_cast<int>(rules.size());
    std::string help = "See `sparkcheck rule " + id + "`.";
    rules.push_back({{"id", id},
                     {"name", "Gotcha" + id},
                     {"shortDescription", {{"text", "DGX Spark gotcha " + id + "."}}},
                     {"fullDescription", {{"text", "DGX Spark gotcha " + id + " (documentation pending)."}}},
                     {"help", {{"text", help}, {"markdown", help}}},
                     {"defaultConfiguration", {{"level", "warning"}}}});
  }
  return t;
}

}  // namespace

void write_text(const Report& r, std::ostream& out) {
  out << host_line(r) << "\n";
  for (auto& c : r.results) out << c.id << " " << verdict_name(c.verdict) << ": " << c.message << "\n";
  out << "# summary: " << summary_line(r) << "\n";
}

void write_json(const Report& r, std::ostream& out) {
  json checks = json::array();
  bool fail = false;
  for (auto& c : r.results) {
    checks.push_back({{"id", c.id}, {"verdict", verdict_name(c.verdict)}, {"message", c.message}, {"readings", c.readings}});
    fail = fail || c.verdict == Verdict::Fail;
  }
  json counts_j = json::object();
  for (auto& [k, v] : counts(r)) counts_j[k] = v;
  json j = {{"tool", "sparkcheck"},
            {"version", SPARKCHECK_VERSION},
            {"schema_version", kProbeReportSchema},
            {"command", "probe"},
            {"host", r.host},
            {"checks", checks},
            {"summary", counts_j},
            {"exit_code", fail ? 1 : 0}};
  if (!r.node.is_null()) j["node"] = r.node;
  out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";  // readings may not be UTF-8
}

void write_sarif(const Report& r, std::ostream& out) {
  RuleTable t = rule_table();
  const std::string fqn = "host/" + r.hostname;
  json results = json::array();
  for (auto& c : r.results) {
    json res = {{"ruleId", c.id}, {"ruleIndex", t.index[c.id]}, {"message", {{"text", std::string(verdict_name(c.verdict)) + ": " + c.message}}}};
    switch (c.verdict) {
      case Verdict::Fail: res["kind"] = "fail"; res["level"] = "error"; break;
      case Verdict::Warn: res["kind"] = "fail"; res["level"] = "warning"; break;
      case Verdict::Pass: res["kind"] = "pass"; res["level"] = "none"; break;
      case Verdict::Info: res["kind"] = "informational"; res["level"] = "none"; break;
      case Verdict::Skip: res["kind"] = "notApplicable"; res["level"] = "none"; break;
    }
    json loc = {{"logicalLocations", json::array({{{"name", r.hostname}, {"fullyQualifiedName", fqn}, {"kind", "module"}}})}};
    // A result backed by a file (a --config finding of G10) also points at
    // that file, relative to the checkout; machine readings have no file.
    if (c.readings.contains("findings") && !c.readings["findings"].empty()) {
      const json& f = c.readings["findings"][0];
      std::string path = f.value("path", std::string());
      int line = f.value("line", 0);
      if (!path.empty() && path[0] != '/' && path.find("..") != 0) {
        json phys = {{"artifactLocation", {{"uri", uri_encode_path(path)}, {"uriBaseId", "%SRCROOT%"}}}};
        if (line > 0) phys["region"] = {{"startLine", line}};
        loc["physicalLocation"] = phys;
      }
    }
    res["locations"] = json::array({loc});
    res["partialFingerprints"] = {{"probeCheck/v1", c.id + "@" + r.hostname}};
    res["properties"] = {{"verdict", verdict_name(c.verdict)}, {"readings", c.readings}};
    results.push_back(res);
  }
  bool fail = std::any_of(r.results.begin(), r.results.end(), [](const CheckResult& c) { return c.verdict == Verdict::Fail; });
  bool physical = false;
  for (auto& res : results) physical = physical || res["locations"][0].contains("physicalLocation");
  json run = {{"tool", {{"driver", t.driver}}},
              {"automationDetails", {{"id", "sparkcheck/probe/"}}},
              {"invocations", json::array({{{"executionSuccessful", true}, {"exitCode", fail ? 1 : 0}}})},
              {"logicalLocations", json::array({{{"name", r.hostname}, {"fullyQualifiedName", fqn}, {"kind", "module"}}})},
              {"results", results},
              {"properties", {{"host", r.host}, {"schema_version", kProbeReportSchema}}}};
  if (!r.node.is_null()) run["properties"]["node"] = r.node;
  if (physical) {
    std::error_code ec;
    auto cwd = std::filesystem::current_path(ec);
    if (!ec) run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", file_uri(cwd.string())}}}};
  }
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace sc::probe

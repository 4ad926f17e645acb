// SPDX-License-Identifier: Apache-2.0
// The cluster comparison as text (grouped by G-number and subject, every value escaped for the
// terminal), JSON and SARIF 2.1.0 (each node a logical location, notes as tool notifications).
#include <algorithm>

#include "cluster/cluster.h"
#include "core/registry.h"
#include "output/escape.h"
#include "output/sarif.h"

namespace sc::cluster {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

int exit_code(const Comparison& c) {
  if (c.unreadable) return 2;
  return c.findings.empty() ? 0 : 1;
}

std::string summary(const Comparison& c) {
  std::map<std::string, int, decltype(&rule_id_less)> per_rule(&rule_id_less);
  for (const auto& f : c.findings) per_rule[f.rule]++;
  std::string s = std::to_string(c.findings.size()) + (c.findings.size() == 1 ? " difference" : " differences");
  std::string rules;
  for (const auto& [r, n] : per_rule) rules += (rules.empty() ? "" : ", ") + r + " " + std::to_string(n);
  if (!rules.empty()) s += " (" + rules + ")";
  s += ", " + std::to_string(c.notes.size()) + (c.notes.size() == 1 ? " note" : " notes");
  return s;
}

std::string note_text(const Note& n) { return (n.file.empty() ? "" : n.file + ": ") + n.message; }

}  // namespace

void write_text(const Comparison& c, std::ostream& out) {
  out << "# sparkcheck cluster: " << c.nodes.size() << " nodes";
  std::string list;
  for (const auto& n : c.nodes) list += (list.empty() ? "" : ", ") + n.name + " (" + n.file + ")";
  out << (list.empty() ? "" : ": " + term_safe(list)) << "\n";
  std::string heading;
  for (const auto& f : c.findings) {
    std::string h = f.rule + " " + f.group;
    if (h != heading) out << "## " << term_safe(h) << "\n";
    heading = h;
    out << f.rule << " drift: " << term_safe(f.message) << "\n  fix: " << term_safe(f.fix) << "\n";
  }
  for (const auto& n : c.notes) out << "note[" << n.id << "]: " << term_safe(note_text(n)) << "\n";
  if (c.findings.empty() && !c.unreadable) out << "# the nodes agree on every compared reading\n";
  out << "# summary: " << summary(c) << "\n";
}

void write_json(const Comparison& c, std::ostream& out) {
  json nodes = json::array(), findings = json::array(), notes = json::array();
  for (const auto& n : c.nodes)
    nodes.push_back({{"name", n.name}, {"file", n.file}, {"schema_version", n.schema}, {"readings", n.readings.size()}});
  for (const auto& f : c.findings)
    findings.push_back({{"rule", f.rule}, {"group", f.group}, {"key", f.key}, {"message", f.message}, {"fix", f.fix}, {"values", f.values}});
  for (const auto& n : c.notes) notes.push_back({{"file", n.file}, {"id", n.id}, {"message", n.message}});
  json j = {{"tool", "sparkcheck"}, {"version", SPARKCHECK_VERSION}, {"command", "cluster"}, {"nodes", nodes},
            {"findings", findings}, {"notifications", notes}, {"exit_code", exit_code(c)}};
  out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

namespace {

ojson sarif_result(const Finding& f, const std::map<std::string, int>& index) {
  ojson locs = ojson::array();
  for (const auto& [node, value] : f.values)
    locs.push_back({{"logicalLocations", ojson::array({{{"name", node}, {"fullyQualifiedName", "host/" + node}, {"kind", "module"}}})}});
  auto it = index.find(f.rule);
  ojson r = {{"ruleId", f.rule}};
  if (it != index.end()) r["ruleIndex"] = it->second;
  r["kind"] = "fail";
  r["level"] = "warning";
  r["message"] = {{"text", f.message + ". Fix: " + f.fix + "."}};
  r["locations"] = locs;
  r["partialFingerprints"] = {{"clusterDrift/v1", f.rule + ":" + f.key}};
  r["properties"] = {{"group", f.group}, {"key", f.key}, {"values", f.values}};
  return r;
}

}  // namespace

void write_sarif(const Comparison& c, std::ostream& out) {
  ojson driver = sarif_driver();
  std::map<std::string, int> index;
  for (size_t i = 0; i < driver["rules"].size(); ++i) index[driver["rules"][i]["id"].get<std::string>()] = static_cast<int>(i);
  ojson results = ojson::array(), notes = ojson::array(), logical = ojson::array();
  for (const auto& f : c.findings) results.push_back(sarif_result(f, index));
  for (const auto& n : c.notes)
    notes.push_back({{"level", n.id == "unreadable-report" ? "error" : "note"}, {"message", {{"text", note_text(n)}}}, {"descriptor", {{"id", n.id}}}});
  for (const auto& n : c.nodes) logical.push_back({{"name", n.name}, {"fullyQualifiedName", "host/" + n.name}, {"kind", "module"}});
  ojson inv = {{"executionSuccessful", !c.unreadable}, {"exitCode", exit_code(c)}, {"toolExecutionNotifications", notes}};
  ojson run = {{"tool", {{"driver", driver}}},
               {"automationDetails", {{"id", "sparkcheck/cluster/"}}},
               {"invocations", ojson::array({inv})},
               {"logicalLocations", logical},
               {"results", results}};
  ojson doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", ojson::array({run})}};
  out << doc.dump(2, ' ', false, ojson::error_handler_t::replace) << "\n";
}

int comparison_exit_code(const Comparison& c) { return exit_code(c); }

}  // namespace sc::cluster

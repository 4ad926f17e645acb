// SPDX-License-Identifier: Apache-2.0
// The comparison: for every reading key any node reports, the `cluster-drift` entry whose pattern
// matches it says how the nodes' values are compared (exact, differ, distinct, up, not-lower),
// under which G-number and with which fix. Each finding names the nodes and their values.
#include <algorithm>
#include <cmath>
#include <set>

#include "cluster/cluster.h"
#include "core/registry.h"
#include "knowledge/knowledge.h"

namespace sc::cluster {

namespace {

using nlohmann::json;

// ---- derived readings ---------------------------------------------------------

// NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME: "=eth0" exact, "eth,ib" prefixes, "^docker" excludes.
std::optional<std::string> chosen_interface(const Node& n, const std::string& spec) {
  std::vector<std::string> ifs;
  for (const auto& [key, r] : n.readings)
    if (key.rfind("net.", 0) == 0 && key.size() > 10 && key.compare(key.size() - 6, 6, ".state") == 0)
      ifs.push_back(key.substr(4, key.size() - 10));
  bool exact = !spec.empty() && spec[0] == '=';
  std::string list = exact ? spec.substr(1) : spec;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = std::min(list.find(',', start), list.size());
    std::string want = list.substr(start, end - start);
    for (const auto& name : ifs)
      if (!want.empty() && (exact ? name == want : name.rfind(want, 0) == 0)) return name;
    start = end + 1;
  }
  return std::nullopt;
}

Reading derived(json value, const std::string& source) {
  Reading r;
  r.present = true;
  r.value = std::move(value);
  r.source = source;
  return r;
}

void add_chosen(Node& n, const std::string& prefix, const std::string& var) {
  auto it = n.readings.find("env." + var);
  if (it == n.readings.end() || !it->second.present || !it->second.value.is_string()) return;
  std::string spec = it->second.value.get<std::string>();
  if (!spec.empty() && spec[0] == '^') return;  // an exclusion list: which one NCCL picks is not knowable here
  const std::string src = "$" + var + " and /sys/class/net";
  auto name = chosen_interface(n, spec);
  if (!name) {
    n.readings[prefix + ".if.state"] = derived("no interface matching '" + spec + "'", src);
    return;
  }
  n.readings[prefix + ".if.name"] = derived(*name, src);
  for (const char* field : {"state", "speed_mbps", "mtu"}) {
    auto r = n.readings.find("net." + *name + "." + field);
    if (r != n.readings.end()) n.readings[prefix + ".if." + field] = r->second;
  }
}

// ---- values --------------------------------------------------------------------

struct Value {
  enum Kind { Present, Absent, Missing } kind = Missing;
  std::string shown;  // the value, the absent reason, or the entry's `missing` text
  double number = 0;
  bool numeric = false;
};

Value value_of(const Node& n, const std::string& key, const knowledge::Entry& e) {
  Value v;
  auto it = n.readings.find(key);
  if (it == n.readings.end()) {
    v.shown = e.get("missing").empty() ? "not reported" : e.get("missing");
    return v;
  }
  if (!it->second.present) {
    v.kind = Value::Absent;
    v.shown = it->second.absent;
    return v;
  }
  v.kind = Value::Present;
  v.shown = show(it->second.value);
  v.numeric = it->second.value.is_number();
  if (v.numeric) v.number = it->second.value.get<double>();
  return v;
}

std::string label_of(const std::string& key, const knowledge::Entry& e) {
  std::string label = e.get("label").empty() ? key : e.get("label");
  size_t at = label.find("{}");
  if (at != std::string::npos) label.replace(at, 2, e.capture(key).value_or(key));
  return label;
}

// "580.95.05 on spark-a; 580.82.09 on spark-b, spark-c"
std::string by_value(const std::vector<std::pair<std::string, std::string>>& node_values) {
  std::map<std::string, std::vector<std::string>> groups;
  std::vector<std::string> order;
  for (const auto& [node, value] : node_values) {
    if (!groups.count(value)) order.push_back(value);
    groups[value].push_back(node);
  }
  std::string s;
  for (const auto& value : order) {
    std::string nodes;
    for (const auto& n : groups[value]) nodes += (nodes.empty() ? "" : ", ") + n;
    s += (s.empty() ? "" : "; ") + value + " on " + nodes;
  }
  return s;
}

struct KeyView {
  const std::string& key;
  const knowledge::Entry& entry;
  std::string label;
  std::vector<std::pair<std::string, Value>> values;  // compared nodes only
};

void report(Comparison& c, const KeyView& k, const std::string& message, const std::vector<std::string>& nodes) {
  Finding f{k.entry.get("rule"), k.entry.get("group"), k.key, message, k.entry.get("fix"), {}};
  for (const auto& [node, v] : k.values)
    if (nodes.empty() || std::find(nodes.begin(), nodes.end(), node) != nodes.end()) f.values[node] = v.shown;
  c.findings.push_back(std::move(f));
}

std::vector<std::pair<std::string, std::string>> shown(const KeyView& k) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [node, v] : k.values) out.emplace_back(node, v.shown);
  return out;
}

void compare_exact(Comparison& c, const KeyView& k) {
  std::set<std::string> distinct;
  for (const auto& [node, v] : k.values) distinct.insert(v.shown);
  if (distinct.size() > 1) report(c, k, k.label + " differs: " + by_value(shown(k)), {});
}

void compare_up(Comparison& c, const KeyView& k) {
  std::vector<std::string> down, up;
  for (const auto& [node, v] : k.values) {
    if (v.kind != Value::Present) continue;  // not chosen on that node: the environment's drift says so
    std::string s = v.shown;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    (s == "up" || s.find("active") != std::string::npos ? up : down).push_back(node);
  }
  std::string others;
  for (const auto& u : up) others += (others.empty() ? " (up on " : ", ") + u;
  for (const auto& node : down) {
    std::string value;
    for (const auto& [n, v] : k.values)
      if (n == node) value = v.shown;
    report(c, k, k.label + " is " + value + " on " + node + (others.empty() ? "" : others + ")"), {node});
  }
}

void compare_not_lower(Comparison& c, const KeyView& k) {
  double best = 0;
  std::string best_node;
  for (const auto& [node, v] : k.values)
    if (v.numeric && v.number > best) best = v.number, best_node = node;
  double tolerance = k.entry.number("tolerance", 0) / 100.0;
  for (const auto& [node, v] : k.values) {
    if (!v.numeric || v.number >= best * (1 - tolerance)) continue;
    for (const auto& [n2, v2] : k.values)
      if (n2 == best_node) report(c, k, k.label + " is lower on " + node + ": " + v.shown + " on " + node + ", " + v2.shown + " on " + best_node, {node, best_node});
  }
}

void compare_distinct(Comparison& c, const KeyView& k, const std::vector<Node>& nodes) {
  std::map<std::string, std::vector<std::string>> files;
  for (const auto& n : nodes)
    if (auto it = n.readings.find(k.key); it != n.readings.end() && it->second.present) files[show(it->second.value)].push_back(n.file);
  for (const auto& [value, fs] : files)
    if (fs.size() > 1) {
      std::string list;
      for (const auto& f : fs) list += (list.empty() ? "" : ", ") + f;
      Finding f{k.entry.get("rule"), k.entry.get("group"), k.key, "the reports " + list + " all come from " + k.label + " " + value,
                k.entry.get("fix"), {}};
      for (const auto& file : fs) f.values[file] = value;
      c.findings.push_back(std::move(f));
    }
}

// Absent readings are not compared: a note when another node does have the value.
void note_absent(Comparison& c, const KeyView& k, const std::vector<std::pair<const Node*, Value>>& absent) {
  if (absent.empty() || k.values.empty()) return;
  for (const auto& [node, v] : absent)
    c.notes.push_back({node->file, "cannot-compare", k.label + " (" + k.key + ") cannot be compared on " + node->name + ": " + v.shown});
}

void compare_key(Comparison& c, const std::string& key, const knowledge::Entry& e) {
  const std::string& how = e.get("compare");
  if (how == "differ") return;
  KeyView k{key, e, label_of(key, e), {}};
  if (how == "distinct") return compare_distinct(c, k, c.nodes);
  std::vector<std::pair<const Node*, Value>> absent;
  for (const auto& n : c.nodes) {
    Value v = value_of(n, key, e);
    if (v.kind == Value::Absent) absent.emplace_back(&n, v);
    else if (v.kind == Value::Present || !n.legacy) k.values.emplace_back(n.name, v);
  }
  note_absent(c, k, absent);
  if (k.values.size() < 2 && how != "up") return;
  if (how == "up") compare_up(c, k);
  else if (how == "not-lower") compare_not_lower(c, k);
  else compare_exact(c, k);
}

// Two reports from one host would compare nothing: their names are made unique by file.
void unique_names(std::vector<Node>& nodes) {
  std::map<std::string, int> count;
  for (const auto& n : nodes) count[n.name]++;
  for (auto& n : nodes)
    if (count[n.name] > 1) n.name += " (" + n.file + ")";
}

}  // namespace

std::string show(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
    char b[64];
    std::snprintf(b, sizeof b, "%.1f", d);
    return b;
  }
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + show(e);
    return s.empty() ? "(empty)" : s;
  }
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

void add_derived(Node& n) {
  add_chosen(n, "nccl", "NCCL_SOCKET_IFNAME");
  add_chosen(n, "gloo", "GLOO_SOCKET_IFNAME");
}

void compare_nodes(Comparison& c) {
  unique_names(c.nodes);
  const knowledge::Table& table = knowledge::table("cluster-drift");
  std::set<std::string> keys;
  for (const auto& n : c.nodes)
    for (const auto& [key, r] : n.readings) keys.insert(key);
  for (const auto& key : keys)
    if (const knowledge::Entry* e = table.match(key)) compare_key(c, key, *e);
  std::stable_sort(c.findings.begin(), c.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.rule != b.rule) return rule_id_less(a.rule, b.rule);
    return a.group < b.group;
  });
}

}  // namespace sc::cluster

// SPDX-License-Identifier: Apache-2.0
// Reading probe reports without trusting them: a size budget before any read, a nesting bound
// before parsing, every field's type checked. A schema-1 report (no node block) is read for the
// little it carries (host, the G1/G4/G7/G8/G9 readings), with a note of what cannot be compared.
#include <algorithm>

#include "cluster/cluster.h"
#include "core/read_file.h"

namespace sc::cluster {

namespace {

using nlohmann::json;

// Deeper than kMaxDepth, counted outside strings, before the parser sees it.
bool too_deep(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    else if (ch == '{' || ch == '[') {
      if (++depth > kMaxDepth) return true;
    } else if (ch == '}' || ch == ']') --depth;
  }
  return false;
}

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::string str_member(const json& j, const char* key) {
  const json* v = member(j, key);
  return v && v->is_string() ? v->get<std::string>() : "";
}

bool scalar_or_strings(const json& v) {
  if (v.is_string() || v.is_number() || v.is_boolean()) return true;
  return v.is_array() && v.size() <= 256 && std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); });
}

// One reading of the node block: {"value", "source"} or {"absent", "source"}.
std::optional<Reading> parse_reading(const json& r) {
  if (!r.is_object()) return std::nullopt;
  Reading out;
  out.source = str_member(r, "source");
  if (const json* v = member(r, "value"); v && scalar_or_strings(*v)) {
    out.present = true;
    out.value = *v;
    return out;
  }
  if (const json* a = member(r, "absent"); a && a->is_string()) {
    out.absent = a->get<std::string>();
    return out;
  }
  return std::nullopt;
}

void read_node_block(const json& block, Node& n, std::vector<Note>& notes) {
  size_t bad = 0;
  for (const auto& [key, r] : block.items()) {
    if (n.readings.size() >= kMaxReadings) {
      notes.push_back({n.file, "bad-reading", "more than " + std::to_string(kMaxReadings) + " readings: the rest are ignored"});
      break;
    }
    auto rd = parse_reading(r);
    if (rd) n.readings[key] = *rd;
    else if (bad++ < 3) notes.push_back({n.file, "bad-reading", "reading `" + key + "` has neither a value nor an absent reason of the right type: ignored"});
  }
}

Reading legacy(json value, const std::string& source) {
  Reading r;
  r.present = true;
  r.value = std::move(value);
  r.source = source + " (schema 1)";
  return r;
}

const json* check_readings(const json& report, const char* id) {
  const json* checks = member(report, "checks");
  if (!checks || !checks->is_array()) return nullptr;
  for (const auto& c : *checks)
    if (str_member(c, "id") == id) return member(c, "readings");
  return nullptr;
}

void legacy_host(const json& host, Node& n) {
  if (std::string h = str_member(host, "hostname"); !h.empty()) n.readings["hostname"] = legacy(h, "host.hostname");
  const json* gpu = member(host, "gpu");
  const std::pair<const char*, const char*> fields[] = {{"driver_version", "driver.version"}, {"driver_cuda", "cuda.driver"},
                                                        {"name", "gpu.name"}, {"capability", "gpu.capability"}};
  for (const auto& [from, to] : fields)
    if (std::string v = gpu ? str_member(*gpu, from) : ""; !v.empty()) n.readings[to] = legacy(v, "host.gpu." + std::string(from));
  if (const json* c = gpu ? member(*gpu, "count") : nullptr; c && c->is_number_integer())
    n.readings["gpu.count"] = legacy(*c, "host.gpu.count");
  if (const json* py = member(host, "python"); py && !str_member(*py, "version").empty())
    n.readings["python.version"] = legacy(str_member(*py, "version"), "host.python.version");
}

void legacy_checks(const json& report, Node& n) {
  if (const json* g1 = check_readings(report, "G1")) {
    if (std::string v = str_member(*g1, "torch"); !v.empty()) n.readings["torch.version"] = legacy(v, "checks G1 torch");
    if (std::string v = str_member(*g1, "torch_cuda"); !v.empty()) n.readings["torch.cuda"] = legacy(v, "checks G1 torch_cuda");
  }
  if (const json* g4 = check_readings(report, "G4"))
    if (const json* p = member(*g4, "power_limit_w"); p && p->is_number() && p->get<double>() > 0)
      n.readings["gpu.power_limit_w"] = legacy(*p, "checks G4 power_limit_w");
  if (const json* g7 = check_readings(report, "G7"))
    if (const json* a = member(*g7, "torch_arch_list"); a && scalar_or_strings(*a) && a->is_array())
      n.readings["torch.arch_list"] = legacy(*a, "checks G7 torch_arch_list");
  const json* g8 = check_readings(report, "G8");
  const json* stack = g8 ? member(*g8, "stack") : nullptr;
  if (stack && stack->is_array())
    for (const auto& s : *stack) {  // "torch 2.11.0+cu130"
      std::string e = s.is_string() ? s.get<std::string>() : "";
      size_t sp = e.find(' ');
      if (sp != std::string::npos && sp > 0 && e.substr(0, sp) != "torch")
        n.readings["package." + e.substr(0, sp)] = legacy(e.substr(sp + 1), "checks G8 stack");
    }
}

// The G8 check's known-broken matches, "none" when it matched nothing; absent without a G8 check.
void add_g8(const json& report, Node& n) {
  Reading r;
  r.source = "checks G8 matched";
  const json* g8 = check_readings(report, "G8");
  const json* m = g8 ? member(*g8, "matched") : nullptr;
  if (m && m->is_array() && m->size() <= 256) {
    json ids = json::array();
    for (const auto& e : *m)
      if (std::string id = e.is_string() ? e.get<std::string>() : str_member(e, "id"); !id.empty()) ids.push_back(id);
    r.present = true;
    r.value = ids.empty() ? json("none") : ids;
  } else {
    r.absent = "the report has no G8 check";
  }
  n.readings["g8.matched"] = r;
}

std::string node_name(const json& report, const std::string& file) {
  std::string h;
  if (const json* host = member(report, "host")) h = str_member(*host, "hostname");
  if (const json* node = member(report, "node"))
    if (const json* r = member(*node, "hostname")) h = str_member(*r, "value").empty() ? h : str_member(*r, "value");
  return h.empty() ? file : h;
}

}  // namespace

std::optional<Node> parse_report(const std::string& text, const std::string& file, std::vector<Note>& notes) {
  auto bad = [&](const std::string& why) {
    notes.push_back({file, "unreadable-report", why});
    return std::nullopt;
  };
  if (too_deep(text)) return bad("nested deeper than " + std::to_string(kMaxDepth) + " levels: not a probe report");
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return bad("not valid JSON (truncated or not a probe report)");
  if (!j.is_object() || str_member(j, "command") != "probe" || !member(j, "host") || !member(j, "host")->is_object())
    return bad("not a `sparkcheck probe --format json` report (no \"command\": \"probe\" and host)");
  Node n;
  n.file = file;
  n.name = node_name(j, file);
  const json* schema = member(j, "schema_version");
  n.schema = schema && schema->is_number_integer() ? schema->get<int>() : 1;
  const json* block = member(j, "node");
  if (block && block->is_object()) {
    read_node_block(*block, n, notes);
  } else {
    n.legacy = true;
    legacy_host(*member(j, "host"), n);
    legacy_checks(j, n);
    notes.push_back({file, "old-schema",
                     "schema " + std::to_string(n.schema) + " report without a node block: only the driver, CUDA, GPU, "
                     "Python, torch and the G8 stack are compared; NCCL, network interfaces, the NCCL/Gloo environment, "
                     "container image, OS and the other packages cannot be (re-run `sparkcheck probe --format json` "
                     "with this version)"});
  }
  add_g8(j, n);
  add_derived(n);
  return n;
}

std::optional<Node> load_report(const std::string& path, size_t max_bytes, std::vector<Note>& notes) {
  std::string text, why;
  if (!read_regular_file(path, text, why, max_bytes)) {
    notes.push_back({path, "unreadable-report", "cannot read the report: " + why});
    return std::nullopt;
  }
  return parse_report(text, path, notes);
}

}  // namespace sc::cluster

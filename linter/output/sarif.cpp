// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
// Rules come from the embedded rule docs; URIs are %SRCROOT%-relative.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_stream.h"
#include "core/rule_docs.h"
#include "core/suppress.h"
#include "output/output.h"
#include "output/sarif.h"

namespace sc {

using ojson = nlohmann::ordered_json;

std::string uri_encode_path(std::string_view p) {
  static const char* hex = "0123456789ABCDEF";
  std::string r;
  for (unsigned char c : p) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') r += static_cast<char>(c);
    else {
      r += '%';
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

std::string file_uri(const std::string& abs_dir) {
  std::string d = abs_dir;
  if (d.empty() || d.back() != '/') d += '/';
  return "file://" + uri_encode_path(d);
}

static std::string pascal(const std::string& kebab) {
  std::string r;
  bool up = true;
  for (char c : kebab) {
    if (c == '-' || c == '_' || c == ' ') { up = true; continue; }
    r += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return r;
}

ojson sarif_rules() {
  ojson rules = ojson::array();
  for (const auto& d : rule_docs()) {
    ojson tags = ojson::array();
    for (auto& t : d.tags) tags.push_back(t);
    rules.push_back({
        {"id", d.id},
        {"name", pascal(d.name)},
        {"shortDescription", {{"text", d.short_description}}},
        {"fullDescription", {{"text", d.full_description}}},
        {"help", {{"text", markdown_to_text(d.markdown)}, {"markdown", d.markdown}}},
        {"defaultConfiguration", {{"level", d.default_level}}},
        {"properties",
         {{"tags", tags},
          {"precision", d.precision},
          {"problem.severity", d.default_level == "note" ? "recommendation" : d.default_level}}},
    });
  }
  return rules;
}

ojson sarif_driver() {
  return {{"name", "sparkcheck"},
          {"version", tool_version()},
          {"semanticVersion", tool_version()},
          {"informationUri", tool_information_uri()},
          {"rules", sarif_rules()}};
}

static ojson region_json(const Range& r) {
  ojson j = {{"startLine", r.line}, {"startColumn", r.col}};
  j["endLine"] = r.end_line > 0 ? r.end_line : r.line;
  j["endColumn"] = r.end_col > 0 ? r.end_col : r.col + 1;
  if (j["endLine"] == r.line && j["endColumn"].get<int>() <= r.col) j["endColumn"] = r.col + 1;
  return j;
}

// The whole lines the region spans (a `\\`-continued instruction spans several):
// SARIF requires the context region to contain the region (Multitool SARIF1008).
static ojson context_region(const SourceFile& src, const Range& r) {
  int last = std::max(r.line, r.end_line);
  std::string text;
  for (int n = r.line; n <= last; ++n) {
    std::string_view line = src.line(n);
    if (line.empty() && n == r.line) return {};
    text += std::string(line) + (n < last ? "\n" : "");
    if (text.size() >= 1000) return {};
  }
  return {{"startLine", r.line}, {"endLine", last}, {"snippet", {{"text", text}}}};
}

static ojson artifact(const std::string& path);

static ojson phys(const Location& l, const LintResult& res) {
  ojson p = {{"artifactLocation", artifact(l.path)}};
  if (l.range.valid()) {
    p["region"] = region_json(l.range);
    if (const ParsedFile* pf = res.project.find(l.path)) {
      if (auto ctx = context_region(pf->src, l.range); !ctx.empty()) p["contextRegion"] = ctx;
    }
  }
  return p;
}

ojson sarif_notification(const Notification& n, const LintResult& res) {
  ojson j = {{"level", level_name(n.level)},
             {"message", {{"text", (n.path.empty() ? "" : n.path + ": ") + n.message}}},
             {"descriptor", {{"id", n.id}}}};
  if (!n.path.empty()) {
    Location l{n.path, n.range};
    j["locations"] = ojson::array({{{"physicalLocation", phys(l, res)}}});
  }
  return j;
}

// An edit's place: an empty region (start == end) is an insertion point.
static ojson deleted_region(const Range& r) {
  return {{"startLine", r.line}, {"startColumn", r.col}, {"endLine", r.end_line}, {"endColumn", r.end_col}};
}

static ojson artifact(const std::string& path) {
  if (!path.empty() && path[0] == '/') return {{"uri", "file://" + uri_encode_path(path)}};
  return {{"uri", uri_encode_path(path)}, {"uriBaseId", "%SRCROOT%"}};
}

// SARIF fix objects: one artifactChange per file, its edits as replacements.
static ojson sarif_fixes(const std::vector<Fix>& fixes) {
  ojson out = ojson::array();
  for (const Fix& fx : fixes) {
    ojson changes = ojson::array();
    std::vector<std::string> paths;
    for (const Edit& e : fx.edits)
      if (std::find(paths.begin(), paths.end(), e.loc.path) == paths.end()) paths.push_back(e.loc.path);
    for (const std::string& path : paths) {
      ojson reps = ojson::array();
      for (const Edit& e : fx.edits)
        if (e.loc.path == path)
          reps.push_back({{"deletedRegion", deleted_region(e.loc.range)}, {"insertedContent", {{"text", e.text}}}});
      changes.push_back({{"artifactLocation", artifact(path)}, {"replacements", reps}});
    }
    out.push_back({{"description", {{"text", fx.title}}},
                   {"artifactChanges", changes},
                   {"properties", {{"applicability", fx.safe ? "safe" : "unsafe"}}}});
  }
  return out;
}

static ojson sarif_result(const Finding& f, const LintResult& r) {
  std::string text = message_with_fix(f);
  ojson res = {{"ruleId", f.rule},
               {"ruleIndex", rule_index(f.rule)},
               {"level", level_name(f.level)},
               {"message", {{"text", text}}},
               {"locations", ojson::array({{{"physicalLocation", phys(f.loc, r)}}})},
               {"partialFingerprints", {{"primaryLocationLineHash", f.fingerprint}}}};
  if (r.baseline_applied) res["baselineState"] = "new";  // baselined findings are not in the log
  if (!f.related.empty()) {
    ojson rel = ojson::array();
    int id = 1;
    for (const auto& x : f.related)
      rel.push_back({{"id", id++}, {"physicalLocation", phys(x.loc, r)}, {"message", {{"text", x.message}}}});
    res["relatedLocations"] = rel;
  }
  if (!f.fixes.empty()) res["fixes"] = sarif_fixes(f.fixes);
  if (!f.suppressions.empty()) {
    ojson sup = ojson::array();
    for (const auto& s : f.suppressions) {
      ojson one = {{"kind", s.kind.empty() ? "inSource" : s.kind}, {"status", "accepted"}, {"justification", s.justification}};
      if (s.loc.range.valid()) one["location"] = {{"physicalLocation", phys(s.loc, r)}};
      sup.push_back(one);
    }
    res["suppressions"] = sup;
  }
  return res;
}

static ojson sarif_invocation_head(const LintResult& r, const OutputOptions& o) {
  ojson inv = {{"executionSuccessful", r.complete}};
  if (!o.command_line.empty()) inv["commandLine"] = o.command_line;
  if (!o.working_directory.empty()) inv["workingDirectory"] = {{"uri", file_uri(o.working_directory)}};
  if (!o.config_file.empty()) inv["properties"] = {{"configurationFile", o.config_file}};
  return inv;
}

// runs[0].invocations: one invocation, its notifications streamed.
static void write_invocations(JsonStream& w, const LintResult& r, const OutputOptions& o) {
  w.key("invocations");
  w.begin_array();
  w.begin_object();
  const ojson head = sarif_invocation_head(r, o);
  for (const auto& [k, v] : head.items()) w.member(k, v);
  w.key("toolExecutionNotifications");
  w.begin_array();
  for (const auto& n : r.notifications) w.value(sarif_notification(n, r));
  w.end();
  w.end();
  w.end();
}

// Streamed one result at a time: memory does not grow with the number of findings.
static void write_sarif(const LintResult& r, std::ostream& out, const OutputOptions& o) {
  JsonStream w(out);
  w.begin_object();
  w.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.member("version", "2.1.0");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.member("tool", {{"driver", sarif_driver()}});  // every documented rule, the meta rule among them
  w.member("automationDetails", {{"id", "sparkcheck/lint/"}});
  w.member("originalUriBaseIds", {{"%SRCROOT%", {{"uri", file_uri(r.project.root)}}}});
  write_invocations(w, r, o);
  w.member("columnKind", "unicodeCodePoints");
  w.key("results");
  w.begin_array();
  for (const auto& f : r.findings) w.value(sarif_result(f, r));
  w.end();
  w.end();
  w.end();
  w.end();
  out << "\n";
}

SPARKCHECK_OUTPUT("sarif", write_sarif);
}  // namespace sc

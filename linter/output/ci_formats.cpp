// SPDX-License-Identifier: Apache-2.0
// Formats CI systems read, named as ruff and hadolint name them:
//   gitlab      GitLab Code Quality report (JSON array: description, check_name,
//               fingerprint, severity, location.path, location.lines.begin)
//   checkstyle  Checkstyle XML (<checkstyle><file name><error line column
//               severity message source/></file></checkstyle>)
//   rdjson      reviewdog Diagnostic Format (source, diagnostics[].message,
//               location.path, location.range.start/end, severity, code, suggestions
//               (the fix's edits: range + text))
// gitlab and checkstyle have no field for a fix: their message carries the "Fix:" text only.
// Suppressed findings are left out, as in the text formats.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "core/json_stream.h"
#include "core/rule_docs.h"
#include "engine/fix.h"
#include "output/escape.h"
#include "output/output.h"

namespace sc {
namespace {

using ojson = nlohmann::ordered_json;

std::string with_fix(const Finding& f) { return message_with_fix(f); }

int line_of(const Range& r) { return r.valid() ? r.line : 1; }

std::string rule_url(const std::string& id) {
  return std::string(tool_information_uri()) + "/blob/main/docs/rules/" + id + ".md";
}

const char* gitlab_severity(Level l) {
  return l == Level::Error ? "critical" : l == Level::Warning ? "major" : "info";
}

// gitlab and rdjson are streamed one finding at a time, as json and sarif are.
void write_gitlab(const LintResult& r, std::ostream& out, const OutputOptions&) {
  JsonStream w(out);
  w.begin_array();
  for (const auto& f : r.findings) {
    if (!f.suppressions.empty()) continue;
    w.value({{"description", "[" + f.rule + "] " + with_fix(f)},
             {"check_name", f.rule},
             {"fingerprint", f.fingerprint},
             {"severity", gitlab_severity(f.level)},
             {"location", {{"path", f.loc.path}, {"lines", {{"begin", line_of(f.loc.range)}}}}}});
  }
  w.end();
  out << "\n";
}

// rdjson columns count UTF-8 bytes; ours count code points.
int byte_column(const LintResult& r, const std::string& path, int line, int col) {
  const ParsedFile* pf = r.project.find(path);
  if (!pf || col <= 1) return std::max(col, 1);
  std::string_view text = pf->src.line(line);
  size_t i = 0;
  for (int cp = 1; cp < col && i < text.size(); ++cp) i += std::max<size_t>(1, utf8_seq_len(text, i));
  return static_cast<int>(i) + 1 + std::max(0, col - 1 - static_cast<int>(text.size()));
}

ojson rd_range(const LintResult& r, const Location& l) {
  const Range& g = l.range;
  if (!g.valid()) return {{"start", {{"line", 1}}}};
  ojson start = {{"line", g.line}, {"column", byte_column(r, l.path, g.line, g.col)}};
  if (g.end_line <= 0) return {{"start", start}};
  return {{"start", start}, {"end", {{"line", g.end_line}, {"column", byte_column(r, l.path, g.end_line, g.end_col)}}}};
}

const char* rd_severity(Level l) { return l == Level::Error ? "ERROR" : l == Level::Warning ? "WARNING" : "INFO"; }

// The edits of the fix --fix would take (a safe one first) as reviewdog suggestions; none when
// an edit lies in another file (a suggestion has no path of its own).
ojson rd_suggestions(const LintResult& r, const Finding& f) {
  const Fix* fx = applicable_fix(f, false);
  if (!fx) fx = applicable_fix(f, true);
  ojson out = ojson::array();
  if (!fx) return out;
  for (const Edit& e : fx->edits) {
    if (e.loc.path != f.loc.path || !e.loc.range.valid()) return ojson::array();
    out.push_back({{"range", rd_range(r, e.loc)}, {"text", e.text}});
  }
  return out;
}

ojson rd_finding(const LintResult& r, const Finding& f) {
  ojson d = {{"message", with_fix(f)},
             {"location", {{"path", f.loc.path}, {"range", rd_range(r, f.loc)}}},
             {"severity", rd_severity(f.level)},
             {"code", {{"value", f.rule}, {"url", rule_url(f.rule)}}}};
  if (ojson s = rd_suggestions(r, f); !s.empty()) d["suggestions"] = std::move(s);
  if (f.related.empty()) return d;
  ojson rel = ojson::array();
  for (auto& x : f.related)
    rel.push_back({{"message", x.message}, {"location", {{"path", x.loc.path}, {"range", rd_range(r, x.loc)}}}});
  d["related_locations"] = rel;
  return d;
}

void write_rdjson(const LintResult& r, std::ostream& out, const OutputOptions&) {
  JsonStream w(out);
  w.begin_object();
  w.member("source", {{"name", "sparkcheck"}, {"url", tool_information_uri()}});
  w.key("diagnostics");
  w.begin_array();
  for (const auto& f : r.findings)
    if (f.suppressions.empty()) w.value(rd_finding(r, f));
  for (const auto& n : r.notifications)
    if (!n.path.empty())
      w.value({{"message", n.message},
               {"location", {{"path", n.path}, {"range", rd_range(r, {n.path, n.range})}}},
               {"severity", rd_severity(n.level)},
               {"code", {{"value", n.id}}}});
  w.end();
  w.end();
  out << "\n";
}

const char* cs_severity(Level l) { return l == Level::Error ? "error" : l == Level::Warning ? "warning" : "info"; }

void cs_error(std::ostream& out, const Range& g, Level l, const std::string& msg, const std::string& source) {
  out << "    <error line=\"" << line_of(g) << "\" column=\"" << (g.valid() ? g.col : 1) << "\" severity=\""
      << cs_severity(l) << "\" message=\"" << xml_escape(msg) << "\" source=\"" << xml_escape(source) << "\"/>\n";
}

void write_checkstyle(const LintResult& r, std::ostream& out, const OutputOptions&) {
  std::map<std::string, std::vector<std::string>> by_file;  // path -> <error> lines, in finding order
  for (const auto& f : r.findings) {
    if (!f.suppressions.empty()) continue;
    std::ostringstream e;
    cs_error(e, f.loc.range, f.level, with_fix(f), "sparkcheck." + f.rule);
    by_file[f.loc.path].push_back(e.str());
  }
  for (const auto& n : r.notifications) {
    if (n.path.empty()) continue;
    std::ostringstream e;
    cs_error(e, n.range, n.level, n.message, "sparkcheck." + n.id);
    by_file[n.path].push_back(e.str());
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  for (auto& [path, errors] : by_file) {
    out << "  <file name=\"" << xml_escape(path) << "\">\n";
    for (auto& e : errors) out << e;
    out << "  </file>\n";
  }
  out << "</checkstyle>\n";
}

}  // namespace
SPARKCHECK_OUTPUT("gitlab", write_gitlab);
SPARKCHECK_OUTPUT("rdjson", write_rdjson);
SPARKCHECK_OUTPUT("checkstyle", write_checkstyle);
}  // namespace sc

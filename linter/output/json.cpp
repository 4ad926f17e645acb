// SPDX-License-Identifier: Apache-2.0
// `--format json`: a plain list for scripts.
#include <nlohmann/json.hpp>

#include "core/json_stream.h"
#include "core/source.h"
#include "output/escape.h"
#include "output/output.h"

namespace sc {
namespace {

nlohmann::ordered_json loc_json(const Location& l) {
  nlohmann::ordered_json j = {{"path", l.path},
                              {"line", l.range.line},
                              {"column", l.range.col},
                              {"end_line", l.range.end_line},
                              {"end_column", l.range.end_col}};
  // a path that is not UTF-8 is printed with U+FFFD; its bytes stay recoverable here
  if (!valid_utf8(l.path)) j["path_escaped"] = term_safe(l.path);
  return j;
}

nlohmann::ordered_json fixes_json(const std::vector<Fix>& fixes) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const Fix& fx : fixes) {
    nlohmann::ordered_json edits = nlohmann::ordered_json::array();
    for (const Edit& e : fx.edits) {
      nlohmann::ordered_json j = loc_json(e.loc);
      j["content"] = e.text;
      j["old"] = e.old;
      edits.push_back(j);
    }
    a.push_back({{"title", fx.title}, {"applicability", fx.safe ? "safe" : "unsafe"}, {"edits", edits}});
  }
  return a;
}

// A location's members, into the object open in `w`.
void loc_members(JsonStream& w, const Location& l) {
  w.member_string("path", l.path);
  w.member_number("line", l.range.line);
  w.member_number("column", l.range.col);
  w.member_number("end_line", l.range.end_line);
  w.member_number("end_column", l.range.end_col);
  // a path that is not UTF-8 is printed with U+FFFD; its bytes stay recoverable here
  if (!valid_utf8(l.path)) w.member_string("path_escaped", term_safe(l.path));
}

// One finding, written directly (the members in the order a reader of older reports saw).
void write_finding(JsonStream& w, const Finding& f) {
  w.begin_object();
  loc_members(w, f.loc);
  w.member_string("rule", f.rule);
  w.member_string("level", level_name(f.level));
  w.member_string("message", f.message);
  w.member_string("fix", f.fix);
  if (!f.fixes.empty()) w.member("fixes", fixes_json(f.fixes));  // machine-applicable edits (--fix)
  w.member_string("fingerprint", f.fingerprint);
  w.key("related");
  w.begin_array();
  for (const auto& rel : f.related) {
    w.begin_object();
    loc_members(w, rel.loc);
    w.member_string("message", rel.message);
    w.end();
  }
  w.end();
  w.member_bool("suppressed", !f.suppressions.empty());
  if (!f.suppressions.empty()) {
    w.member_string("justification", f.suppressions[0].justification);
    w.member_string("suppression_kind", f.suppressions[0].kind);  // "inSource" (comment) or "external" (configuration)
  }
  w.end();
}

void write_notification(JsonStream& w, const Notification& n) {
  w.begin_object();
  w.member_string("path", n.path);
  w.member_number("line", n.range.line);
  w.member_string("level", level_name(n.level));
  w.member_string("id", n.id);
  w.member_string("message", n.message);
  w.end();
}

// Streamed one finding at a time: memory does not grow with the number of findings.
void write_json(const LintResult& r, std::ostream& out, const OutputOptions&) {
  JsonStream w(out);
  w.begin_object();
  w.member("version", tool_version());
  w.key("findings");
  w.begin_array();
  for (const auto& f : r.findings) write_finding(w, f);
  w.end();
  w.key("notifications");
  w.begin_array();
  for (const auto& n : r.notifications) write_notification(w, n);
  w.end();
  w.member("files_linted", r.files_linted);
  w.member("baselined", r.baselined);
  w.member("complete", r.complete);
  w.end();
  out << "\n";
}

}  // namespace
SPARKCHECK_OUTPUT("json", write_json);
}  // namespace sc

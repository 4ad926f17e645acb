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

nlohmann::ordered_json finding_json(const Finding& f) {
  nlohmann::ordered_json j = loc_json(f.loc);
  j["rule"] = f.rule;
  j["level"] = level_name(f.level);
  j["message"] = f.message;
  j["fix"] = f.fix;
  if (!f.fixes.empty()) j["fixes"] = fixes_json(f.fixes);  // machine-applicable edits (--fix)
  j["fingerprint"] = f.fingerprint;
  j["related"] = nlohmann::ordered_json::array();
  for (const auto& rel : f.related) {
    auto rj = loc_json(rel.loc);
    rj["message"] = rel.message;
    j["related"].push_back(rj);
  }
  j["suppressed"] = !f.suppressions.empty();
  if (!f.suppressions.empty()) {
    j["justification"] = f.suppressions[0].justification;
    j["suppression_kind"] = f.suppressions[0].kind;  // "inSource" (comment) or "external" (configuration)
  }
  return j;
}

// Streamed one finding at a time: memory does not grow with the number of findings.
void write_json(const LintResult& r, std::ostream& out, const OutputOptions&) {
  JsonStream w(out);
  w.begin_object();
  w.member("version", tool_version());
  w.key("findings");
  w.begin_array();
  for (const auto& f : r.findings) w.value(finding_json(f));
  w.end();
  w.key("notifications");
  w.begin_array();
  for (const auto& n : r.notifications)
    w.value({{"path", n.path}, {"line", n.range.line}, {"level", level_name(n.level)}, {"id", n.id}, {"message", n.message}});
  w.end();
  w.member("files_linted", r.linted.size());
  w.member("baselined", r.baselined);
  w.member("complete", r.complete);
  w.end();
  out << "\n";
}

}  // namespace
SPARKCHECK_OUTPUT("json", write_json);
}  // namespace sc

// `--format json`: a plain list for scripts.
#include <nlohmann/json.hpp>

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

void write_json(const LintResult& r, std::ostream& out, const OutputOptions&) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) {
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
    findings.push_back(j);
  }
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const auto& n : r.notifications)
    notes.push_back({{"path", n.path}, {"line", n.range.line}, {"level", level_name(n.level)}, {"id", n.id}, {"message", n.message}});
  nlohmann::ordered_json doc = {{"version", tool_version()},
                                {"findings", findings},
                                {"notifications", notes},
                                {"files_linted", r.linted.size()},
                                {"baselined", r.baselined},
                                {"complete", r.complete}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace
SPARKCHECK_OUTPUT("json", write_json);
}  // namespace sc

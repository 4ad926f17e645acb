// SPDX-License-Identifier: Apache-2.0
// `--format junit`: JUnit XML for CI test-report views (GitLab, Jenkins,
// Azure Pipelines, CircleCI...). One <testsuite> per linted file; each finding
// is a failing <testcase>, a suppressed one is <skipped/>, a file without
// findings gets one passing testcase, and run problems are <error> testcases.
#include <map>

#include "output/escape.h"
#include "output/output.h"

namespace sc {

std::string xml_escape(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      case '\'': r += "&apos;"; break;
      case '\n': r += "&#10;"; break;
      case '\r': r += "&#13;"; break;
      case '\t': r += "&#9;"; break;
      default:
        if (c < 0x20 || c == 0x7F) {  // not representable in XML 1.0: shown escaped
          r += hex_byte(c);
        } else if (c >= 0x80) {  // invalid UTF-8 would make the document ill-formed
          size_t n = utf8_seq_len(s, i);
          if (n == 0) { r += hex_byte(c); continue; }
          r.append(s.substr(i, n));
          i += n - 1;
        } else {
          r += static_cast<char>(c);
        }
    }
  }
  return r;
}

namespace {

struct Case {
  std::string name, body;  // body: inner XML
  int failures = 0, errors = 0, skipped = 0;
};

Case finding_case(const Finding& f) {
  const Range& g = f.loc.range;
  std::string where = f.loc.path + ":" + std::to_string(g.line) + ":" + std::to_string(g.col);
  Case c;
  c.name = f.rule + " at " + where;
  std::string text = where + ": " + level_name(f.level) + "[" + f.rule + "]: " + f.message;
  if (!f.fix.empty()) text += "\nfix: " + f.fix;
  for (const auto& rel : f.related)
    text += "\nsee: " + rel.loc.path + ":" + std::to_string(rel.loc.range.line) + ": " + rel.message;
  if (!f.suppressions.empty()) {
    c.body = "<skipped message=\"" + xml_escape("suppressed: " + f.suppressions[0].justification) + "\"/>";
    c.skipped = 1;
  } else {
    c.body = "<failure type=\"" + xml_escape(f.rule) + "\" message=\"" + xml_escape(f.message) + "\">" +
             xml_escape(text) + "</failure>";
    c.failures = 1;
  }
  return c;
}

Case notification_case(const Notification& n) {
  Case c;
  c.name = n.id + (n.range.valid() ? " at line " + std::to_string(n.range.line) : "");
  if (n.level == Level::Error) c.errors = 1;
  else c.skipped = 1;
  c.body = n.level == Level::Error
               ? "<error type=\"" + xml_escape(n.id) + "\" message=\"" + xml_escape(n.message) + "\"/>"
               : "<skipped message=\"" + xml_escape(n.id + ": " + n.message) + "\"/>";
  return c;
}

void write_suite(std::ostream& out, const std::string& path, const std::vector<Case>& cases) {
  int f = 0, e = 0, s = 0;
  for (auto& c : cases) { f += c.failures; e += c.errors; s += c.skipped; }
  out << "  <testsuite name=\"" << xml_escape(path) << "\" tests=\"" << cases.size() << "\" failures=\"" << f
      << "\" errors=\"" << e << "\" skipped=\"" << s << "\">\n";
  for (auto& c : cases) {
    out << "    <testcase classname=\"" << xml_escape(path) << "\" name=\"" << xml_escape(c.name) << "\" file=\""
        << xml_escape(path) << "\"";
    if (c.body.empty()) out << "/>\n";
    else out << ">\n      " << c.body << "\n    </testcase>\n";
  }
  out << "  </testsuite>\n";
}

void write_junit(const LintResult& r, std::ostream& out, const OutputOptions&) {
  std::map<std::string, std::vector<Case>> suites;
  for (const auto& p : r.linted) suites[p];
  for (const auto& f : r.findings) suites[f.loc.path].push_back(finding_case(f));
  for (const auto& n : r.notifications) suites[n.path.empty() ? std::string("sparkcheck") : n.path].push_back(notification_case(n));
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  for (auto& [path, cases] : suites) {
    if (cases.empty()) cases.push_back({"sparkcheck", "", 0, 0, 0});
    for (auto& c : cases) {
      ++tests;
      failures += c.failures;
      errors += c.errors;
      skipped += c.skipped;
    }
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"sparkcheck\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\""
      << errors << "\" skipped=\"" << skipped << "\">\n";
  for (auto& [path, cases] : suites) write_suite(out, path, cases);
  out << "</testsuites>\n";
}

}  // namespace
SPARKCHECK_OUTPUT("junit", write_junit);
}  // namespace sc

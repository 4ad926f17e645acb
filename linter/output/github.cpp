// SPDX-License-Identifier: Apache-2.0
// `--format github`: GitHub Actions workflow commands
//   ::error file=P,line=L,col=C,endLine=L2,endColumn=C2,title=G1 name::message
// GitHub keeps at most 10 error, 10 warning and 10 notice annotations per step
// and drops the rest silently. We annotate the most severe findings up to those
// caps and write everything that did not fit to the job summary
// ($GITHUB_STEP_SUMMARY) as a markdown table, so nothing is lost.
#include <algorithm>
#include <cstring>
#include <fstream>

#include "core/rule_docs.h"
#include "output/escape.h"
#include "output/output.h"

namespace sc {

// Workflow-command escaping (actions/toolkit command.ts): the message escapes
// % CR LF; property values escape those plus ':' and ','.
std::string gh_escape_data(std::string_view s) {
  std::string r, run;  // other control characters and invalid UTF-8: shown escaped (output/escape.h)
  for (char c : s) {
    if (c != '%' && c != '\r' && c != '\n') { run += c; continue; }
    r += term_safe(run);
    run.clear();
    r += c == '%' ? "%25" : c == '\r' ? "%0D" : "%0A";
  }
  return r + term_safe(run);
}

std::string gh_escape_property(std::string_view s) {
  std::string r;
  for (char c : gh_escape_data(s)) {
    if (c == ':') r += "%3A";
    else if (c == ',') r += "%2C";
    else r += c;
  }
  return r;
}

namespace {

const char* gh_level(Level l) { return l == Level::Error ? "error" : l == Level::Warning ? "warning" : "notice"; }

struct Item {
  Level level;
  std::string path, title, message;
  Range range;
};

std::string command(const Item& it) {
  std::string props;
  auto add = [&](const char* k, const std::string& v) {
    props += (props.empty() ? " " : ",") + std::string(k) + "=" + gh_escape_property(v);
  };
  if (!it.path.empty()) add("file", it.path);
  if (it.range.valid()) {
    add("line", std::to_string(it.range.line));
    add("col", std::to_string(it.range.col));
    if (it.range.end_line > 0) add("endLine", std::to_string(it.range.end_line));
    if (it.range.end_col > 0) add("endColumn", std::to_string(it.range.end_col));
  }
  add("title", it.title);
  return "::" + std::string(gh_level(it.level)) + props + "::" + gh_escape_data(it.message);
}

// A job-summary table cell: Markdown and HTML syntax and control characters escaped.
std::string md_cell(const std::string& s) {
  std::string r;
  for (char c : term_safe(s)) {
    if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else if (c == '&') r += "&amp;";
    else if (std::strchr("\\`*_[]|!#~", c) && c) r += std::string("\\") + c;
    else r += c;
  }
  return r;
}

// The job summary (GITHUB_STEP_SUMMARY): counts, then the results that got no annotation.
void write_summary(const LintResult& r, std::ostream& out, const OutputOptions& o, const std::vector<Item>& items,
                   const std::vector<size_t>& rest, const size_t counts[3], size_t nfind) {
  std::ofstream s(o.summary_file, std::ios::app);
  if (!s) {
    out << "::warning title=sparkcheck::cannot append to the job summary " << gh_escape_data(o.summary_file) << "\n";
    return;
  }
  s << "### sparkcheck\n\n";
  if (nfind == 0) s << "No findings in " << r.files_linted << " files.\n";
  else
    s << "Found " << nfind << " findings (" << counts[2] << " errors, " << counts[1] << " warnings, " << counts[0]
      << " notes) in " << r.files_linted << " files.\n";
  if (!rest.empty()) {
    s << "\n" << rest.size() << " results did not fit in GitHub's annotation limit (" << o.annotation_limit
      << " errors, " << o.annotation_limit << " warnings and " << o.annotation_limit
      << " notices per step) and are listed here:\n\n";
    s << "| Level | Rule | Location | Message |\n|---|---|---|---|\n";
    for (size_t i : rest) {
      const Item& it = items[i];
      std::string where = it.path.empty() ? "-" : it.path;
      if (it.range.valid()) where += ":" + std::to_string(it.range.line) + ":" + std::to_string(it.range.col);
      s << "| " << level_name(it.level) << " | " << md_cell(it.title) << " | " << md_cell(where) << " | "
        << md_cell(it.message) << " |\n";
    }
  }
  s << "\n";
}

void write_github(const LintResult& r, std::ostream& out, const OutputOptions& o) {
  std::vector<Item> items;
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) {
    if (!f.suppressions.empty()) continue;
    std::string title = f.rule;
    if (const RuleDoc* d = find_rule_doc(f.rule)) title += " " + d->name;
    std::string msg = f.message;
    if (!f.fix.empty()) msg += "\nFix: " + f.fix;
    items.push_back({f.level, f.loc.path, title, msg, f.loc.range});
    counts[static_cast<int>(f.level)]++;
  }
  size_t nfind = items.size();
  for (const auto& n : r.notifications)
    items.push_back({n.level, n.path, "sparkcheck " + n.id, n.message, n.range});
  // most severe first; findings before run notifications within a level
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return static_cast<int>(items[a].level) > static_cast<int>(items[b].level); });
  size_t used[3] = {0, 0, 0};
  std::vector<size_t> rest;
  for (size_t i : order) {
    size_t& u = used[static_cast<int>(items[i].level)];
    if (u < o.annotation_limit) {
      ++u;
      out << command(items[i]) << "\n";
    } else {
      rest.push_back(i);
    }
  }
  if (o.summary_file.empty()) {
    if (!rest.empty())
      out << "::notice title=sparkcheck::" << rest.size()
          << " more results were not annotated (GitHub shows at most " << o.annotation_limit
          << " per level and step); set GITHUB_STEP_SUMMARY or use --format sarif to see them all\n";
    return;
  }
  write_summary(r, out, o, items, rest, counts, nfind);
}

}  // namespace
SPARKCHECK_OUTPUT("github", write_github);
}  // namespace sc

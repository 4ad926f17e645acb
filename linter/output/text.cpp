// SPDX-License-Identifier: Apache-2.0
// Human-readable output: `path:line:col: level[GN]: message`, the source line
// with a marker under the range, the fix, related places, and a summary.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/fix.h"
#include "output/escape.h"
#include "output/output.h"

namespace sc {
namespace {

struct Style {
  bool on;
  std::string c(const char* code, const std::string& s) const {
    return on ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
  }
};

const char* level_color(Level l) {
  return l == Level::Error ? "1;31" : l == Level::Warning ? "1;33" : "1;36";
}

std::string expand_tabs(std::string_view s) {
  std::string r;
  for (char c : s) r += c == '\t' ? std::string("    ") : std::string(1, c);
  return r;
}

void snippet(std::ostream& out, const LintResult& r, const Location& loc, const Style& st) {
  const ParsedFile* pf = r.project.find(loc.path);
  if (!pf || !loc.range.valid()) return;
  std::string_view line = pf->src.line(loc.range.line);
  if (line.size() > 300) return;  // minified or generated text: no snippet
  std::string num = std::to_string(loc.range.line);
  std::string pad(num.size(), ' ');
  out << " " << st.c("1;34", num + " |") << " " << term_safe(expand_tabs(line)) << "\n";
  // marker under the range (code points; tabs count 4)
  int col = loc.range.col, end = loc.range.end_line == loc.range.line ? loc.range.end_col : col + 1;
  std::string lead;
  int cp = 1;
  for (size_t i = 0; i < line.size() && cp < col; ++i) {
    unsigned char c = line[i];
    if ((c & 0xC0) == 0x80) continue;
    lead += c == '\t' ? "    " : " ";
    ++cp;
  }
  int width = std::max(1, end - col);
  if (loc.range.end_line != loc.range.line) {
    int total = 0;
    for (size_t i = 0; i < line.size(); ++i) if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++total;
    width = std::max(1, total - col + 1);
  }
  out << " " << st.c("1;34", pad + " |") << " " << lead << st.c("1;31", std::string(static_cast<size_t>(width), '^'))
      << "\n";
}

// The headline on the finding's line; the explanation under the snippet, the first time the
// rule gives it in this run (`explained` remembers), so repeats stay one line plus source.
void print_finding(std::ostream& out, const LintResult& r, const Finding& f, const Style& st, bool unsafe,
                   std::set<std::pair<std::string, std::string>>& explained) {
  const auto& rg = f.loc.range;
  std::string message = f.message.str();
  out << st.c("1", term_path(f.loc.path) + ":" + std::to_string(rg.line) + ":" + std::to_string(rg.col) + ":") << " "
      << st.c(level_color(f.level), std::string(level_name(f.level)) + "[" + f.rule + "]") << ": "
      << (applicable_fix(f, unsafe) ? st.c("1;32", "[*]") + " " : "") << term_safe(headline(message))
      << (f.suppressions.empty() ? "" : " (suppressed: " + term_safe(f.suppressions[0].justification) + ")") << "\n";
  snippet(out, r, f.loc, st);
  std::string why(explanation(message));
  if (!why.empty() && explained.insert({f.rule, why}).second)
    out << "    " << st.c("1;35", "why:") << " " << term_safe(why) << "\n";
  if (!f.fix.empty()) out << "    " << st.c("1;32", "fix:") << " " << term_safe(f.fix) << "\n";
  for (const auto& rel : f.related)
    out << "    " << st.c("1;36", "see:") << " " << term_safe(rel.loc.path) << ":" << rel.loc.range.line << ":"
        << rel.loc.range.col << ": " << term_safe(rel.message) << "\n";
  out << "\n";
}

void print_notification(std::ostream& out, const Notification& n, const Style& st) {
  out << st.c("1", (n.path.empty() ? std::string("sparkcheck") : term_path(n.path)) +
                       (n.range.valid() ? ":" + std::to_string(n.range.line) + ":" + std::to_string(n.range.col) : "") + ":")
      << " " << st.c(level_color(n.level), std::string(level_name(n.level)) + "[" + n.id + "]") << ": " << term_safe(n.message)
      << "\n";
}

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// "Found 3 findings (1 error, 2 warnings, 0 notes) in 4 files; ..."
std::string summary_line(const LintResult& r, const size_t counts[3], size_t suppressed) {
  size_t total = counts[0] + counts[1] + counts[2];
  std::string summary = total == 0 ? "No findings"
                                   : "Found " + std::to_string(total) + (total == 1 ? " finding" : " findings") + " (" +
                                         plural(counts[2], "error") + ", " + plural(counts[1], "warning") + ", " +
                                         plural(counts[0], "note") + ")";
  summary += " in " + std::to_string(r.files_linted) + (r.files_linted == 1 ? " file" : " files");
  if (suppressed) summary += "; " + std::to_string(suppressed) + " suppressed";
  if (r.baselined) summary += "; " + std::to_string(r.baselined) + " in the baseline (not shown)";
  if (!r.notifications.empty()) summary += "; " + plural(r.notifications.size(), "file problem") + " reported above";
  return summary;
}

// "[*] 2 fixable with --fix (1 hidden fix can be enabled with --unsafe-fixes)."; empty when none.
std::string fixable_line(const LintResult& r, bool unsafe) {
  size_t fixable = 0, hidden = 0;
  for (const auto& f : r.findings) {
    if (applicable_fix(f, unsafe)) ++fixable;
    else if (applicable_fix(f, true)) ++hidden;
  }
  if (fixable + hidden == 0) return {};
  std::string s = "[*] " + std::to_string(fixable) + " fixable with --fix";
  if (hidden) s += " (" + std::to_string(hidden) + (hidden == 1 ? " hidden fix" : " hidden fixes") + " can be enabled with --unsafe-fixes)";
  return s + ".";
}

// Findings of one rule with one message in one file are shown in full this many times; the
// rest are counted in one line (a generated file can hold thousands: the output stays short).
constexpr size_t kSameShown = 10;

struct Repeats {
  const Finding* first = nullptr;  // the first one shown
  size_t seen = 0;
};

void print_repeats(std::ostream& out, const Repeats& rp, const Style& st) {
  const Finding& f = *rp.first;
  size_t more = rp.seen - kSameShown;
  out << st.c("1", term_path(f.loc.path) + ":") << " " << more << " more "
      << st.c(level_color(f.level), std::string(level_name(f.level)) + "[" + f.rule + "]")
      << (more == 1 ? " finding" : " findings") << " with the message of " << term_path(f.loc.path) << ":"
      << f.loc.range.line << ":" << f.loc.range.col << " (all are listed by --format concise, json and sarif)\n\n";
}

// The explanations behind many findings, most frequent first: "  37x [G9] every fresh install ...".
void print_frequent(std::ostream& out, const LintResult& r, const Style& st) {
  constexpr size_t kFrequent = 5;  // shown when this many findings share one explanation
  std::map<std::pair<std::string, std::string>, size_t> n;
  for (const auto& f : r.findings)
    if (f.suppressions.empty())
      if (std::string why(explanation(f.message.str())); !why.empty()) ++n[{f.rule, why}];
  std::vector<std::pair<size_t, std::pair<std::string, std::string>>> top;
  for (auto& [key, count] : n)
    if (count >= kFrequent) top.push_back({count, key});
  if (top.empty()) return;
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  out << st.c("1", "Most frequent:") << "\n";
  for (size_t i = 0; i < top.size() && i < 5; ++i) {
    std::string why = top[i].second.second;
    if (why.size() > 100) {
      size_t cut = 97;
      while (cut > 0 && (static_cast<unsigned char>(why[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
      why = why.substr(0, cut) + "...";
    }
    out << "  " << top[i].first << "x [" << top[i].second.first << "] " << term_safe(why) << "\n";
  }
}

void write_text(const LintResult& r, std::ostream& out, const OutputOptions& o) {
  Style st{o.color};
  size_t counts[3] = {0, 0, 0}, suppressed = 0;
  std::map<std::tuple<std::string_view, std::string_view, std::string_view>, Repeats> same;
  std::vector<const Repeats*> cut;  // in the order of their first finding
  std::set<std::pair<std::string, std::string>> explained;
  for (const auto& f : r.findings) {
    if (!f.suppressions.empty()) {
      ++suppressed;
      if (!o.show_suppressed) continue;
    }
    counts[static_cast<int>(f.level)]++;
    Repeats& rp = same[{f.loc.path, f.rule, std::string_view(f.message)}];
    if (!rp.first) rp.first = &f;
    if (++rp.seen <= kSameShown) print_finding(out, r, f, st, o.unsafe_fixes, explained);
    else if (rp.seen == kSameShown + 1) cut.push_back(&rp);
  }
  for (const Repeats* rp : cut) print_repeats(out, *rp, st);
  for (const auto& n : r.notifications) print_notification(out, n, st);
  print_frequent(out, r, st);
  bool any = counts[0] + counts[1] + counts[2] > 0;
  std::string summary = summary_line(r, counts, suppressed);
  out << (any ? st.c("1", summary) : st.c("1;32", summary)) << ".\n";
  if (o.fixed >= 0) out << "Fixed " << plural(static_cast<size_t>(o.fixed), "finding") << ".\n";
  if (std::string fl = fixable_line(r, o.unsafe_fixes); !fl.empty()) out << fl << "\n";
  if (!o.config_file.empty()) out << "Configuration: " << term_safe(o.config_file) << "\n";
}

}  // namespace
SPARKCHECK_OUTPUT("text", write_text);
}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
#include "core/suppress.h"

#include <algorithm>
#include <cctype>

#include "core/registry.h"
#include "core/rule_docs.h"

namespace sc {

// The meta rule is checked by the engine when it lints (engine/engine.cpp: apply_policy).
SPARKCHECK_CHECK(kUnusedSuppression, "lint");

namespace {

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Position of a `sparkcheck:` directive in a line: the index of its '#', or npos.
// `body` is set to the index just after the ':'.
size_t find_directive(std::string_view line, size_t& body) {
  size_t from = 0;
  for (;;) {
    size_t s = line.find("sparkcheck", from);
    if (s == std::string_view::npos) return s;
    from = s + 1;
    size_t h = s;
    while (h > 0 && is_space(line[h - 1])) --h;
    if (h == 0 || line[h - 1] != '#') continue;
    size_t c = s + 10;
    while (c < line.size() && is_space(line[c])) ++c;
    if (c >= line.size() || line[c] != ':') continue;
    body = c + 1;
    return h - 1;
  }
}

// True when nothing but blanks (or, in a notebook's JSON, the opening quote of
// a source string) comes before the comment.
bool stands_alone(std::string_view line, size_t hash, bool notebook) {
  for (size_t i = 0; i < hash; ++i) {
    if (is_space(line[i])) continue;
    if (notebook && line[i] == '"') continue;
    return false;
  }
  return true;
}

bool directive_line(const SourceFile& src, int l, bool notebook) {
  size_t body;
  std::string_view line = src.line(l);
  size_t h = find_directive(line, body);
  return h != std::string_view::npos && stands_alone(line, h, notebook);
}

bool continued(std::string_view line) {
  while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
  return !line.empty() && line.back() == '\\';
}

// In a notebook, the comment ends inside a JSON string: drop `\n",` and quotes.
std::string strip_notebook_tail(std::string s) {
  s = trim(s);
  for (const char* tail : {"\",", "\""}) {
    if (ends_with(s, tail)) { s.resize(s.size() - std::string_view(tail).size()); break; }
  }
  if (ends_with(s, "\\n")) s.resize(s.size() - 2);
  return trim(s);
}

}  // namespace

std::string canonical_rule_id(std::string_view id) {
  if (id.empty()) return "";
  for (const auto& known : known_rule_ids())
    if (ieq(known, id)) return known;
  return "";
}

std::vector<std::string> known_rule_ids() {
  std::vector<std::string> v = registered_ids();
  for (const auto& d : rule_docs())
    if (std::find(v.begin(), v.end(), d.id) == v.end()) v.push_back(d.id);
  std::sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) { return rule_id_less(a, b); });
  return v;
}

std::string known_rule_list() {
  std::string r;
  for (auto& id : known_rule_ids()) r += (r.empty() ? "" : ", ") + id;
  return r;
}

namespace {

const char* const kUsage = "write `# sparkcheck: ignore[G9] -- reason` or `# sparkcheck: file-ignore[G1] -- reason`";

// One line holding a `sparkcheck:` directive, parsed step by step; each step reports its
// problem and returns false when the directive must be dropped.
struct DirectiveLine {
  const SourceFile& src;
  std::vector<Notification>& problems;
  int l;
  std::string_view line;
  size_t hash, p;
  bool notebook;

  Range range(size_t b, size_t e) const { return Range{l, utf8_cols(line, b) + 1, l, utf8_cols(line, e) + 1}; }
  Range whole() const { return range(hash, line.size()); }
  void problem(Range r, const std::string& msg, const char* id) {
    problems.push_back({Level::Error, src.path(), r, msg, id});
  }
  void skip_space() {
    while (p < line.size() && is_space(line[p])) ++p;
  }

  // `ignore` or `file-ignore`, then '['; leaves p at the '['.
  bool keyword(SuppressDirective& d) {
    skip_space();
    size_t w = p;
    while (p < line.size() && (std::isalpha(static_cast<unsigned char>(line[p])) || line[p] == '-' || line[p] == '_')) ++p;
    std::string word(line.substr(w, p - w));
    if (word != "ignore" && word != "file-ignore") {
      problem(whole(), "malformed suppression comment" + (word.empty() ? std::string() : ": unknown directive '" + word + "'") +
                           "; " + kUsage, "suppression-malformed");
      return false;
    }
    d.file_scope = word == "file-ignore";
    skip_space();
    if (p >= line.size() || line[p] != '[') {
      problem(whole(), "malformed suppression comment: '" + word + "' needs the rule ids in brackets; " + kUsage,
              "suppression-malformed");
      return false;
    }
    return true;
  }

  void add_id(SuppressDirective& d, size_t s, size_t i) {
    std::string raw(line.substr(s, i - s));
    std::string id = canonical_rule_id(raw);
    if (id.empty()) {
      problem(range(s, i), "unknown rule '" + raw + "' in suppression comment; known rules: " + known_rule_list(),
              "suppression-unknown-rule");
      return;
    }
    if (id == kUnusedSuppression) {
      problem(range(s, i), std::string(kUnusedSuppression) +
                               " cannot be suppressed inline; remove the stale comment, or use `per-file-ignores` "
                               "or `ignore` in the configuration",
              "suppression-unknown-rule");
      return;
    }
    d.ids.push_back({id, range(s, i), 0});
  }

  // Rule ids between '[' (at p) and ']', separated by commas and/or blanks; returns the ']' or npos.
  size_t ids(SuppressDirective& d) {
    size_t close = line.find(']', p);
    if (close == std::string_view::npos) {
      problem(whole(), std::string("malformed suppression comment: missing ']'; ") + kUsage, "suppression-malformed");
      return close;
    }
    bool any_id = false;
    for (size_t i = p + 1; i < close;) {
      while (i < close && (is_space(line[i]) || line[i] == ',')) ++i;
      size_t s = i;
      while (i < close && !is_space(line[i]) && line[i] != ',') ++i;
      if (s == i) continue;
      any_id = true;
      add_id(d, s, i);
    }
    if (!any_id)
      problem(whole(), "suppression comment names no rule; list the rules, e.g. ignore[G9]", "suppression-malformed");
    return close;
  }

  // `-- reason` after the ']'.
  bool reason(SuppressDirective& d, size_t close, bool allow_reasonless) {
    std::string rest(line.substr(close + 1));
    if (notebook) rest = strip_notebook_tail(rest);
    rest = trim(rest);
    if (!rest.empty()) {
      if (!starts_with(rest, "--")) {
        problem(range(close + 1, line.size()),
                "malformed suppression comment: after ']' write `-- reason` (found '" + rest + "')",
                "suppression-malformed");
        return false;
      }
      d.reason = trim(rest.substr(2));
    }
    if (d.reason.empty() && !allow_reasonless) {
      problem(whole(),
              "suppression without a reason: add `-- why this is safe` after the brackets (or set "
              "allow-reasonless-suppressions: true in the configuration)",
              "suppression-missing-reason");
      return false;
    }
    return true;
  }

  // The lines a line-scoped directive covers: its own, or when it stands alone the next line that
  // is not itself a stand-alone directive, plus its backslash continuation lines (Dockerfile RUN, shell).
  void lines_covered(SuppressDirective& d) const {
    const int n = src.line_count();
    d.first_line = d.last_line = l;
    if (!stands_alone(line, hash, notebook)) return;
    int t = l + 1;
    while (t <= n && directive_line(src, t, notebook)) ++t;
    if (t > n) return;
    d.last_line = t;
    while (d.last_line < n && continued(src.line(d.last_line))) ++d.last_line;
  }
};

}  // namespace

namespace {
bool in_ranges(const std::vector<std::pair<int, int>>* ranges, int line) {
  if (!ranges) return true;
  for (auto [first, last] : *ranges)
    if (line >= first && line <= last) return true;
  return false;
}
}  // namespace

std::vector<SuppressDirective> parse_suppressions(const SourceFile& src, bool allow_reasonless,
                                                  std::vector<Notification>& problems,
                                                  const std::vector<std::pair<int, int>>* only_lines) {
  std::vector<SuppressDirective> out;
  const bool notebook = ends_with(src.path(), ".ipynb");
  for (int l = 1; l <= src.line_count(); ++l) {
    if (!in_ranges(only_lines, l)) continue;
    std::string_view line = src.line(l);
    size_t body;
    size_t hash = find_directive(line, body);
    if (hash == std::string_view::npos) continue;
    DirectiveLine dl{src, problems, l, line, hash, body, notebook};
    SuppressDirective d;
    if (!dl.keyword(d)) continue;
    size_t close = dl.ids(d);
    if (close == std::string_view::npos || !dl.reason(d, close, allow_reasonless) || d.ids.empty()) continue;
    d.loc = {src.path(), dl.whole()};
    if (!d.file_scope) dl.lines_covered(d);
    out.push_back(std::move(d));
  }
  return out;
}

size_t apply_suppressions(std::vector<SuppressDirective>& directives, std::vector<Finding>& findings) {
  size_t count = 0;
  for (auto& f : findings) {
    if (!f.suppressions.empty()) continue;
    // line-scoped directives first: the most specific one gets the credit
    for (int pass = 0; pass < 2 && f.suppressions.empty(); ++pass) {
      for (auto& d : directives) {
        if (d.file_scope != (pass == 1) || d.loc.path != f.loc.path || !d.covers(f.loc.range.line)) continue;
        auto it = std::find_if(d.ids.begin(), d.ids.end(), [&](const SuppressDirective::Id& i) { return i.rule == f.rule; });
        if (it == d.ids.end()) continue;
        ++it->used;
        f.suppressions.push_back({d.reason.empty() ? "(no reason given)" : d.reason, d.loc, "inSource"});
        ++count;
        break;
      }
    }
  }
  return count;
}

std::vector<Finding> unused_suppressions(const std::vector<SuppressDirective>& directives,
                                         const std::function<bool(const std::string&)>& active) {
  std::vector<Finding> out;
  for (const auto& d : directives) {
    for (const auto& id : d.ids) {
      if (id.used || !active(id.rule)) continue;
      Finding f;
      f.rule = kUnusedSuppression;
      f.level = Level::Warning;
      f.loc = {d.loc.path, id.range};
      f.message = d.file_scope ? "unused suppression: `file-ignore[" + id.rule + "]` but " + id.rule +
                                     " reports nothing in this file"
                               : "unused suppression: `ignore[" + id.rule + "]` but " + id.rule +
                                     " reports nothing on the line it covers";
      f.fix = d.ids.size() > 1 ? "remove " + id.rule + " from the comment" : "delete the comment";
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace sc

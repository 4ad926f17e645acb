#include "core/suppress.h"

#include <algorithm>
#include <cctype>

#include "core/registry.h"
#include "core/rule_docs.h"

namespace sc {

const char* unused_suppression_short() {
  return "A `# sparkcheck: ignore[...]` comment that suppresses nothing";
}

const char* unused_suppression_doc() {
  return R"(# unused-suppression: a suppression comment that suppresses nothing

A `# sparkcheck: ignore[GN] -- reason` or `# sparkcheck: file-ignore[GN] -- reason` comment names
a rule that reported nothing where the comment applies. The problem it silenced has been fixed, or
the comment sits on the wrong line, so it now only hides a future, different finding.

This is sparkcheck's meta rule (like ruff's RUF100). It is reported only for rules that actually
ran on the file: a rule left out by `select`, `ignore` or `per-file-ignores` never makes its
suppressions "unused".

## Example

```
# sparkcheck: ignore[G1] -- cu124 wheel is tested on this box
transformers==4.57.1
```

## Fix

Delete the comment, or remove the rule id that no longer matches. To silence this meta rule for
some files, use `per-file-ignores` with `unused-suppression`; to turn it off, add it to `ignore`.
)";
}

namespace {

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

int id_order(const std::string& id) {
  if (id.size() > 1 && (id[0] == 'G') && std::isdigit(static_cast<unsigned char>(id[1]))) return std::atoi(id.c_str() + 1);
  return 1000;
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
  if (ieq(id, kUnusedSuppression)) return kUnusedSuppression;
  if (const RuleDoc* d = find_rule_doc(id)) return d->id;
  for (const Rule* r : rules())
    if (ieq(r->id(), id)) return std::string(r->id());
  for (int i = 1; i <= 10; ++i) {
    std::string g = "G" + std::to_string(i);
    if (ieq(g, id)) return g;
  }
  return "";
}

std::vector<std::string> known_rule_ids() {
  std::set<std::string> s;
  for (int i = 1; i <= 10; ++i) s.insert("G" + std::to_string(i));
  for (auto& d : rule_docs()) s.insert(d.id);
  for (const Rule* r : rules()) s.insert(std::string(r->id()));
  std::vector<std::string> v(s.begin(), s.end());
  std::sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
    int x = id_order(a), y = id_order(b);
    return x != y ? x < y : a < b;
  });
  v.push_back(kUnusedSuppression);
  return v;
}

std::string known_rule_list() {
  std::string r;
  for (auto& id : known_rule_ids()) r += (r.empty() ? "" : ", ") + id;
  return r;
}

std::vector<SuppressDirective> parse_suppressions(const SourceFile& src, bool allow_reasonless,
                                                  std::vector<Notification>& problems) {
  std::vector<SuppressDirective> out;
  const bool notebook = ends_with(src.path(), ".ipynb");
  const int n = src.line_count();
  const std::string usage = "write `# sparkcheck: ignore[G9] -- reason` or `# sparkcheck: file-ignore[G1] -- reason`";
  for (int l = 1; l <= n; ++l) {
    std::string_view line = src.line(l);
    size_t body;
    size_t hash = find_directive(line, body);
    if (hash == std::string_view::npos) continue;
    auto col = [&](size_t byte) { return utf8_cols(line, byte) + 1; };
    auto range = [&](size_t b, size_t e) { return Range{l, col(b), l, col(e)}; };
    auto problem = [&](Range r, const std::string& msg, const char* id) {
      problems.push_back({Level::Error, src.path(), r, msg, id});
    };
    Range whole = range(hash, line.size());

    size_t p = body;
    while (p < line.size() && is_space(line[p])) ++p;
    size_t w = p;
    while (p < line.size() && (std::isalpha(static_cast<unsigned char>(line[p])) || line[p] == '-' || line[p] == '_')) ++p;
    std::string word(line.substr(w, p - w));
    SuppressDirective d;
    if (word == "ignore") d.file_scope = false;
    else if (word == "file-ignore") d.file_scope = true;
    else {
      problem(whole, "malformed suppression comment" + (word.empty() ? std::string() : ": unknown directive '" + word + "'") +
                         "; " + usage, "suppression-malformed");
      continue;
    }
    while (p < line.size() && is_space(line[p])) ++p;
    if (p >= line.size() || line[p] != '[') {
      problem(whole, "malformed suppression comment: '" + word + "' needs the rule ids in brackets; " + usage,
              "suppression-malformed");
      continue;
    }
    size_t close = line.find(']', p);
    if (close == std::string_view::npos) {
      problem(whole, "malformed suppression comment: missing ']'; " + usage, "suppression-malformed");
      continue;
    }
    // rule ids, separated by commas and/or blanks
    bool any_id = false;
    for (size_t i = p + 1; i < close;) {
      while (i < close && (is_space(line[i]) || line[i] == ',')) ++i;
      size_t s = i;
      while (i < close && !is_space(line[i]) && line[i] != ',') ++i;
      if (s == i) continue;
      any_id = true;
      std::string raw(line.substr(s, i - s));
      std::string id = canonical_rule_id(raw);
      if (id.empty()) {
        problem(range(s, i), "unknown rule '" + raw + "' in suppression comment; known rules: " + known_rule_list(),
                "suppression-unknown-rule");
        continue;
      }
      if (id == kUnusedSuppression) {
        problem(range(s, i), std::string(kUnusedSuppression) +
                                 " cannot be suppressed inline; remove the stale comment, or use `per-file-ignores` "
                                 "or `ignore` in the configuration",
                "suppression-unknown-rule");
        continue;
      }
      d.ids.push_back({id, range(s, i), 0});
    }
    if (!any_id)
      problem(whole, "suppression comment names no rule; list the rules, e.g. ignore[G9]", "suppression-malformed");
    std::string rest(line.substr(close + 1));
    if (notebook) rest = strip_notebook_tail(rest);
    rest = trim(rest);
    if (!rest.empty()) {
      if (!starts_with(rest, "--")) {
        problem(range(close + 1, line.size()),
                "malformed suppression comment: after ']' write `-- reason` (found '" + rest + "')",
                "suppression-malformed");
        continue;
      }
      d.reason = trim(rest.substr(2));
    }
    if (d.reason.empty() && !allow_reasonless) {
      problem(whole,
              "suppression without a reason: add `-- why this is safe` after the brackets (or set "
              "allow-reasonless-suppressions: true in the configuration)",
              "suppression-missing-reason");
      continue;
    }
    if (d.ids.empty()) continue;
    d.loc = {src.path(), whole};
    if (!d.file_scope) {
      d.first_line = d.last_line = l;
      if (stands_alone(line, hash, notebook)) {
        // the next line that is not itself a stand-alone directive, plus its
        // backslash continuation lines (Dockerfile RUN, shell)
        int t = l + 1;
        while (t <= n && directive_line(src, t, notebook)) ++t;
        if (t <= n) {
          d.last_line = t;
          while (d.last_line < n && continued(src.line(d.last_line))) ++d.last_line;
        }
      }
    }
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

// SPDX-License-Identifier: Apache-2.0
// Fixture harness: lints one fixture case (a file, or a directory linted as a
// project) and checks that the findings are exactly the annotated ones.
// Syntax (fixtures/README.md): an expectation is RULE[:LEVEL][@colN].
//   `# expect: G1` / `// expect: G1:error, G9` / `<!-- expect: G2@col7 -->`
//     -> the next non-annotation line must carry exactly these findings.
//   FILE.expect (sidecar, for JSON): lines "LINE RULE[:LEVEL][@colN]".
//   notes.expect: lines "PATH ID[:LEVEL][@lineN][@colN]" for every expected run notification.
// A level or column given must match; one left out matches anything.
// Suppressed findings (inline `# sparkcheck: ignore[...]`) do not count.
// Which G-rules a case is judged on: its group's (fixtures/G9/...) and every rule its
// annotations name (`expect:` or `ok:`); a case of another group naming none is judged on all.
// So a new rule's findings in another group's fixtures change nothing there.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "config/config.h"
#include "engine/engine.h"

namespace fs = std::filesystem;

namespace {

// What an annotation asks for beyond its place and id; empty/0 = any.
struct Spec {
  std::string level;
  int line = 0, col = 0;
  int constraints() const { return !level.empty() + (line > 0) + (col > 0); }
};

// What the linter reported at that place (line is kept for notifications only).
struct Got {
  std::string level;
  int line = 0, col = 0;
  std::string message;
};

struct Bucket {
  std::vector<Spec> want;
  std::vector<Got> got;
};

// (path, line, rule) for findings; (path, 0, notification id) for notifications.
using Key = std::tuple<std::string, int, std::string>;

struct Expectations {
  std::map<Key, Bucket> findings, notes;
  std::vector<std::string> errors;  // malformed annotations
  std::set<std::string> named;      // G-rules the annotations name
};

std::string rel(const fs::path& p, const fs::path& root) { return p.lexically_relative(root).generic_string(); }

int number(const std::string& s) {
  int v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// Parses "ID[:LEVEL][@lineN][@colN]" into id + spec; false if malformed.
bool parse_spec(const std::string& tok, std::string& id, Spec& s) {
  static const std::regex re(R"(([^:@\s]+)(?::([a-z]+))?(?:@line(\d+))?(?:@col(\d+))?)");
  std::smatch m;
  if (!std::regex_match(tok, m, re)) return false;
  sc::Level lv;
  if (m[2].matched && !sc::parse_level(m[2], lv)) return false;
  id = m[1];
  s.level = m[2];
  s.line = m[3].matched ? number(m[3]) : 0;
  s.col = m[4].matched ? number(m[4]) : 0;
  return (!m[3].matched || s.line > 0) && (!m[4].matched || s.col > 0);
}

// A finding expectation at path:line; a finding's line comes from the annotation's place.
void want_finding(Expectations& e, const std::string& path, int line, const std::string& tok, const std::string& at) {
  static const std::regex rule(R"(G\d+)");
  std::string id;
  Spec s;
  if (!parse_spec(tok, id, s) || s.line > 0 || !std::regex_match(id, rule))
    e.errors.push_back(at + ": '" + tok + "' (want RULE[:note|warning|error][@colN])");
  else
    e.findings[{path, line, id}].want.push_back(s);
}

void collect_sidecar(const std::vector<std::string>& lines, const std::string& path, Expectations& e) {
  std::string target = path.substr(0, path.size() - 7);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::istringstream is(lines[i]);
    std::string line, tok;
    if (!(is >> line >> tok)) continue;
    int n = number(line);
    if (n <= 0) e.errors.push_back(path + ":" + std::to_string(i + 1) + ": line number '" + line + "'");
    else want_finding(e, target, n, tok, path + ":" + std::to_string(i + 1));
  }
}

// The G-rule ids an annotation line names (`# ok: G1`, `# expect: G9:warning, G1`).
void note_named(const std::string& line, Expectations& e) {
  static const std::regex named_re(R"(\bG\d+\b)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), named_re); it != std::sregex_iterator(); ++it)
    e.named.insert(it->str());
}

void collect(const fs::path& file, const fs::path& root, Expectations& e) {
  static const std::regex ann(R"((?:#|//|<!--)\s*expect:\s*(G\d+[:@\w]*(?:\s*,\s*G\d+[:@\w]*)*))");
  static const std::regex any_ann(R"((?:#|//|<!--)\s*(?:expect|ok):)");
  static const std::regex tok_re(R"(G\d+[:@\w]*)");
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string path = rel(file, root);
  if (file.extension() == ".expect") {
    for (const std::string& l : lines) note_named(l, e);
    return collect_sidecar(lines, path, e);
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch am;
    if (std::regex_search(lines[i], am, any_ann)) note_named(am.suffix().str(), e);
    std::smatch m;
    if (!std::regex_search(lines[i], m, ann)) continue;
    size_t t = i + 1;
    while (t < lines.size() && std::regex_search(lines[t], any_ann)) ++t;
    std::string toks = m[1];
    for (auto it = std::sregex_iterator(toks.begin(), toks.end(), tok_re); it != std::sregex_iterator(); ++it)
      want_finding(e, path, static_cast<int>(t) + 1, it->str(), path + ":" + std::to_string(i + 1));
  }
}

void collect_notes(const fs::path& file, Expectations& e) {
  std::ifstream in(file);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    std::istringstream is(l);
    std::string path, tok, id;
    Spec s;
    if (!(is >> path >> tok)) continue;
    if (!parse_spec(tok, id, s))
      e.errors.push_back(file.filename().string() + ":" + std::to_string(n) + ": '" + tok +
                         "' (want ID[:note|warning|error][@lineN][@colN])");
    else
      e.notes[{path, 0, id}].want.push_back(s);
  }
}

Expectations expectations(const fs::path& c, const fs::path& root) {
  Expectations e;
  auto scan = [&](const fs::path& f) {
    if (f.filename() == "notes.expect") collect_notes(f, e);
    else if (fs::is_regular_file(f)) collect(f, root, e);
  };
  if (!fs::is_directory(c)) {
    scan(c);
    fs::path side = c;
    side += ".expect";
    if (fs::exists(side)) collect(side, root, e);
    return e;
  }
  for (auto it = fs::recursive_directory_iterator(c, fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    std::error_code ec;
    if (it->is_symlink(ec)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) scan(it->path());
  }
  return e;
}

bool fits(const Spec& s, const Got& g) {
  return (s.level.empty() || s.level == g.level) && (!s.line || s.line == g.line) && (!s.col || s.col == g.col);
}

// How many of the spec's constraints g meets (to name the result a wrong expectation meant).
int closeness(const Spec& s, const Got& g) {
  return (!s.level.empty() && s.level == g.level) + (s.line && s.line == g.line) + (s.col && s.col == g.col);
}

std::string show(const std::string& level, int line, int col) {
  std::string s = level.empty() ? "any level" : level;
  if (line) s += "@line" + std::to_string(line);
  if (col) s += "@col" + std::to_string(col);
  return s;
}

std::string label(const Key& k, bool note) {
  auto& [path, line, id] = k;
  return note ? path + " " + id : path + ":" + std::to_string(line) + " " + id;
}

// A free result the expectation at `who` fits (to move it aside), or -1.
int free_fit(const Bucket& b, const std::vector<int>& owner, size_t who) {
  for (size_t j = 0; j < b.got.size(); ++j)
    if (owner[j] < 0 && fits(b.want[who], b.got[j])) return static_cast<int>(j);
  return -1;
}

// The result a failed expectation most likely meant: the closest one that is
// free, or taken by an expectation that another free result fits too (moved).
int closest(const Bucket& b, std::vector<int>& owner, const Spec& s) {
  int best = -1, best_score = -1, best_alt = -1;
  for (size_t j = 0; j < b.got.size(); ++j) {
    int alt = owner[j] < 0 ? -1 : free_fit(b, owner, owner[j]);
    if (owner[j] >= 0 && alt < 0) continue;
    if (int score = closeness(s, b.got[j]); score > best_score) best = j, best_score = score, best_alt = alt;
  }
  if (best >= 0 && best_alt >= 0) owner[best_alt] = owner[best];
  return best;
}

// Pairs expectations with results at one place: the most specific expectations
// pick first; a leftover expectation is wrong (paired with the closest result)
// or missing, a leftover result unexpected.
int compare(const Key& k, Bucket b, bool note) {
  std::stable_sort(b.want.begin(), b.want.end(), [](auto& x, auto& y) { return x.constraints() > y.constraints(); });
  std::vector<int> owner(b.got.size(), -1);  // expectation using each result
  std::vector<size_t> left;
  for (size_t i = 0; i < b.want.size(); ++i)
    if (int j = free_fit(b, owner, i); j >= 0) owner[j] = static_cast<int>(i);
    else left.push_back(i);
  std::string kind = note ? " NOTE" : "", where = label(k, note);
  for (size_t i : left) {
    auto& s = b.want[i];
    int j = closest(b, owner, s);
    if (j < 0) {
      std::cout << "MISSING" << kind << "    " << where << " " << show(s.level, s.line, s.col) << "\n";
      continue;
    }
    owner[j] = static_cast<int>(i);
    auto& g = b.got[j];
    std::cout << "WRONG" << kind << "      " << where << ": expected " << show(s.level, s.line, s.col) << ", got "
              << show(g.level, s.line ? g.line : 0, s.col ? g.col : 0) << "  (" << g.message << ")\n";
  }
  int unexpected = 0;
  for (size_t j = 0; j < b.got.size(); ++j)
    if (owner[j] < 0) {
      ++unexpected;
      std::cout << "UNEXPECTED" << kind << " " << where << "  (" << b.got[j].level << ": " << b.got[j].message << ")\n";
    }
  return static_cast<int>(left.size()) + unexpected;
}

// Lints the case as the CLI would with --no-ignore, from `root`; a folder case's own
// .sparkcheck.yaml applies, as the CLI would find it.
sc::LintResult lint(const fs::path& c, const fs::path& root) {
  sc::LintOptions opt;
  if (fs::is_regular_file(c / ".sparkcheck.yaml")) sc::apply_config(sc::load_config((c / ".sparkcheck.yaml").string()), opt);
  opt.paths = {c.generic_string()};
  opt.root = root.generic_string();
  opt.no_ignore = true;
  return sc::run_lint(opt);
}

// The G-rules case `c` is judged on (see the top); empty: all.
std::set<std::string> judged_rules(const fs::path& c, const Expectations& e) {
  static const std::regex g_rule(R"(G\d+)");
  std::set<std::string> rules = e.named;
  std::string group = c.parent_path().filename().string();
  if (std::regex_match(group, g_rule)) rules.insert(group);
  return rules;
}

// Files the linter's results next to the expectations; returns the number of findings.
size_t add_results(Expectations& e, const sc::LintResult& r, const std::set<std::string>& judged) {
  static const std::regex g_rule(R"(G\d+)");
  size_t found = 0;
  for (auto& f : r.findings) {
    if (!f.suppressions.empty()) continue;  // `# sparkcheck: ignore[...]` worked: not a finding
    if (!judged.empty() && std::regex_match(f.rule, g_rule) && !judged.count(f.rule)) continue;
    e.findings[{f.loc.path, f.loc.range.line, f.rule}].got.push_back(
        {sc::level_name(f.level), 0, f.loc.range.col, f.message});
    ++found;
  }
  for (auto& n : r.notifications)
    e.notes[{n.path, 0, n.id}].got.push_back({sc::level_name(n.level), n.range.line, n.range.col, n.message});
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fixture_harness CASE\n";
    return 2;
  }
  fs::path c = fs::absolute(argv[1]).lexically_normal();
  if (!fs::exists(c)) {
    std::cerr << "no such fixture: " << c << "\n";
    return 2;
  }
  fs::path root = fs::is_directory(c) ? c : c.parent_path();
  Expectations e = expectations(c, root);

  size_t found = add_results(e, lint(c, root), judged_rules(c, e));
  int bad = 0;
  for (auto& msg : e.errors) {
    std::cout << "BAD ANNOTATION " << msg << "\n";
    ++bad;
  }
  size_t wanted = 0, levels = 0, cols = 0;
  for (auto& [k, b] : e.findings) {
    bad += compare(k, b, false);
    wanted += b.want.size();
    for (auto& s : b.want) levels += !s.level.empty(), cols += s.col > 0;
  }
  size_t notes = 0;
  for (auto& [k, b] : e.notes) bad += compare(k, b, true), notes += b.got.size();
  std::cout << (bad ? "FAIL " : "PASS ") << rel(c, c.parent_path().parent_path()) << ": " << wanted << " expected ("
            << levels << " with level, " << cols << " with column), " << found << " found, "
            << notes << " notifications\n";
  return bad ? 1 : 0;
}

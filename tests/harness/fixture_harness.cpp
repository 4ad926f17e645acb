// Fixture harness: lints one fixture case (a file, or a directory linted as a
// project) and checks that the findings are exactly the annotated ones.
//   `# expect: G1` / `// expect: G1, G9` / `<!-- expect: G2 -->` -> the next
//   non-annotation line must carry exactly these findings.
//   FILE.expect (sidecar, for JSON): lines "LINE RULE".
//   notes.expect: lines "PATH ID" for every expected run notification.
// Suppressed findings (inline `# sparkcheck: ignore[...]`) do not count.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "engine/engine.h"

namespace fs = std::filesystem;

namespace {

using Key = std::tuple<std::string, int, std::string>;  // path, line, rule

std::string rel(const fs::path& p, const fs::path& root) { return p.lexically_relative(root).generic_string(); }

void collect(const fs::path& file, const fs::path& root, std::multiset<Key>& want) {
  static const std::regex ann(R"((?:#|//|<!--)\s*expect:\s*(G\d+(?:\s*,\s*G\d+)*))");
  static const std::regex any_ann(R"((?:#|//|<!--)\s*(?:expect|ok):)");
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string path = rel(file, root);
  if (file.extension() == ".expect") {
    std::string target = path.substr(0, path.size() - 7);
    for (auto& l : lines) {
      std::istringstream is(l);
      int line;
      std::string rule;
      if (is >> line >> rule) want.insert({target, line, rule});
    }
    return;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, ann)) continue;
    size_t t = i + 1;
    while (t < lines.size() && std::regex_search(lines[t], any_ann)) ++t;
    std::string rules = m[1];
    std::regex id(R"(G\d+)");
    for (auto it = std::sregex_iterator(rules.begin(), rules.end(), id); it != std::sregex_iterator(); ++it)
      want.insert({path, static_cast<int>(t) + 1, it->str()});
  }
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
  std::multiset<Key> want;
  std::multiset<std::pair<std::string, std::string>> want_notes;
  auto scan = [&](const fs::path& f) {
    if (f.filename() == "notes.expect") {
      std::ifstream in(f);
      std::string p, id;
      while (in >> p >> id) want_notes.insert({p, id});
    } else if (fs::is_regular_file(f)) {
      collect(f, root, want);
    }
  };
  if (fs::is_directory(c)) {
    for (auto it = fs::recursive_directory_iterator(c, fs::directory_options::skip_permission_denied);
         it != fs::recursive_directory_iterator(); ++it) {
      std::error_code ec;
      if (it->is_symlink(ec)) { if (it->is_directory(ec)) it.disable_recursion_pending(); continue; }
      if (it->is_regular_file(ec)) scan(it->path());
    }
  } else {
    scan(c);
    fs::path side = c;
    side += ".expect";
    if (fs::exists(side)) collect(side, root, want);
  }

  sc::LintOptions opt;
  opt.paths = {c.generic_string()};
  opt.root = root.generic_string();
  opt.no_ignore = true;
  sc::LintResult r = sc::run_lint(opt);

  std::multiset<Key> got;
  std::map<Key, std::string> msgs;
  for (auto& f : r.findings) {
    if (!f.suppressions.empty()) continue;  // `# sparkcheck: ignore[...]` worked: not a finding
    Key k{f.loc.path, f.loc.range.line, f.rule};
    got.insert(k);
    msgs[k] = std::string(sc::level_name(f.level)) + ": " + f.message;
  }
  std::multiset<std::pair<std::string, std::string>> got_notes;
  std::map<std::pair<std::string, std::string>, std::string> note_msgs;
  for (auto& n : r.notifications) {
    got_notes.insert({n.path, n.id});
    note_msgs[{n.path, n.id}] = n.message;
  }

  int bad = 0;
  for (auto& k : want)
    if (got.count(k) < want.count(k) && !(bad && got.count(k) > 0)) {
      std::cout << "MISSING    " << std::get<0>(k) << ":" << std::get<1>(k) << " " << std::get<2>(k) << "\n";
      ++bad;
    }
  for (auto& k : got)
    if (want.count(k) < got.count(k)) {
      std::cout << "UNEXPECTED " << std::get<0>(k) << ":" << std::get<1>(k) << " " << std::get<2>(k) << "  ("
                << msgs[k] << ")\n";
      ++bad;
    }
  for (auto& n : want_notes)
    if (got_notes.count(n) < want_notes.count(n)) {
      std::cout << "MISSING NOTE    " << n.first << " " << n.second << "\n";
      ++bad;
    }
  for (auto& n : got_notes)
    if (want_notes.count(n) < got_notes.count(n)) {
      std::cout << "UNEXPECTED NOTE " << n.first << " " << n.second << "  (" << note_msgs[n] << ")\n";
      ++bad;
    }
  std::cout << (bad ? "FAIL " : "PASS ") << rel(c, c.parent_path().parent_path()) << ": " << want.size()
            << " expected, " << got.size() << " found, " << r.notifications.size() << " notifications\n";
  return bad ? 1 : 0;
}

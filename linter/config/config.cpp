// SPDX-License-Identifier: Apache-2.0
#include "config/config.h"

#include <yaml-cpp/yaml.h>

#include "parsers/config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <toml++/toml.h>

#include "core/read_file.h"
#include "core/source.h"
#include "core/suppress.h"

namespace sc {

namespace fs = std::filesystem;

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> d(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = d[0];
    d[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cur = d[j];
      d[j] = std::min({d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return d[b.size()];
}

namespace {

// A parsed config value, whatever the syntax: YAML and TOML both become this.
struct Node;
struct Entry;  // a map entry: key and value (defined below; std::pair of an incomplete Node is not portable)
struct Node {
  enum Kind { Null, Scalar, List, Map } kind = Null;
  std::string text;         // scalar text
  bool is_string = false;   // a string (quoted, or any YAML plain scalar)
  bool is_bool = false;     // TOML boolean
  bool is_number = false;   // TOML integer/float
  std::vector<Node> items;  // List
  std::vector<Entry> entries;  // Map, in file order
  std::vector<int> key_lines;                         // line of each key
  int line = 0;
};
struct Entry {
  std::string first;
  Node second;
};

Node from_yaml(const YAML::Node& y, const std::string& file) {
  Node n;
  n.line = y.Mark().line >= 0 ? y.Mark().line + 1 : 0;
  switch (y.Type()) {
    case YAML::NodeType::Scalar:
      n.kind = Node::Scalar;
      n.text = y.Scalar();
      n.is_string = true;
      // yaml-cpp can hand back bytes that were not in the file (a NUL read as 0xA0): values are printed back
      if (!valid_utf8(n.text)) throw ConfigError(file + ":" + std::to_string(n.line) + ": invalid YAML: a value is not valid UTF-8");
      break;
    case YAML::NodeType::Sequence:
      n.kind = Node::List;
      for (const auto& it : y) n.items.push_back(from_yaml(it, file));
      break;
    case YAML::NodeType::Map:
      n.kind = Node::Map;
      for (const auto& it : y) {
        int kl = it.first.Mark().line + 1;
        if (!it.first.IsScalar())
          throw ConfigError(file + ":" + std::to_string(kl) + ": keys must be plain names");
        std::string k = it.first.Scalar();
        for (auto& e : n.entries)
          if (e.first == k) throw ConfigError(file + ":" + std::to_string(kl) + ": duplicate key '" + k + "'");
        n.entries.push_back({k, from_yaml(it.second, file)});
        n.key_lines.push_back(kl);
      }
      break;
    default:
      n.kind = Node::Null;
  }
  return n;
}

Node from_toml(const toml::node& t) {
  Node n;
  n.line = static_cast<int>(t.source().begin.line);
  if (const toml::table* tb = t.as_table()) {
    n.kind = Node::Map;
    for (auto&& [k, v] : *tb) {
      n.entries.push_back({std::string(k.str()), from_toml(v)});
      int kl = static_cast<int>(k.source().begin.line);
      n.key_lines.push_back(kl > 0 ? kl : n.entries.back().second.line);
    }
  } else if (const toml::array* a = t.as_array()) {
    n.kind = Node::List;
    for (auto&& v : *a) n.items.push_back(from_toml(v));
  } else {
    n.kind = Node::Scalar;
    if (auto s = t.value<std::string>(); s && t.is_string()) {
      n.text = *s;
      n.is_string = true;
    } else if (t.is_boolean()) {
      n.text = *t.value<bool>() ? "true" : "false";
      n.is_bool = true;
    } else if (t.is_integer() || t.is_floating_point()) {
      std::ostringstream os;
      os << *t.value<double>();
      n.text = os.str();
      n.is_number = true;
    } else {
      n.text = "(a TOML date/time)";
    }
  }
  return n;
}


std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string r;
  for (auto& s : v) r += (r.empty() ? "" : sep) + s;
  return r;
}

std::string display_file(const std::string& file) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  fs::path abs = fs::absolute(file, ec).lexically_normal();
  fs::path rel = abs.lexically_relative(cwd);
  if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  return abs.generic_string();
}

// True when `p` (absolute) names `dir` or a path below it once symbolic links are resolved.
bool resolves_inside(const std::string& p, const std::string& dir) {
  std::error_code ec;
  fs::path rp = fs::weakly_canonical(p, ec);
  if (ec) return false;
  fs::path rd = fs::weakly_canonical(dir, ec);
  if (ec) return false;
  fs::path rel = rp.lexically_relative(rd);
  return !rel.empty() && *rel.begin() != ".." && !rel.is_absolute();
}

struct Reader {
  std::string file;  // as shown in messages
  Config& cfg;
  bool discovered = false;  // found by discovery: the repository's file, not the user's

  [[noreturn]] void fail(int line, const std::string& msg) const {
    throw ConfigError(file + ":" + std::to_string(line) + ": " + msg);
  }
  Origin at(int line) const { return {file, line, ""}; }

  std::string scalar(const Node& n, const std::string& key, const char* what) const {
    if (n.kind != Node::Scalar) fail(n.line, "'" + key + "' must be " + what);
    return n.text;
  }

  std::string choice(const Node& n, const std::string& key, const std::vector<std::string>& valid) const {
    if (n.kind != Node::Scalar)
      fail(n.line, "'" + key + "' must be one of: " + join(valid));
    std::string v = lower(n.text);
    if (std::find(valid.begin(), valid.end(), v) == valid.end())
      fail(n.line, "invalid value '" + n.text + "' for '" + key + "'; valid choices: " + join(valid));
    return v;
  }

  bool boolean(const Node& n, const std::string& key) const {
    std::string v = choice(n, key, {"true", "false"});
    return v == "true";
  }

  std::vector<std::string> strings(const Node& n, const std::string& key) const {
    if (n.kind != Node::List) fail(n.line, "'" + key + "' must be a list, e.g. " + key + ": [\"...\"]");
    std::vector<std::string> out;
    for (auto& i : n.items) {
      if (i.kind != Node::Scalar || i.text.empty()) fail(i.line ? i.line : n.line, "'" + key + "' items must be non-empty strings");
      out.push_back(i.text);
    }
    return out;
  }

  std::string rule(const std::string& raw, int line, const std::string& key) const {
    std::string id = canonical_rule_id(raw);
    if (id.empty()) fail(line, "unknown rule '" + raw + "' in '" + key + "'; valid rules: " + known_rule_list());
    return id;
  }

  std::vector<std::string> rules(const Node& n, const std::string& key) const {
    std::vector<std::string> raw = strings(n, key), out;
    for (size_t i = 0; i < raw.size(); ++i) out.push_back(rule(raw[i], n.items[i].line ? n.items[i].line : n.line, key));
    return out;
  }

  void baseline(const Node& v, const std::string& k, const Origin& o) {
    std::string p = scalar(v, k, "a file path");
    if (p.empty()) fail(v.line, "'baseline' must be a file path");
    std::string abs = (fs::path(cfg.base_dir) / p).lexically_normal().generic_string();
    if (discovered && !resolves_inside(abs, cfg.base_dir))
      fail(v.line, "'baseline' names a file outside this configuration's directory (" + cfg.base_dir +
                       "); a discovered configuration may only use a baseline inside it. Pass --baseline FILE, or "
                       "--config FILE for a configuration of your own");
    cfg.baseline = {abs, o};
  }

  void cache_dir(const Node& v, const std::string& k, const Origin& o) {
    std::string p = scalar(v, k, "a directory path");
    if (p.empty()) fail(v.line, "'cache-dir' must be a directory path");
    std::string abs = (fs::path(cfg.base_dir) / p).lexically_normal().generic_string();
    if (discovered && !resolves_inside(abs, cfg.base_dir)) {
      cfg.warnings.push_back(file + ":" + std::to_string(o.line) +
                             ": 'cache-dir' outside this configuration's directory is ignored in a discovered "
                             "configuration; set it with --cache-dir DIR, $SPARKCHECK_CACHE_DIR or --config FILE");
      return;
    }
    cfg.cache_dir = {abs, o};
  }

  void max_file_size(const Node& v, const std::string& k, const Origin& o) {
    std::string t = scalar(v, k, "a number of megabytes");
    double mb = 0;
    if (!parse_megabytes(t, mb))
      fail(v.line, "invalid value '" + t + "' for 'max-file-size'; expected a positive number of megabytes, at most " +
                       std::to_string(static_cast<int>(kMaxMegabytes)));
    cfg.max_file_size = {mb, o};
  }

  // target: {sparks: N}
  void target(const Node& v, int kl) {
    if (v.kind != Node::Map) fail(v.line ? v.line : kl, "'target' must be a mapping, e.g. target: {sparks: 2}");
    for (size_t j = 0; j < v.entries.size(); ++j) {
      if (v.entries[j].first != "sparks")
        fail(v.key_lines[j], "unknown key 'target." + v.entries[j].first + "'; valid keys: target.sparks");
      std::string t = scalar(v.entries[j].second, "target.sparks", "a whole number of Sparks");
      int n = 0;
      if (!parse_sparks(t, n))
        fail(v.entries[j].second.line ? v.entries[j].second.line : v.key_lines[j],
             "invalid value '" + t + "' for 'target.sparks'; expected a whole number from 1 to " + std::to_string(kMaxSparks));
      cfg.sparks = {n, at(v.key_lines[j])};
    }
  }

  void severity(const Node& v, int kl) {
    if (v.kind != Node::Map) fail(v.line ? v.line : kl, "'severity' must map rule ids to levels, e.g. severity: {G9: error}");
    for (size_t j = 0; j < v.entries.size(); ++j) {
      std::string id = rule(v.entries[j].first, v.key_lines[j], "severity");
      std::string lv = choice(v.entries[j].second, "severity." + id, {"error", "warning", "note"});
      Level l;
      parse_level(lv, l);
      cfg.severity[id] = {l, at(v.key_lines[j])};
    }
  }

  void per_file_ignores(const Node& v, int kl) {
    if (v.kind != Node::Map)
      fail(v.line ? v.line : kl, "'per-file-ignores' must map globs to rule lists, e.g. per-file-ignores: {\"tests/**\": [G1]}");
    for (size_t j = 0; j < v.entries.size(); ++j)
      cfg.per_file_ignores.push_back({v.entries[j].first, rules(v.entries[j].second, "per-file-ignores"), at(v.key_lines[j])});
  }

  [[noreturn]] void unknown_key(const std::string& k, int kl) {
    std::string msg = "unknown key '" + k + "'";
    std::string best;
    size_t bd = 4;
    std::string kebab = k;
    std::replace(kebab.begin(), kebab.end(), '_', '-');
    for (auto& valid : config_keys()) {
      size_t d = edit_distance(lower(kebab), valid);
      if (d < bd) { bd = d; best = valid; }
    }
    if (!best.empty()) msg += " (did you mean '" + best + "'?)";
    fail(kl, msg + "; valid keys: " + join(config_keys()));
  }

  void key(const std::string& k, const Node& v, int kl) {
    Origin o = at(kl);
    if (k == "select") cfg.select = {rules(v, k), o};
    else if (k == "ignore") cfg.ignore = {rules(v, k), o};
    else if (k == "exclude") cfg.exclude = {strings(v, k), o};
    else if (k == "fail-on") cfg.fail_on = {choice(v, k, {"error", "warning", "note", "none"}), o};
    else if (k == "allow-reasonless-suppressions") cfg.allow_reasonless_suppressions = {boolean(v, k), o};
    else if (k == "inline-ignore") cfg.inline_ignore = {boolean(v, k), o};
    else if (k == "respect-gitignore") cfg.respect_gitignore = {boolean(v, k), o};
    else if (k == "baseline") baseline(v, k, o);
    else if (k == "max-file-size") max_file_size(v, k, o);
    else if (k == "cache-dir") cache_dir(v, k, o);
    else if (k == "target") target(v, kl);
    else if (k == "include-tests") cfg.include_tests = {boolean(v, k), o};
    else if (k == "severity") severity(v, kl);
    else if (k == "per-file-ignores") per_file_ignores(v, kl);
    else unknown_key(k, kl);
  }

  void top(const Node& root) {
    if (root.kind == Node::Null) return;
    if (root.kind != Node::Map) fail(root.line ? root.line : 1, "the configuration must be a mapping of keys (" + join(config_keys()) + ")");
    for (size_t i = 0; i < root.entries.size(); ++i) key(root.entries[i].first, root.entries[i].second, root.key_lines[i]);
  }
};

std::string quote(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The first line (1-based) that is not valid UTF-8, or 0.
int first_non_utf8_line(std::string_view text) {
  int line = 1;
  for (size_t start = 0; start <= text.size(); ++line) {
    size_t end = std::min(text.find('\n', start), text.size());
    if (!valid_utf8(text.substr(start, end - start))) return line;
    start = end + 1;
  }
  return 0;
}

std::string list_text(const std::vector<std::string>& v, bool quoted) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) r += (i ? ", " : "") + (quoted ? quote(v[i]) : v[i]);
  return r + "]";
}

}  // namespace

std::string Origin::str() const {
  if (!flag.empty() && flag[0] == '$') return "environment (" + flag + ")";
  if (!flag.empty()) return "command line (" + flag + ")";
  if (!file.empty()) return file + ":" + std::to_string(line);
  return "default";
}

const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> k = {
      "select", "ignore", "severity", "exclude", "per-file-ignores", "fail-on", "baseline",
      "allow-reasonless-suppressions", "inline-ignore", "respect-gitignore", "max-file-size",
      "target", "include-tests", "cache-dir"};
  return k;
}

bool fails(const std::string& fail_on, Level l) {
  if (fail_on == "none") return false;
  if (fail_on == "error") return l == Level::Error;
  if (fail_on == "warning") return l != Level::Note;
  return true;
}

namespace {
// Discovery never climbs past the repository (the directory holding .git) or
// $HOME: a stranger's /tmp/.sparkcheck.yaml must not govern a checkout below it.
bool discovery_stops_at(const fs::path& p) {
  std::error_code ec;
  if (fs::exists(p / ".git", ec)) return true;
  const char* home = std::getenv("HOME");
  return home && *home && fs::path(home).lexically_normal() == p;
}
}  // namespace

bool parse_megabytes(const std::string& t, double& mb) {
  const char* b = t.data();
  const char* e = b + t.size();
  auto [ptr, ec] = std::from_chars(b, e, mb);
  return ec == std::errc() && ptr == e && std::isfinite(mb) && mb > 0 && mb <= kMaxMegabytes;
}

bool parse_sparks(const std::string& t, int& n) {
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  return ec == std::errc() && ptr == t.data() + t.size() && n >= 1 && n <= kMaxSparks;
}

std::string find_config(const std::string& start) {
  std::error_code ec;
  fs::path p = fs::absolute(start.empty() ? "." : start, ec).lexically_normal();
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  for (;; p = p.parent_path()) {
    for (const char* name : {".sparkcheck.yaml", ".sparkcheck.yml"}) {
      fs::path c = p / name;
      if (fs::is_regular_file(c, ec)) return c.generic_string();
    }
    fs::path py = p / "pyproject.toml";
    std::string text, why;
    if (fs::is_regular_file(py, ec) && read_regular_file(py.string(), text, why)) {
      // only a pyproject.toml with a [tool.sparkcheck...] table header counts
      for (auto& line : split(text, '\n'))
        if (starts_with(trim(line), "[tool.sparkcheck")) return py.generic_string();
    }
    if (discovery_stops_at(p) || !p.has_parent_path() || p.parent_path() == p) break;
  }
  return "";
}

Config parse_config(const std::string& text, const std::string& file, bool discovered) {
  Config cfg;
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec).lexically_normal();
  cfg.file = abs.generic_string();
  cfg.base_dir = abs.parent_path().generic_string();
  Reader rd{display_file(file), cfg, discovered};
  // Values are printed back (`sparkcheck config`, messages): text must be UTF-8 as YAML and TOML require.
  if (int bad = first_non_utf8_line(text)) rd.fail(bad, "not valid UTF-8; re-save the file as UTF-8");
  if (size_t nul = text.find('\0'); nul != std::string::npos)  // YAML and TOML allow none
    rd.fail(1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')),
            "a NUL byte (byte offset " + std::to_string(nul) + "); a configuration file is text");
  Node root;
  if (ends_with(lower(file), ".toml")) {
    toml::table tbl;
    try {
      tbl = toml::parse(std::string_view(text), std::string_view(file));
    } catch (const toml::parse_error& e) {
      rd.fail(static_cast<int>(e.source().begin.line), std::string("invalid TOML: ") + std::string(e.description()));
    }
    if (const toml::node* tool = tbl.get("tool")) {
      const toml::node* mine = tool->is_table() ? tool->as_table()->get("sparkcheck") : nullptr;
      if (!mine) rd.fail(1, "no [tool.sparkcheck] table");
      if (!mine->is_table()) rd.fail(static_cast<int>(mine->source().begin.line), "[tool.sparkcheck] must be a table");
      root = from_toml(*mine);
    } else if (ends_with(lower(file), "pyproject.toml")) {
      rd.fail(1, "no [tool.sparkcheck] table");
    } else {
      root = from_toml(tbl);
    }
  } else {
    int bad_line = 0;
    std::string why;
    if (!yaml_safe_for_yaml_cpp(text, &bad_line, &why)) rd.fail(bad_line, "invalid YAML: " + why);
    try {
      root = from_yaml(YAML::Load(text), rd.file);
    } catch (const YAML::Exception& e) {
      rd.fail(e.mark.line + 1, "invalid YAML: " + e.msg);
    }
  }
  rd.top(root);
  return cfg;
}

Config load_config(const std::string& file, bool discovered) {
  std::string text, why;
  if (!read_regular_file(file, text, why)) throw ConfigError(display_file(file) + ": cannot read configuration file: " + why);
  return parse_config(text, file, discovered);
}

void apply_config(const Config& c, LintOptions& opt) {
  opt.select = std::set<std::string>(c.select.value.begin(), c.select.value.end());
  opt.ignore.insert(c.ignore.value.begin(), c.ignore.value.end());
  for (auto& g : c.exclude.value) opt.exclude_scoped.push_back({g, c.base_dir});
  for (auto& p : c.per_file_ignores)
    opt.per_file_ignores.push_back({{p.glob, c.base_dir}, std::set<std::string>(p.rules.begin(), p.rules.end()), p.from.str()});
  for (auto& [id, s] : c.severity) opt.severity[id] = s.value;
  opt.inline_ignore = c.inline_ignore.value;
  opt.allow_reasonless_suppressions = c.allow_reasonless_suppressions.value;
  opt.no_ignore = opt.no_ignore || !c.respect_gitignore.value;
  opt.max_file_bytes = static_cast<size_t>(c.max_file_size.value * 1e6);
  opt.target.sparks = c.sparks.value;
  opt.target.include_tests = c.include_tests.value;
  opt.cache_dir = c.cache_dir.value;
}

std::string render_config_text(const Config& c) {
  std::vector<std::pair<std::string, std::string>> rows;  // line, origin ("" = none)
  rows.push_back({"# configuration file: " + (c.file.empty() ? std::string("none found") : display_file(c.file)), ""});
  rows.push_back({"select: " + list_text(c.select.value, false), c.select.from.str() + (c.select.value.empty() ? "; empty = all rules" : "")});
  rows.push_back({"ignore: " + list_text(c.ignore.value, false), c.ignore.from.str()});
  if (c.severity.empty()) rows.push_back({"severity: {}", "default: each rule's documented level"});
  else {
    rows.push_back({"severity:", ""});
    for (auto& [id, s] : c.severity) rows.push_back({"  " + id + ": " + level_name(s.value), s.from.str()});
  }
  rows.push_back({"exclude: " + list_text(c.exclude.value, true), c.exclude.from.str()});
  if (c.per_file_ignores.empty()) rows.push_back({"per-file-ignores: {}", "default"});
  else {
    rows.push_back({"per-file-ignores:", ""});
    for (auto& p : c.per_file_ignores) rows.push_back({"  " + quote(p.glob) + ": " + list_text(p.rules, false), p.from.str()});
  }
  rows.push_back({"fail-on: " + c.fail_on.value, c.fail_on.from.str()});
  rows.push_back({"baseline: " + (c.baseline.value.empty() ? std::string("null") : quote(display_file(c.baseline.value))), c.baseline.from.str()});
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  rows.push_back({"allow-reasonless-suppressions: " + b(c.allow_reasonless_suppressions.value), c.allow_reasonless_suppressions.from.str()});
  rows.push_back({"inline-ignore: " + b(c.inline_ignore.value), c.inline_ignore.from.str()});
  rows.push_back({"respect-gitignore: " + b(c.respect_gitignore.value), c.respect_gitignore.from.str()});
  std::ostringstream mb;
  mb << c.max_file_size.value;
  rows.push_back({"max-file-size: " + mb.str(), c.max_file_size.from.str()});
  rows.push_back({"target: {sparks: " + std::to_string(c.sparks.value) + "}", c.sparks.from.str()});
  rows.push_back({"include-tests: " + b(c.include_tests.value), c.include_tests.from.str()});
  rows.push_back({"cache-dir: " + (c.cache_dir.value.empty() ? std::string("null") : quote(display_file(c.cache_dir.value))),
                  c.cache_dir.from.str() + (c.cache_dir.value.empty() ? "; .sparkcheck_cache in the lint root" : "")});
  size_t w = 0;
  for (auto& r : rows) if (!r.second.empty()) w = std::max(w, r.first.size());
  std::string out;
  for (auto& r : rows) {
    out += r.first;
    if (!r.second.empty()) out += std::string(w - r.first.size() + 2, ' ') + "# " + r.second;
    out += "\n";
  }
  return out;
}

std::string render_config_json(const Config& c) {
  using oj = nlohmann::ordered_json;
  auto set = [](auto v, const Origin& o) { return oj{{"value", v}, {"from", o.str()}}; };
  oj sev = oj::object();
  for (auto& [id, s] : c.severity) sev[id] = set(level_name(s.value), s.from);
  oj pfi = oj::array();
  for (auto& p : c.per_file_ignores) pfi.push_back({{"glob", p.glob}, {"rules", p.rules}, {"from", p.from.str()}});
  oj doc = {{"file", c.file.empty() ? oj(nullptr) : oj(c.file)},
            {"select", set(c.select.value, c.select.from)},
            {"ignore", set(c.ignore.value, c.ignore.from)},
            {"severity", sev},
            {"exclude", set(c.exclude.value, c.exclude.from)},
            {"per-file-ignores", pfi},
            {"fail-on", set(c.fail_on.value, c.fail_on.from)},
            {"baseline", set(c.baseline.value.empty() ? oj(nullptr) : oj(c.baseline.value), c.baseline.from)},
            {"allow-reasonless-suppressions", set(c.allow_reasonless_suppressions.value, c.allow_reasonless_suppressions.from)},
            {"inline-ignore", set(c.inline_ignore.value, c.inline_ignore.from)},
            {"respect-gitignore", set(c.respect_gitignore.value, c.respect_gitignore.from)},
            {"max-file-size", set(c.max_file_size.value, c.max_file_size.from)},
            {"target", {{"sparks", set(c.sparks.value, c.sparks.from)}}},
            {"include-tests", set(c.include_tests.value, c.include_tests.from)},
            {"cache-dir", set(c.cache_dir.value.empty() ? oj(nullptr) : oj(c.cache_dir.value), c.cache_dir.from)}};
  return doc.dump(2, ' ', false, oj::error_handler_t::replace) + "\n";
}

}  // namespace sc

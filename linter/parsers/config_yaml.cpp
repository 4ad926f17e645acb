// YAML configs (training recipes, accelerate/axolotl/LLaMA-Factory/NeMo YAML).
// yaml-cpp parses; value end positions are recovered from the source text.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <sstream>
#include <vector>

#include "core/nesting.h"

#include "core/source.h"
#include "parsers/config.h"

namespace sc {
namespace {

// End offset of the scalar that starts at `b` (quoted, block or plain).
size_t scalar_end(const std::string& t, size_t b, bool flow) {
  if (b >= t.size()) return b;
  char q = t[b];
  if (q == '"' || q == '\'') {
    for (size_t i = b + 1; i < t.size(); ++i) {
      if (q == '"' && t[i] == '\\') { ++i; continue; }
      if (t[i] == q) {
        if (q == '\'' && i + 1 < t.size() && t[i + 1] == '\'') { ++i; continue; }
        return i + 1;
      }
    }
    return t.size();
  }
  size_t e = b;
  while (e < t.size() && t[e] != '\n' && t[e] != '\r') {
    if (t[e] == '#' && e > b && (t[e - 1] == ' ' || t[e - 1] == '\t')) break;
    if (flow && (t[e] == ',' || t[e] == ']' || t[e] == '}')) break;
    if (t[e] == ':' && (e + 1 == t.size() || t[e + 1] == ' ' || t[e + 1] == '\n')) break;
    ++e;
  }
  while (e > b && (t[e - 1] == ' ' || t[e - 1] == '\t')) --e;
  return e;
}

struct Walker {
  const SourceFile& src;
  std::vector<ConfigEntry>& out;
  int doc = 0;
  int depth = 0;

  Location loc_of(const YAML::Node& n, bool flow) {
    const YAML::Mark m = n.Mark();
    if (m.pos < 0 || static_cast<size_t>(m.pos) > src.text().size()) return {src.path(), {}};
    size_t b = static_cast<size_t>(m.pos);
    size_t e = n.IsScalar() ? scalar_end(src.text(), b, flow) : b + 1;
    return src.loc(b, e);
  }

  bool in_flow(const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    if (m.pos <= 0 || static_cast<size_t>(m.pos) > src.text().size()) return false;
    // crude: a '[' or '{' earlier on the same line without its closer
    const std::string& t = src.text();
    size_t ls = t.rfind('\n', static_cast<size_t>(m.pos) - 1);
    ls = ls == std::string::npos ? 0 : ls + 1;
    int open = 0;
    for (size_t i = ls; i < static_cast<size_t>(m.pos); ++i) {
      if (t[i] == '[' || t[i] == '{') ++open;
      if (t[i] == ']' || t[i] == '}') --open;
    }
    return open > 0;
  }

  void walk(const YAML::Node& n, std::vector<std::string>& path, const Location& key_loc) {
    if (++depth > 200) { --depth; return; }  // pathological nesting
    ConfigEntry e;
    e.path = path;
    e.document = doc;
    e.key_loc = key_loc;
    if (n.IsScalar()) {
      e.value = n.Scalar();
      e.value_loc = loc_of(n, in_flow(n));
      const auto& t = src.text();
      size_t p = n.Mark().pos >= 0 ? static_cast<size_t>(n.Mark().pos) : t.size();
      e.quoted = p < t.size() && (t[p] == '"' || t[p] == '\'');
      if (!path.empty()) out.push_back(std::move(e));
    } else if (n.IsMap()) {
      e.scalar = false;
      e.value_loc = key_loc;
      if (!path.empty()) out.push_back(std::move(e));
      for (auto it = n.begin(); it != n.end(); ++it) {
        std::string k = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
        Location kl = loc_of(it->first, false);
        if (k == "<<") {  // merge key: entries belong to this map
          if (it->second.IsMap()) walk_merge(it->second, path);
          continue;
        }
        path.push_back(k);
        walk(it->second, path, kl);
        path.pop_back();
      }
    } else if (n.IsSequence()) {
      e.scalar = false;
      e.value_loc = key_loc;
      if (!path.empty()) out.push_back(std::move(e));
      size_t i = 0;
      for (auto it = n.begin(); it != n.end(); ++it, ++i) {
        path.push_back("[" + std::to_string(i) + "]");
        walk(*it, path, loc_of(*it, in_flow(*it)));
        path.pop_back();
      }
    } else if (n.IsNull() && !path.empty()) {
      e.value_loc = key_loc;
      out.push_back(std::move(e));
    }
    --depth;
  }

  void walk_merge(const YAML::Node& m, std::vector<std::string>& path) {
    for (auto it = m.begin(); it != m.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      path.push_back(it->first.Scalar());
      walk(it->second, path, loc_of(it->first, false));
      path.pop_back();
    }
  }
};

}  // namespace

namespace {
// Swallows events: counts documents, and the size each anchor would have once
// its aliases are expanded (a 7-line "billion laughs" names 10^9 nodes; an
// alias inside its own anchor, `&a [*a]`, never ends).
struct CountingHandler : YAML::EventHandler {
  static constexpr size_t kMaxNodes = 1'000'000;  // expanded nodes per document
  static constexpr size_t kMaxDepth = 200;
  YAML::Mark last;
  std::string why;  // set when the text must not be loaded
  std::map<YAML::anchor_t, size_t> anchor_size;
  struct Open { YAML::anchor_t anchor; size_t start; };
  std::vector<Open> open;
  size_t nodes = 0;

  void add(const YAML::Mark& m, size_t n) {
    last = m;
    nodes += n;
    if (nodes > kMaxNodes && why.empty()) why = "YAML aliases expand to more than a million nodes; not read";
  }
  void leaf(const YAML::Mark& m, YAML::anchor_t a) {
    add(m, 1);
    if (a) anchor_size[a] = 1;
  }
  void start(const YAML::Mark& m, YAML::anchor_t a) {
    add(m, 1);
    open.push_back({a, nodes});
    if (open.size() > kMaxDepth && why.empty()) why = "YAML nested more than 200 levels deep; not read";
  }
  void end() {
    if (open.empty()) return;
    if (open.back().anchor) anchor_size[open.back().anchor] = nodes - open.back().start + 1;
    open.pop_back();
  }
  void OnDocumentStart(const YAML::Mark& m) override { last = m; nodes = 0; anchor_size.clear(); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { leaf(m, a); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    auto it = anchor_size.find(a);
    if (it == anchor_size.end()) {  // refers to an anchor still open: a cycle
      last = m;
      if (why.empty()) why = "YAML alias refers to the node that contains it; not read";
      return;
    }
    add(m, it->second);
  }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t a, const std::string&) override { leaf(m, a); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    start(m, a);
  }
  void OnSequenceEnd() override { end(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    start(m, a);
  }
  void OnMapEnd() override { end(); }
};
}  // namespace

namespace {
// How many documents the text can hold: one per "---" or "..." line, plus two.
size_t max_documents(const std::string& text) {
  size_t max_docs = 2;
  for (size_t i = 0; i < text.size(); i = text.find('\n', i) == std::string::npos ? text.size() : text.find('\n', i) + 1)
    if (text.compare(i, 3, "---") == 0 || text.compare(i, 3, "...") == 0) ++max_docs;
  return max_docs;
}
}  // namespace

bool yaml_safe_for_yaml_cpp(const std::string& text, int* line_out, std::string* why) {
  // yaml-cpp 0.7 never consumes a stray ',' at block level ("{}, x", "--- ,"):
  // LoadAll then yields empty documents forever. Count documents with a
  // null handler and stop once there are more than the text can hold.
  size_t max_docs = max_documents(text);
  if (why) *why = "YAML syntax error: stray ',' outside a flow collection ([...] or {...})";
  int deep_line = 0;
  if (too_deep(text, &deep_line)) {  // yaml-cpp's own parser recurses on flow nesting
    if (line_out) *line_out = deep_line;
    if (why) *why = "YAML nested more than " + std::to_string(kMaxNesting) + " levels deep; not read";
    return false;
  }
  std::istringstream in(text);
  YAML::Parser parser(in);
  CountingHandler h;
  size_t docs = 0;
  try {
    while (parser.HandleNextDocument(h)) {
      if (!h.why.empty() || ++docs > max_docs) {
        if (line_out) *line_out = h.last.line >= 0 ? h.last.line + 1 : 1;
        if (why && !h.why.empty()) *why = h.why;
        return false;
      }
    }
  } catch (const YAML::Exception&) {
    return true;  // an ordinary syntax error: the real parse reports it
  }
  return true;
}

void yaml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag) {
  int bad_line = 0;
  std::string why;
  if (!yaml_safe_for_yaml_cpp(src.text(), &bad_line, &why)) {
    diag.error(src.path(), {bad_line, 1, bad_line, 2}, why);
    return;
  }
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(src.text());
    Walker w{src, out};
    for (auto& d : docs) {
      std::vector<std::string> path;
      w.walk(d, path, Location{src.path(), {}});
      ++w.doc;
    }
  } catch (const YAML::Exception& e) {
    Range r;
    if (e.mark.line >= 0) {
      r.line = e.mark.line + 1;
      r.col = e.mark.column + 1;
      r.end_line = r.line;
      r.end_col = r.col + 1;
    }
    diag.error(src.path(), r, "YAML syntax error: " + e.msg);
  }
}

namespace {
class YamlParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Yaml; }
  bool accepts(const FileInfo& f) const override {
    return ends_with(lower(f.name), ".yaml") || ends_with(lower(f.name), ".yml");
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    yaml_entries(src, out.config, diag);
    yaml_workloads(src, out, diag);
  }
};
}  // namespace
SPARKCHECK_PARSER(YamlParser);

}  // namespace sc

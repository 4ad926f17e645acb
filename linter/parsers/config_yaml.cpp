// YAML configs (training recipes, accelerate/axolotl/LLaMA-Factory/NeMo YAML).
// yaml-cpp parses; value end positions are recovered from the source text.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

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
    e.key_loc = key_loc;
    if (n.IsScalar()) {
      e.value = n.Scalar();
      e.value_loc = loc_of(n, in_flow(n));
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
// Swallows events: used to count documents without building nodes.
struct CountingHandler : YAML::EventHandler {
  YAML::Mark last;
  void OnDocumentStart(const YAML::Mark& m) override { last = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};
}  // namespace

bool yaml_safe_for_yaml_cpp(const std::string& text, int* line_out) {
  // yaml-cpp 0.7 never consumes a stray ',' at block level ("{}, x", "--- ,"):
  // LoadAll then yields empty documents forever. Count documents with a
  // null handler and stop once there are more than the text can hold.
  size_t max_docs = 2;
  for (size_t i = 0; i < text.size(); i = text.find('\n', i) == std::string::npos ? text.size() : text.find('\n', i) + 1)
    if (text.compare(i, 3, "---") == 0 || text.compare(i, 3, "...") == 0) ++max_docs;
  std::istringstream in(text);
  YAML::Parser parser(in);
  CountingHandler h;
  size_t docs = 0;
  try {
    while (parser.HandleNextDocument(h))
      if (++docs > max_docs) {
        if (line_out) *line_out = h.last.line >= 0 ? h.last.line + 1 : 1;
        return false;
      }
  } catch (const YAML::Exception&) {
    return true;  // an ordinary syntax error: the real parse reports it
  }
  return true;
}

void yaml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag) {
  int bad_line = 0;
  if (!yaml_safe_for_yaml_cpp(src.text(), &bad_line)) {
    diag.error(src.path(), {bad_line, 1, bad_line, 2},
               "YAML syntax error: stray ',' outside a flow collection ([...] or {...})");
    return;
  }
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(src.text());
    Walker w{src, out};
    for (auto& d : docs) {
      std::vector<std::string> path;
      w.walk(d, path, Location{src.path(), {}});
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
  }
};
}  // namespace
SPARKCHECK_PARSER(YamlParser);

}  // namespace sc

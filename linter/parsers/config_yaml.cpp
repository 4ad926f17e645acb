// SPDX-License-Identifier: Apache-2.0
// YAML configs (training recipes, accelerate/axolotl/LLaMA-Factory/NeMo YAML).
// yaml-cpp parses; value end positions are recovered from the source text.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <vector>

#include "core/nesting.h"

#include "core/source.h"
#include "parsers/config.h"
#include "parsers/packaging.h"

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

// One YAML document as yaml-cpp's NodeBuilder would build it (same nodes, marks and order;
// an alias is the anchored node itself), built from the events of the one parse.
struct YNode {
  enum Type { Null, Scalar, Sequence, Map } type = Null;
  YAML::Mark mark;
  std::string value;
  std::vector<size_t> kids;  // items; a map's keys and values alternate
};

struct YDoc {
  std::vector<YNode> nodes;
  size_t root = SIZE_MAX;  // none: an empty document (a null node)
};

// A node of a YDoc with the part of YAML::Node's interface the walker uses.
class YView {
 public:
  YView(const YDoc& d, size_t i) : d_(&d), i_(i) {}
  YAML::Mark Mark() const { return i_ == SIZE_MAX ? YAML::Mark::null_mark() : node().mark; }
  bool IsNull() const { return i_ == SIZE_MAX || node().type == YNode::Null; }
  bool IsScalar() const { return i_ != SIZE_MAX && node().type == YNode::Scalar; }
  bool IsSequence() const { return i_ != SIZE_MAX && node().type == YNode::Sequence; }
  bool IsMap() const { return i_ != SIZE_MAX && node().type == YNode::Map; }
  const std::string& Scalar() const { return node().value; }
  size_t size() const { return i_ == SIZE_MAX ? 0 : node().kids.size(); }
  YView kid(size_t k) const { return {*d_, node().kids[k]}; }

 private:
  const YNode& node() const { return d_->nodes[i_]; }
  const YDoc* d_;
  size_t i_;
};

struct Walker {
  const SourceFile& src;
  std::vector<ConfigEntry>& out;
  int doc = 0;
  int depth = 0;

  Location loc_of(const YView& n, bool flow) {
    const YAML::Mark m = n.Mark();
    if (m.pos < 0 || static_cast<size_t>(m.pos) > src.text().size()) return {src.path(), {}};
    size_t b = static_cast<size_t>(m.pos);
    size_t e = n.IsScalar() ? scalar_end(src.text(), b, flow) : b + 1;
    return src.loc(b, e);
  }

  bool in_flow(const YView& n) {
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

  void walk(const YView& n, std::vector<std::string>& path, const Location& key_loc) {
    if (++depth > 200) { --depth; return; }  // pathological nesting
    ConfigEntry e;
    e.path = path;
    e.document = doc;
    e.key_loc = key_loc;
    if (n.IsScalar()) {
      e.value = n.Scalar();
      e.value_loc = loc_of(n, in_flow(n));
      if (!path.empty()) out.push_back(std::move(e));
    } else if (n.IsMap()) {
      e.scalar = false;
      e.value_loc = key_loc;
      if (!path.empty()) out.push_back(std::move(e));
      for (size_t i = 0; i + 1 < n.size(); i += 2) {
        YView key = n.kid(i), value = n.kid(i + 1);
        std::string k = key.IsScalar() ? key.Scalar() : std::string("?");
        Location kl = loc_of(key, false);
        if (k == "<<") {  // merge key: entries belong to this map
          if (value.IsMap()) walk_merge(value, path);
          continue;
        }
        path.push_back(k);
        walk(value, path, kl);
        path.pop_back();
      }
    } else if (n.IsSequence()) {
      e.scalar = false;
      e.value_loc = key_loc;
      if (!path.empty()) out.push_back(std::move(e));
      for (size_t i = 0; i < n.size(); ++i) {
        YView item = n.kid(i);
        path.push_back("[" + std::to_string(i) + "]");
        walk(item, path, loc_of(item, in_flow(item)));
        path.pop_back();
      }
    } else if (n.IsNull() && !path.empty()) {
      e.value_loc = key_loc;
      out.push_back(std::move(e));
    }
    --depth;
  }

  void walk_merge(const YView& m, std::vector<std::string>& path) {
    for (size_t i = 0; i + 1 < m.size(); i += 2) {
      YView key = m.kid(i);
      if (!key.IsScalar()) continue;
      path.push_back(key.Scalar());
      walk(m.kid(i + 1), path, loc_of(key, false));
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
// Counts like CountingHandler and builds each document as NodeBuilder would: the text is
// parsed once, for the guards and the tree.
struct DocBuilder : CountingHandler {
  std::vector<YDoc> docs;
  std::vector<size_t> stack;                  // open collections
  std::map<YAML::anchor_t, size_t> anchored;  // this document's anchors

  YDoc& doc() { return docs.back(); }
  size_t make(const YAML::Mark& m, YAML::anchor_t a, YNode::Type t) {
    doc().nodes.push_back({t, m, {}, {}});
    size_t i = doc().nodes.size() - 1;
    if (a) anchored[a] = i;
    return i;
  }
  void place(size_t i) {  // into the open collection, or as the root
    if (stack.empty()) doc().root = i;
    else doc().nodes[stack.back()].kids.push_back(i);
  }
  void OnDocumentStart(const YAML::Mark& m) override {
    CountingHandler::OnDocumentStart(m);
    docs.emplace_back();
    stack.clear();
    anchored.clear();
  }
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override {
    CountingHandler::OnNull(m, a);
    place(make(m, a, YNode::Null));
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    CountingHandler::OnAlias(m, a);
    auto it = anchored.find(a);
    if (it != anchored.end()) place(it->second);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, const std::string& v) override {
    CountingHandler::OnScalar(m, tag, a, v);
    size_t i = make(m, a, YNode::Scalar);
    doc().nodes[i].value = v;
    place(i);
  }
  void open_node(const YAML::Mark& m, YAML::anchor_t a, YNode::Type t) {
    size_t i = make(m, a, t);
    place(i);
    stack.push_back(i);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value s) override {
    CountingHandler::OnSequenceStart(m, tag, a, s);
    open_node(m, a, YNode::Sequence);
  }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value s) override {
    CountingHandler::OnMapStart(m, tag, a, s);
    open_node(m, a, YNode::Map);
  }
  void OnSequenceEnd() override { CountingHandler::OnSequenceEnd(); close(); }
  void OnMapEnd() override { CountingHandler::OnMapEnd(); close(); }
  void close() {
    if (!stack.empty()) stack.pop_back();
  }
};

// How many documents the text can hold: one per "---" or "..." line, plus two.
size_t max_documents(const std::string& text) {
  size_t max_docs = 2;
  for (size_t i = 0; i < text.size(); i = text.find('\n', i) == std::string::npos ? text.size() : text.find('\n', i) + 1)
    if (text.compare(i, 3, "---") == 0 || text.compare(i, 3, "...") == 0) ++max_docs;
  return max_docs;
}
}  // namespace

namespace {
// Parses `text` once with `h`, stopping where a guard does (false, with the line in
// *line_out and the reason in *why). A syntax error throws yaml-cpp's exception.
bool guarded_parse(const std::string& text, CountingHandler& h, int* line_out, std::string* why) {
  // yaml-cpp 0.7 never consumes a stray ',' at block level ("{}, x", "--- ,"):
  // LoadAll then yields empty documents forever. Count documents and stop once there
  // are more than the text can hold.
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
  size_t docs = 0;
  while (parser.HandleNextDocument(h)) {
    if (!h.why.empty() || ++docs > max_docs) {
      if (line_out) *line_out = h.last.line >= 0 ? h.last.line + 1 : 1;
      if (why && !h.why.empty()) *why = h.why;
      return false;
    }
  }
  return true;
}
}  // namespace

bool yaml_safe_for_yaml_cpp(const std::string& text, int* line_out, std::string* why) {
  CountingHandler h;
  try {
    return guarded_parse(text, h, line_out, why);
  } catch (const YAML::Exception&) {
    return true;  // an ordinary syntax error: the real parse reports it
  }
}

// A Helm or Jinja template: placeholders that only a renderer turns into YAML.
bool is_template(std::string_view text) {
  return text.find("{{") != std::string_view::npos || text.find("{%") != std::string_view::npos;
}

// One parse (guards and tree together); the walk reads the documents NodeBuilder would give.
void yaml_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag) {
  int bad_line = 0;
  std::string why;
  DocBuilder b;
  try {
    if (!guarded_parse(src.text(), b, &bad_line, &why)) {
      diag.error(src.path(), {bad_line, 1, bad_line, 2}, why);
      return;
    }
  } catch (const YAML::Exception& e) {
    Range r;
    if (e.mark.line >= 0) {
      r.line = e.mark.line + 1;
      r.col = e.mark.column + 1;
      r.end_line = r.line;
      r.end_col = r.col + 1;
    }
    if (is_template(src.text()))  // Helm / Jinja: YAML only once rendered; not a broken file
      diag.notes.push_back({Level::Note, src.path(), r, "YAML template with {{ }} / {% %} placeholders (" + e.msg +
                                                          " before rendering): not checked", "template"});
    else
      diag.error(src.path(), r, "YAML syntax error: " + e.msg);
    return;
  }
  Walker w{src, out};
  for (const YDoc& d : b.docs) {
    std::vector<std::string> path;
    w.walk(YView(d, d.root), path, Location{src.path(), {}});
    ++w.doc;
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
    if (conda_env_text(src.text())) {  // a conda environment file by another name
      out.kind = FileKind::CondaEnv;
      return parse_conda_env(src, out, diag);
    }
    yaml_entries(src, out.config.edit(), diag);
    yaml_workloads(src, out, diag);
  }
};
}  // namespace
SPARKCHECK_PARSER(YamlParser);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Python layer (see python.h).
#include "parsers/python.h"

#include <tree_sitter/api.h>

#include <cstring>
#include <map>
#include <memory>

#include "parsers/shell.h"
#include "parsers/ts_util.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sc {

// Python string escapes (the common ones; others are kept as written).
std::string py_unescape(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) { r += s[i]; continue; }
    char c = s[++i];
    switch (c) {
      case 'n': r += '\n'; break;
      case 't': r += '\t'; break;
      case 'r': r += '\r'; break;
      case '\\': r += '\\'; break;
      case '\'': r += '\''; break;
      case '"': r += '"'; break;
      case '\n': break;
      case 'x':
      case 'u':
      case 'U': {
        size_t len = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        if (i + len < s.size()) {
          std::string hex(s.substr(i + 1, len));
          char* end = nullptr;
          unsigned long cp = std::strtoul(hex.c_str(), &end, 16);
          if (end && *end == 0 && hex.size() == len) {
            ts::append_utf8(r, static_cast<uint32_t>(cp));
            i += len;
            break;
          }
        }
        r += '\\';
        r += c;
        break;
      }
      default: r += '\\'; r += c;
    }
  }
  return r;
}

namespace {

using ts::is;

struct Lit {
  bool is_literal = false;
  std::string kind = "other";
  std::string text;
  std::vector<std::string> items;
};

class PyWalker {
 public:
  PyWalker(const SourceFile& src, PythonFacts& out, TSNode root)
      : src_(src), text_(src.text()), out_(out), cur_(ts_tree_cursor_new(root)) {
    for (const auto& im : out.imports) bind(im);
  }
  ~PyWalker() { ts_tree_cursor_delete(&cur_); }
  PyWalker(const PyWalker&) = delete;
  PyWalker& operator=(const PyWalker&) = delete;

  int nesting_ = 0;  // see ts::kMaxDepth

  // `n` is the cursor's node; the walk leaves the cursor there.
  void walk(TSNode n) {
    ts::Nest guard(nesting_);
    if (nesting_ > ts::kMaxDepth) return;
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "import_statement")) return import_stmt(n);
    if (!std::strcmp(t, "import_from_statement")) return import_from(n);
    if (!std::strcmp(t, "function_definition")) return function(n);
    if (!std::strcmp(t, "lambda")) {
      ++depth_;
      walk_children(n);
      --depth_;
      return;
    }
    if (!std::strcmp(t, "call")) {
      call(n);
      return walk_children(n);
    }
    if (!std::strcmp(t, "assignment")) {
      assignment(n);
      return walk_children(n);
    }
    if (!std::strcmp(t, "string")) {
      Lit l = literal(n);
      if (l.is_literal) out_.strings.emplace_back(l.text, loc(n));
      return walk_children(n);  // interpolations
    }
    walk_children(n);
  }

 private:
  const SourceFile& src_;
  const std::string& text_;
  PythonFacts& out_;
  std::map<std::string, std::string> bindings_;  // local name -> qualified module path
  // One cursor for the whole walk (a cursor per node costs an allocation each): it stands on
  // the node being walked, goes down for its children and back up.
  TSTreeCursor cur_;
  int depth_ = 0;
  // literal()/dotted() recursion: deeper expressions are treated as non-literal
  static constexpr int kMaxExprDepth = 64;
  mutable int expr_depth_ = 0;

  std::string_view raw(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return std::string_view(text_).substr(b, e - b);
  }
  Location loc(TSNode n) const { return src_.loc(ts_node_start_byte(n), ts_node_end_byte(n)); }

  void walk_children(TSNode) {
    if (!ts_tree_cursor_goto_first_child(&cur_)) return;
    do {
      TSNode ch = ts_tree_cursor_current_node(&cur_);
      if (ts_node_is_named(ch)) walk(ch);
    } while (ts_tree_cursor_goto_next_sibling(&cur_));
    ts_tree_cursor_goto_parent(&cur_);
  }

  static std::string compact(std::string_view s) {
    std::string r;
    for (char c : s)
      if (!std::isspace(static_cast<unsigned char>(c))) r += c;
    return r;
  }

  // The callee of a call that is not a dotted name (`f()()`, `load(x).to`), without its spaces:
  // of a long one the first and last kCalleeKeep characters around "...". A chain `y()()()...`
  // is a call whose callee is the call before it: whole, the callees of a 400 KB chain took
  // 1.6 GB (one copy per level the walk goes down). Rules compare a callee whole or by its
  // start or end, which stay.
  static constexpr size_t kCalleeKeep = 256;
  static std::string compact_callee(std::string_view s) {
    std::string head, tail;
    size_t i = 0;
    for (; i < s.size() && head.size() < kCalleeKeep; ++i)
      if (!std::isspace(static_cast<unsigned char>(s[i]))) head += s[i];
    size_t j = s.size();
    for (; j > i && tail.size() < kCalleeKeep + 4; --j)
      if (!std::isspace(static_cast<unsigned char>(s[j - 1]))) tail += s[j - 1];
    if (tail.size() == kCalleeKeep + 4) {  // more than 2 * kCalleeKeep + 3 in all
      tail.resize(kCalleeKeep);
      head += "...";
    }
    head.append(tail.rbegin(), tail.rend());
    return head;
  }

  void bind(const PyImport& im) {
    if (im.name == "*") return;
    if (im.name.empty()) {
      if (!im.alias.empty()) bindings_[im.alias] = im.alias == im.module.substr(0, im.module.find('.'))
                                                       ? im.alias
                                                       : im.module;
    } else if (!im.alias.empty()) {
      bindings_[im.alias] = im.module + "." + im.name;
    }
  }

  void add_import(PyImport im) {
    bind(im);
    out_.imports.push_back(std::move(im));
  }

  // Children with their field names (ts_node_field_name_for_child is unreliable in 0.20.7).
  static std::vector<std::pair<std::string, TSNode>> fields(TSNode n) {
    std::vector<std::pair<std::string, TSNode>> v;
    TSTreeCursor cur = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cur)) {
      do {
        const char* f = ts_tree_cursor_current_field_name(&cur);
        v.emplace_back(f ? f : "", ts_tree_cursor_current_node(&cur));
      } while (ts_tree_cursor_goto_next_sibling(&cur));
    }
    ts_tree_cursor_delete(&cur);
    return v;
  }

  void import_stmt(TSNode n) {
    for (auto& [f, ch] : fields(n)) {
      if (f != "name") continue;
      PyImport im;
      im.loc = loc(ch);
      if (is(ch, "aliased_import")) {
        im.module = compact(raw(ts_node_child_by_field_name(ch, "name", 4)));
        im.alias = std::string(raw(ts_node_child_by_field_name(ch, "alias", 5)));
      } else {
        im.module = compact(raw(ch));
        im.alias = im.module.substr(0, im.module.find('.'));  // `import a.b` binds `a`
      }
      add_import(std::move(im));
    }
  }

  void import_from(TSNode n) {
    TSNode mod = ts_node_child_by_field_name(n, "module_name", 11);
    std::string module = ts_node_is_null(mod) ? std::string() : compact(raw(mod));
    for (auto& [f, ch] : fields(n)) {
      PyImport im;
      im.module = module;
      im.loc = loc(ch);
      if (is(ch, "wildcard_import")) {
        im.name = "*";
      } else if (f == "name") {
        if (is(ch, "aliased_import")) {
          im.name = compact(raw(ts_node_child_by_field_name(ch, "name", 4)));
          im.alias = std::string(raw(ts_node_child_by_field_name(ch, "alias", 5)));
        } else {
          im.name = compact(raw(ch));
          im.alias = im.name;
        }
      } else {
        continue;
      }
      add_import(std::move(im));
    }
  }

  void function(TSNode n) {
    ++depth_;
    walk_children(n);
    --depth_;
  }

  // "a.b.c" for identifier/attribute chains, empty otherwise.
  std::string dotted(TSNode n) const {
    if (is(n, "identifier")) return std::string(raw(n));
    ts::Nest nest(expr_depth_);
    if (expr_depth_ > kMaxExprDepth) return {};
    if (is(n, "attribute")) {
      std::string obj = dotted(ts_node_child_by_field_name(n, "object", 6));
      TSNode attr = ts_node_child_by_field_name(n, "attribute", 9);
      if (obj.empty() || ts_node_is_null(attr)) return {};
      return obj + "." + std::string(raw(attr));
    }
    return {};
  }

  std::string resolve(const std::string& name) const {
    size_t dot = name.find('.');
    auto it = bindings_.find(name.substr(0, dot));
    if (it == bindings_.end()) return name;
    return dot == std::string::npos ? it->second : it->second + name.substr(dot);
  }

  Lit string_lit(TSNode n) const {
    Lit l;
    l.kind = "string";
    TSNode start{}, end{};
    bool have_start = false, have_end = false;
    bool interpolated = false;
    ts::each_child(n, false, [&](TSNode ch) {
      if (is(ch, "interpolation")) interpolated = true;  // f-string with a value: not a literal
      if (is(ch, "string_start")) { start = ch; have_start = true; }
      if (is(ch, "string_end")) { end = ch; have_end = true; }
      return !interpolated;
    });
    if (interpolated || !have_start || !have_end) return l;
    std::string prefix = lower(raw(start));
    bool rawstr = prefix.find('r') != std::string::npos;
    uint32_t b = ts_node_end_byte(start), e = ts_node_start_byte(end);
    std::string_view body = std::string_view(text_).substr(b, e > b ? e - b : 0);
    l.text = rawstr ? std::string(body) : py_unescape(body);
    l.is_literal = true;
    return l;
  }

  Lit literal(TSNode n) const {
    Lit l;
    if (ts_node_is_null(n)) return l;
    ts::Nest nest(expr_depth_);
    if (expr_depth_ > kMaxExprDepth) return l;  // too deep to be a value worth reading
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "string")) return string_lit(n);
    if (!std::strcmp(t, "concatenated_string")) {
      l.kind = "string";
      l.is_literal = true;
      ts::each_named_child(n, [&](TSNode ch) {
        Lit p = literal(ch);
        if (!p.is_literal) { l.is_literal = false; l.text.clear(); return false; }
        l.text += p.text;
        return true;
      });
      return l;
    }
    if (!std::strcmp(t, "integer") || !std::strcmp(t, "float")) {
      l.kind = t;
      l.text = std::string(raw(n));
      l.is_literal = true;
      return l;
    }
    if (!std::strcmp(t, "unary_operator")) {
      TSNode a = ts_node_child_by_field_name(n, "argument", 8);
      Lit inner = literal(a);
      std::string_view op = raw(n).substr(0, 1);
      if (inner.is_literal && (inner.kind == "integer" || inner.kind == "float") && (op == "-" || op == "+")) {
        inner.text = (op == "-" ? "-" : "") + inner.text;
        return inner;
      }
      return l;
    }
    if (!std::strcmp(t, "true")) { l.kind = "true"; l.text = "True"; l.is_literal = true; return l; }
    if (!std::strcmp(t, "false")) { l.kind = "false"; l.text = "False"; l.is_literal = true; return l; }
    if (!std::strcmp(t, "none")) { l.kind = "none"; l.text = "None"; l.is_literal = true; return l; }
    if (!std::strcmp(t, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
      return literal(ts_node_named_child(n, 0));
    if (!std::strcmp(t, "tuple") || !std::strcmp(t, "list")) {
      l.kind = "tuple";
      l.is_literal = true;
      l.text = std::string(raw(n));
      ts::each_named_child(n, [&](TSNode it) {
        if (is(it, "comment")) return;
        Lit p = literal(it);
        if (!p.is_literal || p.kind == "tuple") {
          l.is_literal = false;
          l.items.push_back(compact(raw(it)));  // as written: never a number or a quoted name
        } else {
          l.items.push_back(p.text);
        }
      });
      return l;
    }
    return l;
  }

  PyArg arg(TSNode n) const {
    PyArg a;
    a.loc = loc(n);
    TSNode value = n;
    if (is(n, "keyword_argument")) {
      a.keyword = std::string(raw(ts_node_child_by_field_name(n, "name", 4)));
      value = ts_node_child_by_field_name(n, "value", 5);
    } else if (is(n, "dictionary_splat")) {
      a.keyword = "**";
    } else if (is(n, "list_splat")) {
      a.keyword = "*";
    }
    if (a.keyword != "**" && a.keyword != "*") {
      Lit l = literal(value);
      a.is_literal = l.is_literal;
      a.kind = l.kind;
      a.literal = l.text;
      a.items = std::move(l.items);
    } else {
      a.kind = "other";
    }
    return a;
  }

  void call(TSNode n) {
    TSNode fn = ts_node_child_by_field_name(n, "function", 8);
    TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
    PyCall c;
    std::string d = dotted(fn);
    c.callee = d.empty() ? compact_callee(raw(fn)) : d;
    c.resolved = d.empty() ? c.callee : resolve(d);
    c.loc = loc(n);
    if (is(args, "argument_list")) {
      ts::each_named_child(args, [&](TSNode a) {
        if (!is(a, "comment")) c.args.push_back(arg(a));
      });
    }
    // setattr(module, "NAME", value) is an attribute assignment
    if (c.callee == "setattr" && c.args.size() == 3 && c.args[0].keyword.empty() &&
        c.args[1].is_literal && c.args[1].kind == "string") {
      TSNode obj = ts::first_named_child(args);
      std::string od = dotted(obj);
      if (!od.empty()) {
        PyAssign pa;
        pa.target = od + "." + c.args[1].literal;
        pa.resolved = resolve(pa.target);
        pa.is_literal = c.args[2].is_literal;
        pa.value = c.args[2].literal;
        pa.scope_depth = depth_;
        pa.loc = c.loc;
        out_.assigns.push_back(pa);
      }
    }
    out_.calls.push_back(std::move(c));
  }

  void assignment(TSNode n) {
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    std::string d = dotted(left);
    if (d.empty() && is(left, "subscript")) {
      // os.environ["NAME"] = value -> target "os.environ[NAME]"
      std::string obj = dotted(ts_node_child_by_field_name(left, "value", 5));
      Lit key = literal(ts_node_child_by_field_name(left, "subscript", 9));
      if (!obj.empty() && key.is_literal && key.kind == "string") d = obj + "[" + key.text + "]";
    }
    if (d.empty()) return;
    while (is(right, "assignment")) right = ts_node_child_by_field_name(right, "right", 5);  // a = b = x
    PyAssign pa;
    pa.target = d;
    pa.resolved = resolve(d);
    Lit l = literal(right);
    pa.is_literal = l.is_literal;
    pa.value = l.text;
    pa.scope_depth = depth_;
    pa.loc = loc(n);
    out_.assigns.push_back(std::move(pa));
  }
};

// The part's ranges only (none: an empty text); null when tree-sitter refuses them.
ts::TreePtr parse_part(TSParser* parser, const PythonPart& part) {
  if (part.ranges.empty()) return ts::parse(parser, "");
  std::vector<TSRange> r;
  r.reserve(part.ranges.size());
  for (const PythonPart::Lines& l : part.ranges)
    r.push_back({{l.first_row, 0}, {l.end_row, l.end_column}, l.begin, l.end});
  if (!ts_parser_set_included_ranges(parser, r.data(), static_cast<uint32_t>(r.size()))) return nullptr;
  return ts::parse(parser, part.text);
}

}  // namespace

void parse_python(const SourceFile& src, PythonFacts& out, ParseDiag& diag) {
  ts::ParserPtr parser = ts::new_parser();
  if (!ts_parser_set_language(parser.get(), tree_sitter_python())) {
    diag.error(src.path(), {}, "internal: tree-sitter-python grammar rejected by the tree-sitter library",
               "internal-error");
    return;
  }
  const std::string& text = src.text();
  if (ts::refuse_deep(src, text, diag)) return;
  ts::TreePtr tree;
  if (diag.python_lines) {  // the statements around the trigger lines, when they parse cleanly
    if (std::optional<PythonPart> part = python_statements_only(text, diag.python_lines(text))) {
      tree = parse_part(parser.get(), *part);
      if (tree && ts_node_has_error(ts_tree_root_node(tree.get()))) tree.reset();
      ts_parser_set_included_ranges(parser.get(), nullptr, 0);
    }
  }
  if (!tree) tree = ts::parse(parser.get(), text);
  if (!tree) return;
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) {
    TSNode bad;
    std::string what = ts::describe_error(root, bad);
    diag.warn(src.path(), src.range(ts_node_start_byte(bad), ts_node_end_byte(bad)),
              "Python syntax error: " + what + " (the rest of the file is still checked)",
              "python-syntax");
  }
  PyWalker(src, out, root).walk(root);
}

bool python_shebang(std::string_view head) {
  std::string p = shebang_interpreter(head);
  return starts_with(p, "python") || starts_with(p, "pypy");
}

namespace {

class PythonParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Python; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return ends_with(n, ".py") || ends_with(n, ".pyw") || python_shebang(f.head);
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Python;
    parse_python(src, out.python, diag);
  }
};

}  // namespace

SPARKCHECK_PARSER(PythonParser);

}  // namespace sc

// Jupyter notebooks (.ipynb, nbformat 4): code cells are parsed as Python,
// `!cmd` / `%pip` / `%%bash` lines as shell. Each cell becomes a view of the
// .ipynb whose line map points every cell line at the JSON string holding it,
// so findings land on the right line of the notebook file.
#include <tree_sitter/api.h>

#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "parsers/python.h"
#include "parsers/shell.h"
#include "parsers/ts_util.h"

extern "C" const TSLanguage* tree_sitter_json(void);

namespace sc {
namespace {

using ts::is;

// A decoded JSON string plus, for every decoded byte, the file offset it came from.
struct Decoded {
  std::string text;
  std::vector<size_t> from;  // from.size() == text.size()
  size_t end = 0;            // file offset just past the last decoded byte
};

void put_utf8(Decoded& d, uint32_t cp, size_t at) {
  std::string buf;
  ts::append_utf8(buf, cp);
  for (char c : buf) { d.text += c; d.from.push_back(at); }
}

// Decode the JSON string whose body (between the quotes) is file[b, e).
void decode_into(const std::string& file, size_t b, size_t e, Decoded& d) {
  size_t i = b;
  auto hex4 = [&](size_t at, uint32_t& v) {
    if (at + 4 > e) return false;
    v = 0;
    for (size_t k = at; k < at + 4; ++k) {
      char c = file[k];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return false;
    }
    return true;
  };
  while (i < e) {
    char c = file[i];
    if (c != '\\' || i + 1 >= e) { d.text += c; d.from.push_back(i); ++i; continue; }
    char n = file[i + 1];
    size_t at = i;
    i += 2;
    switch (n) {
      case 'n': d.text += '\n'; d.from.push_back(at); break;
      case 't': d.text += '\t'; d.from.push_back(at); break;
      case 'r': d.text += '\r'; d.from.push_back(at); break;
      case 'b': d.text += '\b'; d.from.push_back(at); break;
      case 'f': d.text += '\f'; d.from.push_back(at); break;
      case 'u': {
        uint32_t cp = 0;
        if (!hex4(i, cp)) { d.text += '?'; d.from.push_back(at); break; }
        i += 4;
        uint32_t lo = 0;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 <= e && file[i] == '\\' && file[i + 1] == 'u' &&
            hex4(i + 2, lo) && lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        put_utf8(d, cp, at);
        break;
      }
      default: d.text += n; d.from.push_back(at);  // \" \\ \/
    }
  }
  d.end = e;
}

std::string key_of(const std::string& file, TSNode pair) {
  TSNode k = ts_node_child_by_field_name(pair, "key", 3);
  if (!is(k, "string")) return {};
  uint32_t b = ts_node_start_byte(k), e = ts_node_end_byte(k);
  if (e < b + 2) return {};
  return file.substr(b + 1, e - b - 2);
}

TSNode member(const std::string& file, TSNode obj, const char* key) {
  if (!is(obj, "object")) return TSNode{};
  for (uint32_t i = 0; i < ts_node_named_child_count(obj); ++i) {
    TSNode p = ts_node_named_child(obj, i);
    if (is(p, "pair") && key_of(file, p) == key) return ts_node_child_by_field_name(p, "value", 5);
  }
  return TSNode{};
}

void decode_string_node(const std::string& file, TSNode s, Decoded& d) {
  uint32_t b = ts_node_start_byte(s), e = ts_node_end_byte(s);
  if (e >= b + 2) decode_into(file, b + 1, e - 1, d);
}

struct CellLines {
  std::vector<std::string_view> lines;           // cell text split at '\n'
  std::vector<SourceFile::LineMapEntry> map;     // one entry per line
};

class NotebookReader {
 public:
  NotebookReader(const SourceFile& src, FileFacts& out, ParseDiag& diag)
      : src_(src), file_(src.text()), out_(out), diag_(diag) {}

  void cell(TSNode source, bool python) {
    Decoded d;
    if (is(source, "array")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(source); ++i) {
        TSNode s = ts_node_named_child(source, i);
        if (is(s, "string")) decode_string_node(file_, s, d);
      }
    } else if (is(source, "string")) {
      decode_string_node(file_, source, d);
    } else {
      return;
    }
    if (d.text.empty()) return;
    // One map entry per cell line: the file position of the line's first byte.
    std::vector<SourceFile::LineMapEntry> map;
    size_t start = 0;
    while (true) {
      size_t off = start < d.from.size() ? d.from[start] : d.end;
      int line = src_.line_of(off);
      map.push_back({line, off - src_.line_start(line), src_.line(line)});
      size_t nl = d.text.find('\n', start);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    split_cell(d.text, map, python);
  }

 private:
  const SourceFile& src_;
  const std::string& file_;
  FileFacts& out_;
  ParseDiag& diag_;

  static bool shell_magic(std::string_view l, size_t& skip) {
    // `!cmd` and `%pip ...` / `%conda ...`: blank out the marker, keep columns.
    size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i < l.size() && l[i] == '!') { skip = i + 1; return true; }
    for (const char* m : {"%pip ", "%conda ", "%mamba ", "%uv ", "%sh ", "%system "}) {
      if (l.substr(i, std::strlen(m)) == m) {
        // %pip and %conda keep their command name; %sh / %system do not
        bool keep = std::strcmp(m, "%sh ") != 0 && std::strcmp(m, "%system ") != 0;
        skip = keep ? i + 1 : i + std::strlen(m);
        return true;
      }
    }
    return false;
  }

  void run_shell(std::string text, const std::vector<SourceFile::LineMapEntry>& map) {
    SourceFile view(src_.path(), std::move(text));
    view.set_line_map(map);
    ParseDiag d;
    parse_shell(view, {}, -1, CommandContext::Notebook, out_, d);
    for (auto& n : d.notes) diag_.notes.push_back(std::move(n));
  }

  void split_cell(const std::string& text, const std::vector<SourceFile::LineMapEntry>& map, bool python) {
    std::vector<std::string_view> lines;
    {
      size_t b = 0;
      while (true) {
        size_t nl = text.find('\n', b);
        lines.push_back(std::string_view(text).substr(b, nl == std::string::npos ? std::string::npos : nl - b));
        if (nl == std::string::npos) break;
        b = nl + 1;
      }
    }
    auto blank = [](std::string_view l) { return std::string(l.size(), ' '); };
    auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (size_t i = 0; i < v.size(); ++i) { if (i) s += '\n'; s += v[i]; }
      return s;
    };
    // Cell magics decide what the whole cell is.
    std::string first = trim(lines[0]);
    if (starts_with(first, "%%")) {
      std::vector<std::string> body;
      body.push_back(blank(lines[0]));
      for (size_t i = 1; i < lines.size(); ++i) body.emplace_back(lines[i]);
      std::string magic = first.substr(2, first.find_first_of(" \t") == std::string::npos
                                              ? std::string::npos
                                              : first.find_first_of(" \t") - 2);
      std::string arg = trim(first.substr(std::min(first.size(), 2 + magic.size())));
      bool shell = magic == "bash" || magic == "sh" ||
                   (magic == "script" && (starts_with(arg, "bash") || starts_with(arg, "sh")));
      bool py = magic == "capture" || magic == "time" || magic == "timeit" || magic == "prun";
      if (magic == "writefile") {
        std::string target = lower(arg);
        shell = ends_with(target, ".sh");
        py = ends_with(target, ".py");
      }
      if (shell) return run_shell(join(body), map);
      if (!py) return;
      if (magic == "writefile") {  // the file's text: no IPython syntax in it
        if (python) run_python(join(body), map);
        return;
      }
      // %%capture / %%time: the rest of the cell is ordinary IPython code
    }
    std::vector<std::string> py_lines;
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view l = lines[i];
      if (i == 0 && starts_with(first, "%%")) {
        py_lines.push_back(blank(l));
        continue;
      }
      size_t skip = 0;
      // a line ending in a backslash continues on the next one (`!pip install \`)
      auto continued = [&](size_t k) { return k + 1 < lines.size() && ends_with(trim(lines[k]), "\\"); };
      if (shell_magic(l, skip)) {
        std::string sh = blank(l.substr(0, skip)) + std::string(l.substr(skip));
        std::vector<SourceFile::LineMapEntry> m = {map[i]};
        py_lines.push_back(blank(l));
        while (continued(i)) {
          ++i;
          sh += "\n" + std::string(lines[i]);
          m.push_back(map[i]);
          py_lines.push_back(blank(lines[i]));
        }
        run_shell(sh, m);
        continue;
      }
      std::string t = trim(l);
      // other line magics (%matplotlib, %env...), `x = !cmd` and `obj?` help lines
      bool ipython = starts_with(t, "%") || (!t.empty() && t.back() == '?' && t.find('#') == std::string::npos);
      size_t eq = t.find('=');
      if (eq != std::string::npos && eq + 1 < t.size()) {
        std::string rhs = trim(t.substr(eq + 1));
        if (starts_with(rhs, "!") || starts_with(rhs, "%")) ipython = true;
      }
      py_lines.push_back(ipython ? blank(l) : std::string(l));
      while (ipython && continued(i)) py_lines.push_back(blank(lines[++i]));
    }
    if (python) run_python(join(py_lines), map);
  }

  void run_python(std::string text, const std::vector<SourceFile::LineMapEntry>& map) {
    SourceFile view(src_.path(), std::move(text));
    view.set_line_map(map);
    parse_python(view, out_.python, diag_);
  }
};

class NotebookParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Notebook; }
  int priority() const override { return 5; }
  bool accepts(const FileInfo& f) const override { return ends_with(lower(f.name), ".ipynb"); }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Notebook;
    const std::string& file = src.text();
    if (ts::refuse_deep(src, file, diag)) return;
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(file);
    } catch (const nlohmann::json::parse_error& e) {
      size_t at = e.byte > 0 ? std::min<size_t>(e.byte - 1, file.size()) : 0;
      std::string what = e.what();
      if (size_t k = what.find("syntax error"); k != std::string::npos) what = what.substr(k);
      diag.error(src.path(), src.range(at, at), "notebook is not valid JSON (" + what + "); not checked",
                 "parse-error");
      return;
    } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range (1e400)
      diag.error(src.path(), {}, std::string("notebook JSON not read (") + e.what() + "); not checked", "parse-error");
      return;
    }
    if (!doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) {
      diag.warn(src.path(), {}, "notebook has no `cells` list (nbformat 4 expected); not checked",
                "parse-error");
      return;
    }
    // Non-Python kernels (R, Julia...): their code cells are not Python.
    bool python = true;
    if (doc.contains("metadata") && doc["metadata"].is_object()) {
      const auto& md = doc["metadata"];
      std::string lang;
      if (md.contains("kernelspec") && md["kernelspec"].is_object() && md["kernelspec"].contains("language") &&
          md["kernelspec"]["language"].is_string())
        lang = md["kernelspec"]["language"].get<std::string>();
      else if (md.contains("language_info") && md["language_info"].is_object() &&
               md["language_info"].contains("name") && md["language_info"]["name"].is_string())
        lang = md["language_info"]["name"].get<std::string>();
      if (!lang.empty() && lower(lang) != "python" && lower(lang) != "python3") python = false;
    }
    ts::ParserPtr parser(ts_parser_new());
    if (!ts_parser_set_language(parser.get(), tree_sitter_json())) {
      diag.error(src.path(), {}, "internal: tree-sitter-json grammar rejected by the tree-sitter library",
                 "internal-error");
      return;
    }
    ts::TreePtr tree(
        ts_parser_parse_string(parser.get(), nullptr, file.data(), static_cast<uint32_t>(file.size())));
    if (!tree) return;
    TSNode root = ts_tree_root_node(tree.get());
    TSNode obj = ts_node_named_child_count(root) ? ts_node_named_child(root, 0) : TSNode{};
    TSNode cells = member(file, obj, "cells");
    if (!is(cells, "array")) return;
    NotebookReader reader(src, out, diag);
    for (uint32_t i = 0; i < ts_node_named_child_count(cells); ++i) {
      TSNode c = ts_node_named_child(cells, i);
      TSNode type = member(file, c, "cell_type");
      if (!is(type, "string")) continue;
      Decoded t;
      decode_string_node(file, type, t);
      if (t.text != "code") continue;
      reader.cell(member(file, c, "source"), python);
    }
  }
};

}  // namespace

SPARKCHECK_PARSER(NotebookParser);

}  // namespace sc

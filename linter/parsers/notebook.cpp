// SPDX-License-Identifier: Apache-2.0
// Jupyter notebooks (.ipynb, nbformat 4): code cells are parsed as Python,
// `!cmd` / `%pip` / `%%bash` lines as shell. Each cell becomes a view of the
// .ipynb whose line map points every cell line at the JSON string holding it,
// so findings land on the right line of the notebook file.
#include <cctype>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>
#include <utility>

#include "parsers/json_quick.h"
#include "parsers/python.h"
#include "parsers/shell.h"
#include "parsers/ts_util.h"

namespace sc {
namespace {


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

// ---- a byte scanner over JSON that nlohmann's SAX pass has already validated ----
// No tree and no DOM: outputs (base64 images) are skipped by bracket counting.
struct Span {
  size_t b = 0, e = 0;  // [b, e) in the file
  char type = 0;        // '{', '[', '"', or 'v' for any other scalar; 0 when absent
};

size_t skip_ws(const std::string& s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  return i;
}

// `i` at an opening quote: the offset just past the closing one (a quote after an even
// run of backslashes). memchr jumps over long strings such as base64 images.
size_t skip_string(const std::string& s, size_t i) {
  const char* base = s.data();
  for (++i; i < s.size();) {
    const void* q = std::memchr(base + i, '"', s.size() - i);
    if (!q) break;
    size_t at = static_cast<size_t>(static_cast<const char*>(q) - base);
    size_t bs = 0;
    while (at - bs > i && base[at - bs - 1] == '\\') ++bs;
    if (bs % 2 == 0) return at + 1;
    i = at + 1;
  }
  return s.size();
}

Span value_at(const std::string& s, size_t i) {
  i = skip_ws(s, i);
  if (i >= s.size()) return {};
  char c = s[i];
  if (c == '"') return {i, skip_string(s, i), '"'};
  if (c == '{' || c == '[') {
    int depth = 0;
    for (size_t j = i; j < s.size(); ++j) {
      char x = s[j];
      if (x == '"') j = skip_string(s, j) - 1;
      else if (x == '{' || x == '[') ++depth;
      else if ((x == '}' || x == ']') && --depth == 0) return {i, j + 1, c};
    }
    return {i, s.size(), c};
  }
  size_t j = i;
  while (j < s.size() && s[j] != ',' && s[j] != '}' && s[j] != ']' && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
  return {i, j, 'v'};
}

// Calls f(key span, value span) for each member of an object, or f(value span) for each
// element of an array, in order; f returns false to stop.
template <class F>
void each_item(const std::string& s, Span c, F&& f) {
  size_t i = skip_ws(s, c.b + 1);
  while (i < c.e - 1) {
    Span key{}, v{};
    if (c.type == '{') {
      key = value_at(s, i);
      i = skip_ws(s, key.e) + 1;  // past ':'
    }
    v = value_at(s, i);
    bool more;
    if constexpr (std::is_invocable_v<F, Span, Span>) more = f(key, v);
    else more = f(v);
    if (!more) return;
    i = skip_ws(s, skip_ws(s, v.e) + 1);  // past ','
  }
}

// The first member of object `obj` whose key is written exactly `key`.
Span member(const std::string& file, Span obj, std::string_view key) {
  Span found{};
  if (obj.type != '{') return found;
  each_item(file, obj, [&](Span k, Span v) {
    if (std::string_view(file).substr(k.b + 1, k.e - k.b - 2) == key) found = v;
    return found.type == 0;
  });
  return found;
}

// The first members of object `obj` named `a` and `b`, in one pass over it.
std::pair<Span, Span> members(const std::string& file, Span obj, std::string_view a, std::string_view b) {
  std::pair<Span, Span> found{};
  if (obj.type != '{') return found;
  each_item(file, obj, [&](Span k, Span v) {
    std::string_view key = std::string_view(file).substr(k.b + 1, k.e - k.b - 2);
    if (key == a && found.first.type == 0) found.first = v;
    if (key == b && found.second.type == 0) found.second = v;
    return found.first.type == 0 || found.second.type == 0;
  });
  return found;
}

void decode_string(const std::string& file, Span s, Decoded& d) {
  if (s.type == '"' && s.e >= s.b + 2) decode_into(file, s.b + 1, s.e - 1, d);
}

// nlohmann SAX pass: validates the whole file and reads what the cells need (the
// top-level shape and the kernel language) without building a document.
struct NotebookShape : nlohmann::json_sax<nlohmann::json> {
  enum Role { Other, Top, Metadata, Kernelspec, LanguageInfo };
  std::vector<Role> stack;  // one per open container
  std::string key_;         // the key of the value that comes next
  bool top_object = false, cells_array = false;
  std::optional<std::string> ks_language, li_name;
  std::string error;        // what nlohmann reported
  size_t error_byte = 0;
  bool syntax = false;      // a JSON syntax error (else e.g. a number out of range)

  // A value starts in the current container under `key_`: the role of the container it
  // opens (Other for scalars). A repeated key replaces what the earlier one set, as in a DOM.
  Role value(bool object, bool array, const std::string* str) {
    if (stack.empty()) {
      top_object = object;
      return object ? Top : Other;
    }
    Role in = stack.back();
    if (in == Top && key_ == "cells") cells_array = array;
    if (in == Top && key_ == "metadata") {
      ks_language.reset();
      li_name.reset();
      return object ? Metadata : Other;
    }
    if (in == Metadata) return metadata_member(object);
    auto text = str ? std::optional(*str) : std::nullopt;
    if (in == Kernelspec && key_ == "language") ks_language = text;
    if (in == LanguageInfo && key_ == "name") li_name = text;
    return Other;
  }
  Role metadata_member(bool object) {
    if (key_ == "kernelspec") {
      ks_language.reset();
      return object ? Kernelspec : Other;
    }
    if (key_ == "language_info") {
      li_name.reset();
      return object ? LanguageInfo : Other;
    }
    return Other;
  }
  bool null() override { value(false, false, nullptr); return true; }
  bool boolean(bool) override { return null(); }
  bool number_integer(number_integer_t) override { return null(); }
  bool number_unsigned(number_unsigned_t) override { return null(); }
  bool number_float(number_float_t, const string_t&) override { return null(); }
  bool string(string_t& v) override { value(false, false, &v); return true; }
  bool binary(binary_t&) override { return null(); }
  bool start_object(std::size_t) override { stack.push_back(value(true, false, nullptr)); return true; }
  bool key(string_t& k) override { key_ = k; return true; }
  bool end_object() override { stack.pop_back(); return true; }
  bool start_array(std::size_t) override { value(false, true, nullptr); stack.push_back(Other); return true; }
  bool end_array() override { stack.pop_back(); return true; }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override {
    const auto* pe = dynamic_cast<const nlohmann::detail::parse_error*>(&e);
    syntax = pe != nullptr;
    error = e.what();
    error_byte = pe ? pe->byte : byte;
    return false;
  }
  std::string language() const { return ks_language ? *ks_language : li_name ? *li_name : std::string(); }
  // json_quick::check decodes a string value only where value() reads it.
  bool wants_string() const { return !stack.empty() && (stack.back() == Kernelspec || stack.back() == LanguageInfo); }
};

// The shape of a notebook: the quick check when it is sure the JSON is valid, else
// nlohmann's SAX pass, which also words the error. False on invalid JSON.
bool read_shape(const std::string& file, NotebookShape& shape) {
  if (json_quick::check(file, shape)) return true;
  shape = NotebookShape();
  return nlohmann::json::sax_parse(file, &shape);
}

struct CellLines {
  std::vector<std::string_view> lines;           // cell text split at '\n'
  std::vector<SourceFile::LineMapEntry> map;     // one entry per line
};

class NotebookReader {
 public:
  NotebookReader(const SourceFile& src, FileFacts& out, ParseDiag& diag)
      : src_(src), file_(src.text()), out_(out), diag_(diag) {}

  void cell(Span source, bool python) {
    Decoded d;
    std::vector<SourceFile::LineMapEntry> map;
    if (decode_cell(source, d, map)) split_cell(d.text, map, python);
  }

  // A Markdown cell's headings (`## Google Colab setup`) open sections, as in a Markdown file.
  void markdown_cell(Span source) {
    Decoded d;
    std::vector<SourceFile::LineMapEntry> map;
    if (!decode_cell(source, d, map)) return;
    size_t b = 0;
    for (const SourceFile::LineMapEntry& at : map) {
      size_t nl = d.text.find('\n', b);
      std::string_view l = std::string_view(d.text).substr(b, nl == std::string::npos ? std::string::npos : nl - b);
      b = nl == std::string::npos ? d.text.size() : nl + 1;
      size_t lead = l.find_first_not_of(' ');
      if (lead == std::string_view::npos || lead > 3) continue;
      size_t level = l.find_first_not_of('#', lead) - lead;
      if (level == 0 || level > 6 || lead + level >= l.size() || l[lead + level] != ' ') continue;
      std::string title = trim(l.substr(lead + level));
      while (!title.empty() && title.back() == '#') title.pop_back();
      out_.sections.push_back({at.line, static_cast<int>(level), trim(title).substr(0, 200)});
    }
  }

 private:
  // The cell's text and one map entry per cell line (the file position of its first byte).
  bool decode_cell(Span source, Decoded& d, std::vector<SourceFile::LineMapEntry>& map) {
    if (source.type == '[') {
      each_item(file_, source, [&](Span s) {
        decode_string(file_, s, d);
        return true;
      });
    } else if (source.type == '"') {
      decode_string(file_, source, d);
    } else {
      return false;
    }
    if (d.text.empty()) return false;
    size_t start = 0;
    while (true) {
      size_t off = start < d.from.size() ? d.from[start] : d.end;
      int line = src_.line_of(off);
      map.push_back({line, off - src_.line_start(line), src_.line(line)});
      size_t nl = d.text.find('\n', start);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    return true;
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

  // A code cell's Python waits for finish(): the cells are judged together.
  void run_python(std::string text, const std::vector<SourceFile::LineMapEntry>& map) {
    pending_.push_back({std::move(text), map});
  }

 public:
  // Parses the code cells' Python, all of it when the prefilter wants any of it (an import in
  // one cell and the call it names in another go together), none otherwise.
  void finish() {
    if (diag_.python_wanted) {
      std::string all;
      for (const PythonCell& c : pending_) all += c.text + '\n';
      if (!diag_.python_wanted(all)) return pending_.clear();
    }
    for (PythonCell& c : pending_) {
      SourceFile view(src_.path(), std::move(c.text));
      view.set_line_map(c.map);
      parse_python(view, out_.python, diag_);
    }
    pending_.clear();
  }

 private:
  struct PythonCell {
    std::string text;
    std::vector<SourceFile::LineMapEntry> map;
  };
  std::vector<PythonCell> pending_;
};

class NotebookParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Notebook; }
  int priority() const override { return 5; }
  bool accepts(const FileInfo& f) const override { return ends_with(lower(f.name), ".ipynb"); }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Notebook;
    const std::string& file = src.text();
    if (ts::refuse_deep(src, file, diag, 0, true)) return;
    NotebookShape shape;
    if (!read_shape(file, shape)) {
      if (!shape.syntax) {  // e.g. a number out of range (1e400)
        diag.error(src.path(), {}, "notebook JSON not read (" + shape.error + "); not checked", "parse-error");
        return;
      }
      size_t at = shape.error_byte > 0 ? std::min<size_t>(shape.error_byte - 1, file.size()) : 0;
      std::string what = shape.error;
      if (size_t k = what.find("syntax error"); k != std::string::npos) what = what.substr(k);
      diag.error(src.path(), src.range(at, at), "notebook is not valid JSON (" + what + "); not checked",
                 "parse-error");
      return;
    }
    if (!shape.top_object || !shape.cells_array) {
      diag.warn(src.path(), {}, "notebook has no `cells` list (nbformat 4 expected); not checked",
                "parse-error");
      return;
    }
    // Non-Python kernels (R, Julia...): their code cells are not Python.
    std::string lang = lower(shape.language());
    bool python = lang.empty() || lang == "python" || lang == "python3";
    Span cells = member(file, value_at(file, 0), "cells");
    if (cells.type != '[') return;
    NotebookReader reader(src, out, diag);
    each_item(file, cells, [&](Span c) {
      auto [type, source] = members(file, c, "cell_type", "source");
      Decoded t;
      decode_string(file, type, t);
      if (type.type == '"' && t.text == "code") reader.cell(source, python);
      if (type.type == '"' && t.text == "markdown") reader.markdown_cell(source);
      return true;
    });
    reader.finish();
  }
};

}  // namespace

SPARKCHECK_PARSER(NotebookParser);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Shell layer (see shell.h): tree-sitter-bash -> Command / EnvSetting facts.
#include "parsers/shell.h"
#include "core/path_names.h"

#include "parsers/embedded.h"
#include "parsers/ts_util.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" const TSLanguage* tree_sitter_bash(void);

namespace sc {

// ---------------------------------------------------------------------------
// Word expansion
// ---------------------------------------------------------------------------
namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Index just past the closing delimiter that balances an opening one that
// ends right before `i`; quotes inside are skipped. Returns s.size() if none.
size_t skip_balanced(std::string_view s, size_t i, char open, char close) {
  int depth = 1;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\') { i += 2; continue; }
    if (c == '\'') {
      size_t e = s.find('\'', i + 1);
      i = e == std::string_view::npos ? s.size() : e + 1;
      continue;
    }
    if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
      ++i;
      continue;
    }
    if (c == open) ++depth;
    else if (c == close && --depth == 0) return i + 1;
    ++i;
  }
  return s.size();
}

class Expander {
 public:
  // `partial`: variables whose assigned value was itself unresolved ("$DIR/bin/pip"): their text,
  // expanded as far as it goes, still unresolved (a program's name can be read from it).
  explicit Expander(const std::map<std::string, std::string>& vars,
                    const std::map<std::string, std::string>* partial = nullptr)
      : vars_(vars), partial_(partial) {}

  Expanded run(std::string_view s) {
    Expanded r;
    size_t i = 0;
    while (i < s.size()) {
      char c = s[i];
      if (c == '\\') {
        if (i + 1 < s.size() && s[i + 1] != '\n') r.text += s[i + 1];
        i += 2;
      } else if (c == '\'') {
        size_t e = s.find('\'', i + 1);
        if (e == std::string_view::npos) e = s.size();
        r.text += s.substr(i + 1, e - i - 1);
        i = e + 1;
      } else if (c == '"') {
        i = double_quoted(s, i + 1, r);
      } else if (c == '$') {
        i = dollar(s, i, r, false);
      } else if (c == '`') {
        i = backtick(s, i, r);
      } else {
        r.text += c;
        ++i;
      }
    }
    return r;
  }

 private:
  const std::map<std::string, std::string>& vars_;
  const std::map<std::string, std::string>* partial_;

  // An unresolved variable's partial text, when it has one.
  bool partial_value(const std::string& name, Expanded& r) const {
    if (!partial_) return false;
    auto it = partial_->find(name);
    if (it == partial_->end()) return false;
    r.text += it->second;
    r.resolved = false;
    return true;
  }

  size_t double_quoted(std::string_view s, size_t i, Expanded& r) {
    while (i < s.size() && s[i] != '"') {
      char c = s[i];
      if (c == '\\' && i + 1 < s.size()) {
        char n = s[i + 1];
        if (n == '$' || n == '`' || n == '"' || n == '\\') r.text += n;
        else if (n != '\n') { r.text += c; r.text += n; }
        i += 2;
      } else if (c == '$') {
        i = dollar(s, i, r, true);
      } else if (c == '`') {
        i = backtick(s, i, r);
      } else {
        r.text += c;
        ++i;
      }
    }
    return i + 1;
  }

  size_t backtick(std::string_view s, size_t i, Expanded& r) {
    size_t e = i + 1;
    while (e < s.size() && s[e] != '`') e += s[e] == '\\' ? 2 : 1;
    e = std::min(e + 1, s.size());
    r.text += s.substr(i, e - i);
    r.resolved = false;
    return e;
  }

  static char ansi_escape(char n) {
    switch (n) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'a': return '\a';
      case 'b': return '\b';
      case 'e': return '\x1b';
      case 'v': return '\v';
      case 'f': return '\f';
      default: return n;
    }
  }

  // `s[i] == '$'`; returns the index after the expansion.
  size_t dollar(std::string_view s, size_t i, Expanded& r, bool in_dq) {
    if (i + 1 >= s.size()) { r.text += '$'; return i + 1; }
    char n = s[i + 1];
    if (n == '\'' && !in_dq) {  // $'...' ANSI-C quoting
      size_t j = i + 2;
      while (j < s.size() && s[j] != '\'') {
        if (s[j] == '\\' && j + 1 < s.size()) { r.text += ansi_escape(s[j + 1]); j += 2; }
        else r.text += s[j++];
      }
      return j + 1;
    }
    if (n == '"' && !in_dq) return double_quoted(s, i + 2, r);  // $"..." locale string
    if (n == '(') {  // $(...) or $((...))
      size_t e = skip_balanced(s, i + 2, '(', ')');
      r.text += s.substr(i, e - i);
      r.resolved = false;
      return e;
    }
    if (n == '{') {
      size_t e = skip_balanced(s, i + 2, '{', '}');
      std::string_view body = s.substr(i + 2, (e > i + 2 ? e - 1 : e) - (i + 2));
      if (!param(body, r)) {
        r.text += s.substr(i, e - i);
        r.resolved = false;
      }
      return e;
    }
    if (name_start(n)) {
      size_t j = i + 1;
      while (j < s.size() && name_char(s[j])) ++j;
      std::string name(s.substr(i + 1, j - i - 1));
      auto it = vars_.find(name);
      if (it != vars_.end()) {
        r.text += it->second;
      } else if (!partial_value(name, r)) {
        r.text += s.substr(i, j - i);
        r.resolved = false;
      }
      return j;
    }
    if (auto it = vars_.find(std::string(1, n)); std::isdigit(static_cast<unsigned char>(n)) && it != vars_.end()) {
      r.text += it->second;  // a `bash -c` script's $1..$9, set from the words after it
      return i + 2;
    }
    if (std::isdigit(static_cast<unsigned char>(n)) || std::strchr("@*#?$!-", n)) {
      r.text += s.substr(i, 2);  // positional and special parameters
      r.resolved = false;
      return i + 2;
    }
    r.text += '$';
    return i + 1;
  }

  // Body of ${...}. Returns false when it cannot be resolved.
  bool param(std::string_view body, Expanded& r) {
    if (body.empty()) return false;
    if (body.size() == 1 && std::isdigit(static_cast<unsigned char>(body[0]))) {  // ${1} of a `bash -c` script
      auto it = vars_.find(std::string(body));
      if (it == vars_.end()) return false;
      r.text += it->second;
      return true;
    }
    if (body[0] == '#' && body.size() > 1) {  // ${#X}
      auto it = vars_.find(std::string(body.substr(1)));
      if (it == vars_.end()) return false;
      r.text += std::to_string(it->second.size());
      return true;
    }
    if (!name_start(body[0])) return false;
    size_t j = 0;
    while (j < body.size() && name_char(body[j])) ++j;
    std::string name(body.substr(0, j));
    std::string_view rest = body.substr(j);
    if (rest == "[@]" || rest == "[*]") rest = {};  // whole array (kept space-joined)
    auto it = vars_.find(name);
    if (rest.empty()) {
      if (it == vars_.end()) return partial_value(name, r);
      r.text += it->second;
      return true;
    }
    bool colon = rest[0] == ':';
    std::string_view op = rest.substr(colon ? 1 : 0, 1);
    if (op.empty()) return false;
    std::string_view word = rest.substr(colon ? 2 : 1);
    bool set = it != vars_.end() && (!colon || !it->second.empty());
    if (op == "-" || op == "=") {
      // An unknown variable with a default is taken as unset: the default applies.
      // An empty default (`${X:-}`) only says "X may come from the environment": unknown.
      if (set) { r.text += it->second; return true; }
      if (word.empty() && it == vars_.end()) return false;
      Expanded d = run(word);
      r.text += d.text;
      r.resolved = r.resolved && d.resolved;
      return true;
    }
    if (op == "+") {
      if (it == vars_.end()) return false;
      if (set) {
        Expanded d = run(word);
        r.text += d.text;
        r.resolved = r.resolved && d.resolved;
      }
      return true;
    }
    return false;  // substrings, pattern removal, case changes...
  }
};

}  // namespace

Expanded expand_word(std::string_view raw, const std::map<std::string, std::string>& vars,
                     const std::map<std::string, std::string>* partial) {
  if (raw.size() > kMaxWordBytes) return {std::string(raw.substr(0, kMaxWordBytes)), false};
  Expanded e = Expander(vars, partial).run(raw);
  if (e.text.size() > kMaxWordBytes) {  // X=$X$X doubling: keep memory bounded
    e.text.resize(kMaxWordBytes);
    e.resolved = false;
  }
  return e;
}

// ---------------------------------------------------------------------------
// Shebang
// ---------------------------------------------------------------------------
std::string shebang_interpreter(std::string_view head) {
  if (head.size() >= 3 && static_cast<unsigned char>(head[0]) == 0xEF &&
      static_cast<unsigned char>(head[1]) == 0xBB && static_cast<unsigned char>(head[2]) == 0xBF)
    head.remove_prefix(3);
  if (!starts_with(head, "#!")) return {};
  std::string_view line = head.substr(2, head.find('\n') == std::string_view::npos
                                             ? std::string_view::npos
                                             : head.find('\n') - 2);
  std::vector<std::string> toks;
  for (auto& t : split(trim(line), ' '))
    if (!t.empty()) toks.push_back(trim(t));
  if (toks.empty()) return {};
  std::string prog = base_name(toks[0]);
  if (prog == "env") {  // #!/usr/bin/env [-S] [VAR=x] prog
    for (size_t k = 1; k < toks.size(); ++k) {
      if (toks[k][0] == '-' || toks[k].find('=') != std::string::npos) continue;
      return base_name(toks[k]);
    }
    return {};
  }
  return prog;
}

std::optional<std::string> script_dir(std::string_view raw) {
  std::string t = trim(raw);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  int up = 0;
  for (; ends_with(t, "/.."); ++up) t.resize(t.size() - 3);
  bool substitution = (starts_with(t, "$(") && ends_with(t, ")")) || (t.size() > 1 && t.front() == '`' && t.back() == '`');
  bool own_path = t.find("BASH_SOURCE") != std::string::npos || t.find("$0") != std::string::npos ||
                  t.find("${0}") != std::string::npos;
  if (!substitution || !own_path || t.find("dirname") == std::string::npos) return std::nullopt;
  for (size_t k; (k = t.find("/dev/null")) != std::string::npos;) t.erase(k, 9);
  for (size_t k; (k = t.find("/..")) != std::string::npos; ++up) t.erase(k, 3);
  if (t.find('/') != std::string::npos || up > 8) return std::nullopt;  // another folder: not followed
  std::string dir = ".";
  for (int i = 0; i < up; ++i) dir = i ? dir + "/.." : "..";
  return dir;
}

std::string without_template_suffix(std::string n) {
  for (const char* suffix : kSettingsTemplateSuffixes)
    if (ends_with(n, suffix) && n.size() > std::strlen(suffix)) {
      n.resize(n.size() - std::strlen(suffix));
      break;
    }
  return n;
}

bool shell_shebang(std::string_view head) {
  std::string p = shebang_interpreter(head);
  return p == "sh" || p == "bash" || p == "zsh" || p == "dash" || p == "ksh";
}

// ---------------------------------------------------------------------------
// Tree walk
// ---------------------------------------------------------------------------
namespace {

using ts::is;
using ts::ParserPtr;
using ts::TreePtr;

class Walker {
 public:
  Walker(const SourceFile& src, std::map<std::string, std::string> vars, int stage,
         CommandContext context, FileFacts& out, ParseDiag& diag, const SourcedFiles* sourced = nullptr)
      : src_(src), text_(src.text()), vars_(std::move(vars)), stage_(stage), context_(context),
        out_(out), diag_(diag), sourced_(sourced) {}

  // The variables as the walk left them (shell_env).
  ShellEnv env() const {
    ShellEnv e;
    e.vars = vars_;
    for (const auto& [name, words] : pieces_)
      if (words.size() >= 2) e.words[name] = words;
    for (const EnvSetting& s : out_.env) e.written[s.name] = s.loc;
    e.path = src_.path();
    return e;
  }

  // Parse bytes [begin, end) of the source (the whole file, or the inside of a
  // `bash -c '...'` string) and walk it.
  void parse(size_t begin, size_t end, TSPoint pbegin, TSPoint pend, int depth) {
    if (ts::refuse_deep(src_, std::string_view(text_).substr(begin, end - begin), diag_, begin)) return;
    if (size_t e = end_before_continuation(text_, begin, end); e != end) {
      end = e;
      pend = point_at(text_, e);
    }
    if (begin != 0 || end != text_.size())
      return parse_ranges({TSRange{pbegin, pend, static_cast<uint32_t>(begin), static_cast<uint32_t>(end)}}, depth);
    parse_ranges({}, depth);
  }

  // Parses the parts of text_ in `ranges` (ascending) as one script; all of text_ when empty.
  void parse_ranges(const std::vector<TSRange>& ranges, int depth) {
    ParserPtr parser = ts::new_parser();
    if (!ts_parser_set_language(parser.get(), tree_sitter_bash())) {
      diag_.error(src_.path(), {}, "internal: tree-sitter-bash grammar rejected by the tree-sitter library",
                  "internal-error");
      return;
    }
    if (!ranges.empty()) ts_parser_set_included_ranges(parser.get(), ranges.data(), static_cast<uint32_t>(ranges.size()));
    TreePtr tree = ts::parse(parser.get(), text_);
    if (!tree) return;
    auto outer_ranges = std::exchange(ranges_, ranges);
    TSNode root = ts_tree_root_node(tree.get());
    if (ts_node_has_error(root)) report_error(root, depth > 0);
    depth_ = depth;
    auto outer_functions = functions_;  // this tree's nodes die with it
    walk(root);
    functions_ = std::move(outer_functions);
    ranges_ = std::move(outer_ranges);
  }

 private:
  const SourceFile& src_;
  const std::string& text_;
  std::vector<TSRange> ranges_;  // the included ranges of a parse of several (quoted_pieces)
  mutable std::deque<std::string> joined_;  // joined() texts (stable addresses)
  mutable size_t joined_bytes_ = 0;
  std::map<std::string, std::string> vars_;
  std::map<std::string, std::string> partial_;  // unresolved values as far as they expand (Expander)
  // Per if/case statement being walked (innermost last): the values its arms give each variable.
  // Arms that disagree (`if GPU; then URL=cu130; else URL=cu121; fi`) leave it unknown after.
  // A value starting with \x01 was unresolved (its partial text follows).
  std::vector<std::map<std::string, std::vector<std::string>>> arm_values_;
  int stage_;
  CommandContext context_;
  FileFacts& out_;
  ParseDiag& diag_;
  const SourcedFiles* sourced_;
  std::map<std::string, std::pair<Location, std::string>> from_sourced_;  // var -> (assignment, file)
  int depth_ = 0;
  bool seen_command_ = false;  // Slurm stops reading #SBATCH at the first command
  // A variable's value as the words it splits into, each where it is written; kept also
  // when some words are unknown (`CMD="vllm serve $MODEL --tp 2"`), so `$CMD` keeps its flags.
  using Piece = ShellValue;
  std::map<std::string, std::vector<Piece>> pieces_;
  static constexpr size_t kMaxPieces = 512;  // words kept per variable (bounded memory)
  // The case item or if/elif/else branch being walked (its start byte + 1; 0 outside any): each
  // branch's `ARGS=( ... )` is a launch layout of its own (`case "$PROFILE"` presets).
  uint32_t branch_ = 0;
  std::map<std::string, size_t> arg_list_of_;  // "var@branch" -> its entry in out_.arg_lists
  size_t arg_list_words_ = 0;
  static constexpr size_t kMaxArgListWords = 65536;  // per file

  std::string_view raw(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (ranges_.size() > 1) return joined(b, e);
    return std::string_view(text_).substr(b, e - b);
  }
  // The bytes [b, e) of the included ranges of this parse, without the gaps between them (a
  // word of `'a'\''b'` is a'b); kept until the walker ends, within a bound.
  std::string_view joined(uint32_t b, uint32_t e) const {
    for (const TSRange& r : ranges_)
      if (r.start_byte <= b && e <= r.end_byte) return std::string_view(text_).substr(b, e - b);
    std::string s;
    for (const TSRange& r : ranges_)
      if (r.end_byte > b && r.start_byte < e)
        s.append(text_, std::max(b, r.start_byte), std::min(e, r.end_byte) - std::max(b, r.start_byte));
    if (joined_bytes_ + s.size() > 4 * text_.size() + 4096) return std::string_view(text_).substr(b, e - b);
    joined_bytes_ += s.size();
    return joined_.emplace_back(std::move(s));
  }
  Location loc(TSNode n) const { return src_.loc(ts_node_start_byte(n), ts_node_end_byte(n)); }

  // bash runs a script that ends in a line continuation (`echo a \` and then only blank
  // lines: a folded compose `bash -c "` block); tree-sitter-bash rejects it. Such a range
  // ends at the backslash; any other range keeps `end`.
  static size_t end_before_continuation(std::string_view t, size_t begin, size_t end) {
    size_t e = end;
    while (e > begin && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\n' || t[e - 1] == '\r')) --e;
    if (e == end || e == begin || t[e - 1] != '\\') return end;
    if (t[e] != '\n' && !(t[e] == '\r' && e + 1 < end && t[e + 1] == '\n')) return end;
    size_t k = e - 1;
    while (k > begin && t[k - 1] == '\\') --k;
    return (e - k) % 2 == 1 ? e - 1 : end;  // `\\` at the end is an escaped backslash
  }
  // The row and byte column of offset `at` in `t`.
  static TSPoint point_at(std::string_view t, size_t at) {
    size_t line_start = t.rfind('\n', at == 0 ? 0 : at - 1);
    line_start = line_start == std::string_view::npos || at == 0 ? 0 : line_start + 1;
    uint32_t row = static_cast<uint32_t>(std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    return TSPoint{row, static_cast<uint32_t>(at - line_start)};
  }

  void report_error(TSNode root, bool nested) {
    TSNode bad;
    std::string what = ts::describe_error(root, bad);
    diag_.warn(src_.path(), loc(bad).range,
               std::string(nested ? "shell syntax not read inside `bash -c` string: " : "shell syntax not read: ") + what +
                   " (a syntax error, or bash syntax sparkcheck's parser does not know, such as `10#$x`; the rest "
                   "of the script is still checked)",
               "shell-syntax");
  }

  Word word(TSNode n) const {
    Word w;
    w.raw = std::string(raw(n).substr(0, kMaxWordBytes));  // nested $(...) words hold their whole body
    Expanded e = expand_word(w.raw, vars_, &partial_);
    w.text = std::move(e.text);
    w.resolved = e.resolved;
    w.loc = loc(n);
    return w;
  }

  // A value that is not an array, expanded (or the script's own folder: script_dir) into `e`;
  // whether it could be resolved.
  bool plain_value(TSNode value, EnvSetting& e) {
    e.loc = loc(value);
    if (auto dir = script_dir(raw(value))) {
      e.value = *dir;
      return true;
    }
    Expanded x = expand_word(raw(value), vars_, &partial_);
    e.value = x.text;
    return x.resolved;
  }

  // `var` now holds `value` (resolved or, as partial text, not), in the arm being walked if any.
  void set_variable(const std::string& var, bool resolved, const std::string& value) {
    if (resolved) vars_[var] = value;
    else vars_.erase(var);
    if (resolved || value.size() > kMaxWordBytes) partial_.erase(var);
    else partial_[var] = value;
    if (!arm_values_.empty()) note_arm_value(var, resolved ? value : "\x01" + value);
  }

  void assign(TSNode a, EnvOrigin origin) {
    TSNode name = ts_node_child_by_field_name(a, "name", 4);
    TSNode value = ts_node_child_by_field_name(a, "value", 5);
    if (ts_node_is_null(name)) return;
    std::string var(raw(name));
    if (!is(name, "variable_name")) {  // arr[i]=x: not tracked
      return;
    }
    bool append = false;
    ts::each_child(a, false, [&](TSNode ch) {
      if (is(ch, "+=")) append = true;
    });
    EnvSetting e;
    e.name = var;
    e.origin = origin;
    e.stage = stage_;
    bool resolved = true;
    if (is(value, "array")) {  // X=(a b c): elements joined by spaces
      ts::each_named_child(value, [&](TSNode el) {
        if (is(el, "comment")) return;
        Expanded x = expand_word(raw(el), vars_);
        if (!e.value.empty()) e.value += ' ';
        e.value += x.text;
        resolved = resolved && x.resolved;
      });
      e.loc = loc(value);
      if (append && !e.value.empty()) e.value = " " + e.value;
    } else if (!ts_node_is_null(value)) {
      resolved = plain_value(value, e);
    } else {
      e.loc = loc(a);
    }
    if (append) {
      auto it = vars_.find(var);
      if (it == vars_.end()) resolved = false;
      else e.value = it->second + e.value;
    }
    set_variable(var, resolved, e.value);
    record_pieces(var, value, append);
    if (calls_ > 0) return;  // a function's body: recorded where it is defined
    record_arg_list(var, a);
    out_.env.push_back(std::move(e));
  }

  // Split the raw text of a quoted or plain value at unquoted blanks; `$(...)`, `${...}`
  // and backquotes stay whole. Returns [begin, end) byte ranges within `r`.
  static std::vector<std::pair<size_t, size_t>> raw_tokens(std::string_view r) {
    std::vector<std::pair<size_t, size_t>> out;
    size_t i = 0;
    while (i < r.size()) {
      while (i < r.size() && std::isspace(static_cast<unsigned char>(r[i]))) ++i;
      size_t b = i;
      while (i < r.size() && !std::isspace(static_cast<unsigned char>(r[i]))) {
        if (r[i] == '\\') i += 2;
        else if (r[i] == '$' && i + 1 < r.size() && (r[i + 1] == '(' || r[i + 1] == '{'))
          i = skip_balanced(r, i + 2, r[i + 1], r[i + 1] == '(' ? ')' : '}');
        else if (r[i] == '`') {
          size_t close = r.find('`', i + 1);  // a lone backquote runs to the end
          i = close == std::string_view::npos ? r.size() : close + 1;
        }
        else ++i;
      }
      i = std::min(i, r.size());
      if (i > b) out.push_back({b, i});
    }
    return out;
  }

  // Pieces of one written token: a known value with blanks gives several words.
  void add_pieces(std::vector<Piece>& out, const Expanded& x, const Location& at) {
    if (!x.resolved) return out.push_back({x.text, false, at});
    for (auto& part : split_ws(x.text)) out.push_back({part, true, at});
  }

  // The words of the value node of an assignment, or nullopt when its form is not tracked.
  std::optional<std::vector<Piece>> value_pieces(TSNode value) {
    std::vector<Piece> out;
    if (is(value, "array")) {
      ts::each_named_child(value, [&](TSNode el) {
        if (is(el, "comment")) return;
        Expanded x = expand_word(raw(el), vars_);
        if (is(el, "string") || is(el, "raw_string")) out.push_back({x.text, x.resolved, loc(el)});  // ("A=b c"): one element
        else add_pieces(out, x, loc(el));
      });
      return out;
    }
    bool dq = is(value, "string"), sq = is(value, "raw_string");
    if (!dq && !sq && !is(value, "word")) return std::nullopt;
    std::string_view r = raw(value);
    size_t inner = (dq || sq) ? 1 : 0;
    if (r.size() < 2 * inner) return std::nullopt;
    r = r.substr(inner, r.size() - 2 * inner);
    size_t base = ts_node_start_byte(value) + inner;
    for (auto [b, e] : raw_tokens(r)) {
      std::string tok(r.substr(b, e - b));
      if (out.size() > kMaxPieces) return std::nullopt;  // X="$X $X" doubling: not tracked
      if (const std::vector<Piece>* held = dq ? held_pieces(tok) : nullptr) {  // "$CMD --more": CMD's words stay where written
        out.insert(out.end(), held->begin(), held->end());
        continue;
      }
      Expanded x = sq ? Expanded{tok, true} : expand_word(dq ? "\"" + tok + "\"" : tok, vars_);
      add_pieces(out, x, src_.loc(base + b, base + e));
    }
    return out;
  }

  // The words held by the variable a token names on its own ($CMD, ${CMD}), or null.
  const std::vector<Piece>* held_pieces(std::string_view tok) const {
    if (tok.size() < 2 || tok[0] != '$') return nullptr;
    std::string_view name = tok.substr(1);
    if (name.size() >= 2 && name.front() == '{' && name.back() == '}') name = name.substr(1, name.size() - 2);
    bool all_args = name == "@" || name == "*";  // a function's arguments
    for (char c : name)
      if (!name_char(c) && !all_args) return nullptr;
    auto it = pieces_.find(std::string(name));
    return it == pieces_.end() ? nullptr : &it->second;
  }

  // A variable now holding 2+ words with a `--flag` (`ARGS=(--tp 2 ...)`, `VLLM_ARGS="..."`) is an
  // argument list: its program is not known here. Appending replaces the variable's entry.
  void record_arg_list(const std::string& var, TSNode assignment) {
    auto held = pieces_.find(var);
    if (held == pieces_.end() || held->second.size() < 2 || arg_list_words_ >= kMaxArgListWords) return;
    const std::vector<Piece>& words = held->second;
    if (std::none_of(words.begin(), words.end(), [](const Piece& p) { return p.text.size() > 2 && starts_with(p.text, "--"); }))
      return;
    Command c;
    c.stage = stage_;
    c.context = context_;
    c.loc = loc(assignment);
    c.argv.push_back(Word{var, var, true, c.loc});
    for (const Piece& p : words) c.argv.push_back(Word{p.text, p.text, p.resolved, p.loc});
    arg_list_words_ += words.size();
    auto [at, fresh] = arg_list_of_.try_emplace(var + "@" + std::to_string(branch_), out_.arg_lists.size());
    if (fresh) out_.arg_lists.push_back(std::move(c));
    else out_.arg_lists.edit()[at->second] = std::move(c);
  }

  void record_pieces(const std::string& var, TSNode value, bool append) {
    std::optional<std::vector<Piece>> p;
    if (!ts_node_is_null(value)) p = value_pieces(value);
    auto old = pieces_.find(var);
    if (!p || (append && old == pieces_.end())) {
      pieces_.erase(var);
      return;
    }
    if (append && old->second.size() + p->size() > kMaxPieces) pieces_.erase(old);
    else if (append) old->second.insert(old->second.end(), p->begin(), p->end());
    else if (p->size() > kMaxPieces) pieces_.erase(var);
    else pieces_[var] = std::move(*p);
  }

  // `$CMD` / `${CMD}` / `"${CMD[@]}"` of a variable held as 2+ words: those words, each at
  // the place it is written, with this expansion recorded as where it is used.
  bool expand_pieces(TSNode n, Command& cmd, std::vector<TSNode>& nodes) {
    std::string tok(raw(n));
    if (tok.size() >= 2 && tok.front() == '"' && tok.back() == '"') tok = tok.substr(1, tok.size() - 2);
    for (const char* all : {"[@]}", "[*]}"})
      if (ends_with(tok, all)) tok = tok.substr(0, tok.size() - 4) + "}";
    const std::vector<Piece>* held = held_pieces(tok);  // $CMD / ${CMD}: not ${#CMD}, ${CMD:-x}
    if (!held) return false;
    std::string name = tok.substr(tok.size() > 1 && tok[1] == '{' ? 2 : 1);
    bool call_words = name == "@" || name == "@}" || name == "*" || name == "*}";  // one word is enough
    if (held->size() < (call_words ? 1u : 2u)) return false;
    if (name.back() == '}') name.pop_back();
    Location site = loc(n);
    for (const Piece& p : *held) {
      Word w;
      w.text = p.text;
      w.raw = p.text;
      w.resolved = p.resolved;
      w.loc = p.loc;
      cmd.argv.push_back(std::move(w));
      nodes.push_back(n);
      out_.expansions.push_back({p.loc, site, "expanded here ($" + name + ")"});
    }
    return true;
  }

  void declaration(TSNode n) {
    // export / declare / typeset / local / readonly
    std::string kw;
    ts::each_child(n, false, [&](TSNode ch) { kw = std::string(raw(ch)); return false; });
    bool exported = kw == "export";
    ts::each_named_child(n, [&](TSNode ch) {
      if (is(ch, "word") && starts_with(raw(ch), "-") && raw(ch).find('x') != std::string_view::npos)
        exported = true;
    });
    ts::each_named_child(n, [&](TSNode ch) {
      if (is(ch, "variable_assignment")) assign(ch, exported ? EnvOrigin::Export : EnvOrigin::Assign);
      else walk_children(ch);  // command substitutions in values
    });
  }

  // Is this argument an expansion whose value undergoes word splitting?
  bool splits(TSNode n) const {
    if (is(n, "simple_expansion") || is(n, "expansion")) return true;
    if (is(n, "string") && ts_node_named_child_count(n) == 1) {  // "${X[@]}", "$@"
      std::string_view r = raw(n);
      if (r == "\"$@\"" || r == "\"${@}\"") return true;
      return is(ts_node_named_child(n, 0), "expansion") && ends_with(r, "[@]}\"");
    }
    return false;
  }

  static std::vector<std::string> split_ws(const std::string& s) {
    std::vector<std::string> v;
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i) v.push_back(s.substr(i, j - i));
      i = j;
    }
    return v;
  }

  static bool redirect(TSNode n) {
    const char* t = ts_node_type(n);
    return std::strstr(t, "redirect") != nullptr;
  }

  // A `VAR=value` prefix of a command (not persistent).
  void prefix_assignment(TSNode ch, Command& cmd) {
    TSNode name = ts_node_child_by_field_name(ch, "name", 4);
    TSNode value = ts_node_child_by_field_name(ch, "value", 5);
    Word w;
    if (!ts_node_is_null(value)) w = word(value);
    else w.loc = loc(ch);
    cmd.env.emplace_back(ts_node_is_null(name) ? "" : std::string(raw(name)), std::move(w));
  }

  // One word of a command (the name or an argument); an unquoted expansion splits.
  void argument(TSNode ch, Command& cmd, std::vector<TSNode>& nodes) {
    if (splits(ch) && expand_pieces(ch, cmd, nodes)) return;
    Word w = word(ch);
    note_sourced(w);
    call_argument(w);
    push_words(std::move(w), ch, cmd, nodes);
  }

  // `w` as one word, or, for an unquoted $X / ${X[@]} / "${X[@]}", the words its value splits
  // into. An arm's partial value ("uv pip") splits too; one holding an unknown `$X` stays whole.
  void push_words(Word w, TSNode ch, Command& cmd, std::vector<TSNode>& nodes) {
    bool known_text = w.resolved || w.text.find_first_of("$`") == std::string::npos;
    if (known_text && splits(ch)) {
      for (auto& part : split_ws(w.text)) {
        Word p = w;
        p.text = part;
        cmd.argv.push_back(std::move(p));
        nodes.push_back(ch);
      }
      return;
    }
    cmd.argv.push_back(std::move(w));
    nodes.push_back(ch);
  }

  // tree-sitter-bash reads every word after `>` as the redirect's target; bash takes only the
  // first (`pip install torch>=2.9 --index-url URL` writes to "=2.9"): the rest are arguments.
  void redirect_arguments(TSNode r, Command& cmd, std::vector<TSNode>& nodes) {
    if (!is(r, "file_redirect")) return;
    bool target = false;
    ts::each_named_child(r, [&](TSNode ch) {
      if (is(ch, "file_descriptor")) return;
      if (target) argument(ch, cmd, nodes);
      target = true;
    });
  }

  void command(TSNode n) {
    Command cmd;
    cmd.stage = stage_;
    cmd.context = context_;
    cmd.loc = loc(n);
    std::vector<TSNode> arg_nodes;
    bool have_name = false;
    ts::each_named_child(n, [&](TSNode ch) {
      if (!have_name && is(ch, "variable_assignment")) return prefix_assignment(ch, cmd);
      if (is(ch, "command_name")) {
        have_name = true;
        TSNode inner = ts_node_named_child_count(ch) == 1 ? ts_node_named_child(ch, 0) : ch;
        if (splits(inner) && expand_pieces(inner, cmd, arg_nodes)) return;
        return push_words(word(inner), inner, cmd, arg_nodes);
      }
      if (redirect(ch)) return redirect_arguments(ch, cmd, arg_nodes);
      if (!is(ch, "comment")) argument(ch, cmd, arg_nodes);
    });
    if (TSNode up = ts_node_parent(n); !ts_node_is_null(up) && is(up, "redirected_statement"))
      ts::each_named_child(up, [&](TSNode r) { redirect_arguments(r, cmd, arg_nodes); });
    if (!cmd.argv.empty() && (calls_ == 0 || reads_arguments(raw(n)))) {
      seen_command_ = true;
      out_.commands.push_back(cmd);
      nested_shell(cmd, arg_nodes);
      source_file(cmd);
      call_function(cmd);
    }
    // command substitutions inside the words
    ts::each_named_child(n, [&](TSNode ch) { walk_children(ch); });
  }

  static std::string program(const Word& w) {
    std::string p = w.text;
    if (size_t k = p.rfind('/'); k != std::string::npos) p = p.substr(k + 1);
    return p;
  }

  // `source FILE` / `. FILE` of a file the project knows: its variables hold from here on.
  void source_file(const Command& cmd) {
    if (!sourced_ || cmd.argv.size() < 2 || (cmd.argv[0].text != "source" && cmd.argv[0].text != ".")) return;
    auto it = sourced_->find(cmd.argv[1].text);
    if (it == sourced_->end()) return;
    const ShellEnv& e = it->second;
    for (const auto& [name, at] : e.written) {
      auto v = e.vars.find(name);
      if (v != e.vars.end()) vars_[name] = v->second;
      else vars_.erase(name);
      auto w = e.words.find(name);
      if (w != e.words.end()) pieces_[name] = w->second;
      else pieces_.erase(name);
      from_sourced_[name] = {at, e.path};
    }
  }

  // Branches on the machine (`if [[ "$(uname -m)" == x86_64 ]]`, `case $ARCH in aarch64)`):
  // each branch's lines become a section titled by its test, so a branch for another platform
  // is not judged as a Spark setup (query::other_platform_section reads the words).
  int machine_depth_ = 0;

  static bool probes_machine(std::string_view test) {
    std::string l = lower(test);
    // and on a CUDA toolchain or GPU being there (`command -v nvcc`, `[ -x /usr/local/cuda/bin/nvcc ]`)
    for (const char* w : {"uname", "arch", "hosttype", "machtype", "ostype", "os_type", "platform", "nvcc", "nvidia-smi", "/cuda"})
      if (l.find(w) != std::string::npos) return true;
    return false;
  }

  // +1: the branch runs where the test holds; -1: where it fails (`!=`, `! [[`); 0: both kinds.
  static int test_sense(std::string_view test) {
    size_t b = test.find_first_not_of(" \t");
    bool neg = test.find("!=") != std::string_view::npos || (b != std::string_view::npos && test[b] == '!');
    bool pos = test.find("==") != std::string_view::npos || test.find(" = ") != std::string_view::npos ||
               test.find("=~") != std::string_view::npos;
    return neg && pos ? 0 : neg ? -1 : 1;
  }

  void add_section(Section sec) {
    auto& all = out_.sections.edit();
    auto at = std::upper_bound(all.begin(), all.end(), sec.line, [](int line, const Section& s) { return line < s.line; });
    all.insert(at, std::move(sec));
  }

  struct Branch {
    std::string test;
    bool negated = false;
    int first = 0, last = 0;
  };

  // Opens a section over the branch's lines and closes it after them; false when not a branch on the machine.
  bool branch_section(const Branch& br) {
    if (br.first <= 0 || !probes_machine(br.test)) return false;
    int level = 8 + machine_depth_;
    add_section({br.first, level, br.test.substr(0, 200), br.negated});
    add_section({br.last + 1, level, "", false});
    return true;
  }

  // The statements of an if/elif/else body: their first and last lines.
  void body_lines(TSNode ch, Branch& br) {
    if (!ts_node_is_named(ch) || is(ch, "comment")) return;
    Location l = loc(ch);
    if (br.first == 0) br.first = l.range.line;
    br.last = std::max(br.last, l.range.end_line);
  }

  std::vector<Branch> if_branches(TSNode n) {
    std::vector<Branch> out(1);
    bool body = false;
    auto clause = [&](TSNode c, bool is_else) {
      Branch br;
      bool cbody = is_else;
      ts::each_child(c, false, [&](TSNode ch) {
        if (!ts_node_is_named(ch) && raw(ch) == "then") cbody = true;
        else if (!cbody && ts_node_is_named(ch)) br.test += std::string(raw(ch)) + " ";
        else if (cbody) body_lines(ch, br);
      });
      out.push_back(std::move(br));
    };
    ts::each_child(n, false, [&](TSNode ch) {
      if (is(ch, "elif_clause")) return clause(ch, false);
      if (is(ch, "else_clause")) return clause(ch, true);
      if (!ts_node_is_named(ch) && raw(ch) == "then") body = true;
      else if (!body && ts_node_is_named(ch)) out[0].test += std::string(raw(ch)) + " ";
      else if (body && out.size() == 1) body_lines(ch, out[0]);
    });
    return out;
  }

  // Both return whether a branch section was opened.
  bool machine_if(TSNode n) {
    std::vector<Branch> brs = if_branches(n);
    std::string tests;
    bool same_sense = true, opened = false;
    for (Branch& br : brs) {
      if (br.test.empty()) {  // else: runs where every test failed
        br.test = tests;
        br.negated = true;
        if (!same_sense) continue;
      } else {
        int sense = test_sense(br.test);
        if (sense == 0) { same_sense = false; continue; }
        br.negated = sense < 0;
        same_sense = same_sense && !br.negated;
        tests += br.test;
      }
      opened = branch_section(br) || opened;
    }
    return opened;
  }

  bool machine_case(TSNode n) {
    TSNode value = ts_node_child_by_field_name(n, "value", 5);
    if (ts_node_is_null(value) || !probes_machine(raw(value))) return false;
    std::string patterns;
    bool opened = false;
    ts::each_named_child(n, [&](TSNode item) {
      if (!is(item, "case_item")) return;
      Branch br;
      for (uint32_t i = 0; i < ts_node_child_count(item); ++i) {
        TSNode ch = ts_node_child(item, i);
        const char* field = ts_node_field_name_for_child(item, i);
        if (field && !std::strcmp(field, "value")) br.test += std::string(raw(ch)) + " ";
        else if (!field) body_lines(ch, br);
      }
      if (br.test == "* ") br = Branch{patterns, true, br.first, br.last};
      else patterns += br.test;
      br.test = std::string(raw(value)) + " " + br.test;
      opened = branch_section(br) || opened;
    });
    return opened;
  }

  // Shell functions of this script (`pip_install() { python -m pip install "$@"; }`): a call
  // runs the body again with the call's words as "$@" and $1..$9, each where the call writes it.
  // Only the body's commands that read those words are recorded again; the rest were recorded
  // where the function is defined.
  std::map<std::string, TSNode> functions_;
  int calls_ = 0;             // function bodies being run now
  std::vector<Word> call_args_;  // the words of the call being run ($0 first)
  size_t call_bytes_ = 0;     // bytes of function bodies run again, per file (bounded work)
  size_t call_budget() const { return (1u << 20) + 2 * text_.size(); }
  static constexpr int kMaxCallDepth = 3;

  void define_function(TSNode n) {
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    TSNode body = ts_node_child_by_field_name(n, "body", 4);
    if (!ts_node_is_null(name) && !ts_node_is_null(body)) functions_[std::string(raw(name))] = body;
  }

  static bool reads_arguments(std::string_view text) {
    static const char* refs[] = {"$@", "${@", "$*", "${*", "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9",
                                 "${1", "${2", "${3", "${4", "${5", "${6", "${7", "${8", "${9"};
    for (const char* r : refs)
      if (text.find(r) != std::string_view::npos) return true;
    return false;
  }

  // In a function's body, `$1` / `"${2}"` alone is the call's word: it moves to where the call
  // writes it, and the body's word becomes the related place.
  void call_argument(Word& w) {
    if (calls_ == 0 || w.raw.find('$') == std::string::npos) return;
    for (size_t k = 1; k < call_args_.size() && k <= 9; ++k) {
      if (!variable_alone(w.raw, std::to_string(k))) continue;
      out_.expansions.push_back({call_args_[k].loc, w.loc, "expanded here ($" + std::to_string(k) + ")"});
      w.loc = call_args_[k].loc;
      return;
    }
  }

  void call_function(const Command& cmd) {
    auto fn = functions_.find(cmd.argv[0].text);
    if (fn == functions_.end() || calls_ >= kMaxCallDepth) return;
    call_bytes_ += ts_node_end_byte(fn->second) - ts_node_start_byte(fn->second);
    if (call_bytes_ > call_budget()) return;
    std::map<std::string, std::string> saved_vars;  // $1..$9 of the caller
    for (int k = 1; k <= 9; ++k)
      if (auto v = vars_.find(std::to_string(k)); v != vars_.end()) saved_vars.insert(*v);
    auto saved_args = pieces_.extract("@");
    std::vector<Piece> args;
    for (size_t i = 1; i < cmd.argv.size(); ++i) args.push_back({cmd.argv[i].text, cmd.argv[i].resolved, cmd.argv[i].loc});
    positionals(cmd, 0);
    std::vector<Word> outer_args = std::exchange(call_args_, cmd.argv);
    pieces_["@"] = args;
    pieces_["*"] = std::move(args);
    ++calls_;
    walk(fn->second);
    --calls_;
    call_args_ = std::move(outer_args);
    pieces_.erase("@");
    pieces_.erase("*");
    if (!saved_args.empty()) pieces_.insert(std::move(saved_args));
    for (int k = 1; k <= 9; ++k) vars_.erase(std::to_string(k));
    vars_.merge(saved_vars);
  }

  // `$NAME`, `${NAME}` or either in double quotes: the word is the variable alone.
  static bool variable_alone(std::string_view raw, const std::string& name) {
    if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') raw = raw.substr(1, raw.size() - 2);
    return raw == "$" + name || raw == "${" + name + "}";
  }

  // A word that reads a variable a sourced file set: the assignment is a related place. A
  // word that is the variable alone (`"$TP"`) is the value written there: it moves to the
  // assignment, and the script's word becomes the related place.
  void note_sourced(Word& w) {
    if (from_sourced_.empty() || w.raw.find('$') == std::string::npos) return;
    for (const auto& [name, where] : from_sourced_) {
      if (w.raw.find("$" + name) == std::string::npos && w.raw.find("${" + name) == std::string::npos) continue;
      auto v = vars_.find(name);
      if (v != vars_.end() && w.resolved && w.text == v->second && variable_alone(w.raw, name)) {
        out_.expansions.push_back({where.first, w.loc, "used here ($" + name + ")"});
        w.loc = where.first;
        return;
      }
      out_.expansions.push_back({w.loc, where.first,
                                 "set in " + where.second + " (" + name + "=" + (v == vars_.end() ? "?" : v->second) + ")"});
    }
  }

  // Where the shell starts in `bash -c ...` or in a command that runs one
  // (`docker exec ctr bash -c ...`, `sudo sh -c ...`, `srun ... bash -c ...`); npos if none.
  static size_t shell_word(const Command& cmd) {
    static const std::set<std::string> shells = {"bash", "sh", "zsh", "dash"};
    static const std::set<std::string> runners = {"docker", "podman", "nerdctl", "kubectl", "sudo", "env",
                                                  "srun", "nohup", "timeout", "time", "exec", "enroot",
                                                  "apptainer", "singularity", "ssh", "mpirun", "stdbuf"};
    if (shells.count(program(cmd.argv[0]))) return 0;
    if (!runners.count(program(cmd.argv[0]))) return std::string::npos;
    for (size_t i = 1; i < cmd.argv.size(); ++i)
      if (shells.count(program(cmd.argv[i]))) return i;
    return std::string::npos;
  }

  // `bash -c '...'`: parse the string body as a script of its own.
  // `bash -c 'vllm serve "$1" --tp "$2"' name MODEL 2`: the words after the script are $0, $1...
  void positionals(const Command& cmd, size_t zero) {
    for (int k = 1; k <= 9; ++k) {
      size_t at = zero + static_cast<size_t>(k);
      const std::string n = std::to_string(k);
      if (at < cmd.argv.size() && cmd.argv[at].resolved) vars_[n] = cmd.argv[at].text;
      else vars_.erase(n);
    }
  }

  void nested_shell(const Command& cmd, const std::vector<TSNode>& nodes) {
    if (depth_ >= 3) return;
    size_t sh = shell_word(cmd);
    if (sh == std::string::npos) {
      size_t remote = ssh_command(cmd);
      if (remote != std::string::npos) shell_body(cmd, nodes[remote], remote + 1);
      return;
    }
    for (size_t i = sh + 1; i + 1 < cmd.argv.size(); ++i) {
      const std::string& a = cmd.argv[i].text;
      if (a.size() < 2 || a[0] != '-' || a[1] == '-' || a.find('c') == std::string::npos) continue;
      shell_body(cmd, nodes[i + 1], i + 2);
      return;
    }
  }

  // `ssh [options] HOST 'pip install ...'`: the one quoted word after the host is a command
  // line for the remote shell. Returns its index, or npos.
  static size_t ssh_command(const Command& cmd) {
    if (program(cmd.argv[0]) != "ssh") return std::string::npos;
    static const std::string with_value = "BbcDEeFIiJLlmOoPpQRSWw";
    size_t i = 1;
    while (i < cmd.argv.size() && starts_with(cmd.argv[i].text, "-") && cmd.argv[i].text.size() > 1) {
      const std::string& a = cmd.argv[i].text;
      bool takes = a.size() == 2 && with_value.find(a[1]) != std::string::npos;
      i += takes ? 2 : 1;
    }
    return i + 2 == cmd.argv.size() ? i + 1 : std::string::npos;
  }

  // Parse a quoted shell body (of `bash -c` or ssh) as a script of its own; the words from
  // `zero` on are its $0, $1, ...
  void shell_body(const Command& cmd, TSNode body, size_t zero) {
    if (is(body, "concatenation")) return quoted_pieces(cmd, body, zero);
    std::string_view r = raw(body);
    // A double-quoted body is read as written: `$X` and `\<newline>` mean the same to the
    // inner shell once the outer one expanded them; one holding `$(...)` or backquotes is
    // not (the outer walk reads those commands already).
    bool plain = is(body, "raw_string") ||
                 (is(body, "string") && r.find('`') == std::string_view::npos &&
                  r.find("$(") == std::string_view::npos);
    if (!plain || r.size() < 2) return;
    TSPoint b = ts_node_start_point(body), e = ts_node_end_point(body);
    b.column += 1;
    if (e.column > 0) e.column -= 1;
    int saved = depth_;
    auto outer = vars_;
    positionals(cmd, zero);
    parse(ts_node_start_byte(body) + 1, ts_node_end_byte(body) - 1, b, e, depth_ + 1);
    vars_ = std::move(outer);
    depth_ = saved;
  }

  // `'echo '\''hi'\'' && run'`: single-quoted pieces joined by escaped quotes, the way a
  // script quotes a quote inside a single-quoted `bash -c` body. The pieces' contents and each
  // escaped quote's `'` are parsed as one script (included ranges keep every word's place).
  void quoted_pieces(const Command& cmd, TSNode body, size_t zero) {
    std::vector<TSRange> ranges;
    bool plain = true;
    ts::each_named_child(body, [&](TSNode ch) {
      uint32_t b = ts_node_start_byte(ch), e = ts_node_end_byte(ch);
      TSPoint pb = ts_node_start_point(ch), pe = ts_node_end_point(ch);
      if (is(ch, "raw_string") && e - b >= 2) ranges.push_back({{pb.row, pb.column + 1}, {pe.row, pe.column - 1}, b + 1, e - 1});
      else if (raw(ch) == "\\'") ranges.push_back({{pb.row, pb.column + 1}, pe, b + 1, e});
      else plain = false;
    });
    if (!plain || ranges.empty() || ts_node_named_child_count(body) != ranges.size()) return;
    if (ts::refuse_deep(src_, raw(body), diag_, ts_node_start_byte(body))) return;
    std::erase_if(ranges, [](const TSRange& r) { return r.start_byte == r.end_byte; });  // ''
    if (ranges.empty()) return;
    int saved = depth_;
    auto outer = vars_;
    positionals(cmd, zero);
    parse_ranges(ranges, depth_ + 1);
    vars_ = std::move(outer);
    depth_ = saved;
  }

  // The program and arguments of a heredoc's command (`sudo tee F`: tee and F).
  std::pair<std::string, std::vector<std::string>> heredoc_command(TSNode body) {
    TSNode name = ts_node_child_by_field_name(body, "name", 4);
    if (ts_node_is_null(name)) return {};
    std::string prog = program(word(name));
    if (prog == "sudo") prog = "";  // `sudo tee F`: the first argument is the program
    std::vector<std::string> args;
    ts::each_named_child(body, [&](TSNode ch) {
      if (!is(ch, "command_name") && !redirect(ch)) args.push_back(word(ch).text);
    });
    if (prog.empty() && !args.empty()) {
      prog = args.front().substr(args.front().rfind('/') == std::string::npos ? 0 : args.front().rfind('/') + 1);
      args.erase(args.begin());
    }
    return {prog, args};
  }

  // The file `cat > F <<EOF` or `cat <<EOF > F` writes: the destination of a `>` redirect.
  std::string redirect_target(TSNode n) {
    std::string target;
    auto dest = [&](TSNode r) {
      std::string_view op = raw(r);
      TSNode d = ts_node_child_by_field_name(r, "destination", 11);
      if (!ts_node_is_null(d) && (starts_with(op, ">") || starts_with(op, "1>"))) target = word(d).text;
    };
    ts::each_named_child(n, [&](TSNode ch) {
      if (is(ch, "file_redirect")) dest(ch);
      if (is(ch, "heredoc_redirect")) ts::each_named_child(ch, [&](TSNode r) { if (is(r, "file_redirect")) dest(r); });
    });
    return target;
  }

  static std::string first_operand(const std::vector<std::string>& args) {
    for (const std::string& a : args)
      if (!a.empty() && a[0] != '-') return a;
    return "";
  }

  // The file a heredoc's text becomes: `cat > F <<EOF`, `cat <<EOF > F`, `tee [-a] F <<EOF`
  // (F's name), `python3 - <<EOF` ("heredoc.py"); empty for any other command.
  std::string heredoc_target(TSNode n) {
    TSNode body = ts_node_child_by_field_name(n, "body", 4);
    if (ts_node_is_null(body) || !is(body, "command")) return "";
    auto [prog, args] = heredoc_command(body);
    if (prog == "tee") return first_operand(args);
    bool python = prog == "python" || starts_with(prog, "python3");
    if (python && (args.empty() || args == std::vector<std::string>{"-"})) return "heredoc.py";
    if (builds_from_stdin(prog, args)) return "Dockerfile";
    return prog == "cat" ? redirect_target(n) : "";
  }

  // `docker build -f - .`, `docker build -t x -` (the Dockerfile is read from stdin).
  static bool builds_from_stdin(const std::string& prog, const std::vector<std::string>& args) {
    if ((prog != "docker" && prog != "podman") || args.empty() || args[0] != "build") return false;
    for (size_t i = 1; i < args.size(); ++i)
      if (args[i] == "-" || args[i] == "--file=-" || args[i] == "-f-" ||
          ((args[i] == "-f" || args[i] == "--file") && i + 1 < args.size() && args[i + 1] == "-"))
        return true;
    return false;
  }

  // A heredoc that writes a Dockerfile, a compose file or Python: its text is parsed as that
  // file (its lines mapped back here), so a setup written by a script or a guide's step counts.
  void heredoc_file(TSNode n) {
    static thread_local int nested = 0;  // a heredoc's Dockerfile may hold another heredoc
    if (nested >= 3 || calls_ > 0) return;  // a function's heredoc is read where it is defined
    TSNode body{};
    bool found = false, quoted = false;
    ts::each_named_child(n, [&](TSNode ch) {
      if (!is(ch, "heredoc_redirect")) return;
      ts::each_named_child(ch, [&](TSNode b) {
        if (is(b, "heredoc_body")) body = b, found = true;
        if (is(b, "heredoc_start")) quoted = raw(b).find_first_of("'\"\\") != std::string_view::npos;
      });
    });
    if (!found) return;
    std::string target = heredoc_target(n);
    if (target.empty()) return;
    std::string base = target.substr(target.rfind('/') == std::string::npos ? 0 : target.rfind('/') + 1);
    FileInfo info{src_.path(), base, {}};
    const Parser* p = parser_for(info);
    if (!p || (p->kind() != FileKind::Dockerfile && p->kind() != FileKind::Python && !compose_name(base))) return;
    std::string text(raw(body));
    EmbedMap m;
    int row = static_cast<int>(ts_node_start_point(body).row) + 1;
    for (const std::string& l : split(text, '\n')) m.add(src_, row++, l);
    // `<<EOF` (unquoted): the shell expands `$X` and `${X:+...}` first, so Python syntax
    // errors in such a body are about text the shell rewrites.
    bool expanded = !quoted && (text.find("${") != std::string::npos || text.find("$(") != std::string::npos);
    ParseDiag inner;
    inner.python_wanted = diag_.python_wanted;
    ++nested;
    parse_embedded(src_, base, std::move(text), m, out_, inner);
    --nested;
    for (Notification& note : inner.notes)
      if (!(expanded && note.id == "python-syntax")) diag_.notes.push_back(std::move(note));
  }

  static bool compose_name(const std::string& base) {
    return (starts_with(base, "docker-compose") || starts_with(base, "compose")) &&
           (ends_with(base, ".yml") || ends_with(base, ".yaml"));
  }

  void comment(TSNode n) {
    std::string_view t = raw(n);
    uint32_t start = ts_node_start_byte(n);
    if (!starts_with(t, "#SBATCH") || (t.size() > 7 && !std::isspace(static_cast<unsigned char>(t[7]))))
      return;
    if (seen_command_ || depth_ > 0) return;
    Command cmd;
    cmd.stage = stage_;
    cmd.context = CommandContext::Sbatch;
    cmd.loc = loc(n);
    size_t i = 0;
    while (i < t.size()) {
      while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
      if (i >= t.size() || (i > 0 && t[i] == '#')) break;  // trailing comment
      size_t j = i;
      while (j < t.size() && !std::isspace(static_cast<unsigned char>(t[j]))) ++j;
      Word w;
      w.raw = std::string(t.substr(i, j - i));
      Expanded e = expand_word(w.raw, {});  // Slurm does not expand variables here
      w.text = e.text;
      w.loc = src_.loc(start + i, start + j);
      cmd.argv.push_back(std::move(w));
      i = j;
    }
    out_.sbatch.push_back(std::move(cmd));
  }

  void walk_children(TSNode n) {
    ts::each_named_child(n, [&](TSNode ch) { walk(ch); });
  }

  int nesting_ = 0;  // see ts::kMaxDepth

  void walk(TSNode n) {
    ts::Nest guard(nesting_);
    if (nesting_ > ts::kMaxDepth) return;
    const char* t = ts_node_type(n);
    if (branch_node(t)) {  // see branch_
      uint32_t outer = std::exchange(branch_, ts_node_start_byte(n) + 1);
      walk_node(n, t);
      branch_ = outer;
      return;
    }
    walk_node(n, t);
  }

  // After an if/case: a variable its arms gave different values is unknown (which arm runs is
  // not known); the outer statement, if any, sees what this one left.
  // The variable keeps the first arm's text as a partial value, unresolved: `$PIP install` with
  // PIP="uv pip" or "pip" is still an install, but a URL chosen by the arms is not read.
  void settle_arms() {
    std::map<std::string, std::vector<std::string>> assigned = std::move(arm_values_.back());
    arm_values_.pop_back();
    for (auto& [var, values] : assigned) {
      bool disagree = values.size() > 1;
      if (disagree) {
        const std::string& first = values.front();
        vars_.erase(var);
        pieces_.erase(var);
        partial_[var] = first.rfind('\x01', 0) == 0 ? first.substr(1) : first;
      }
      if (!arm_values_.empty()) note_arm_value(var, disagree ? "\x01" + partial_[var] : values.front());
    }
  }

  // Keeps the first value and one that differs: enough to know the arms disagree, and bounded.
  void note_arm_value(const std::string& var, const std::string& value) {
    std::vector<std::string>& seen = arm_values_.back()[var];
    if (seen.size() < 2 && (seen.empty() || seen.front() != value)) seen.push_back(value);
  }

  static bool branch_node(const char* t) {
    return !std::strcmp(t, "case_item") || !std::strcmp(t, "elif_clause") || !std::strcmp(t, "else_clause") ||
           !std::strcmp(t, "if_statement");
  }

  void walk_node(TSNode n, const char* t) {
    if (!std::strcmp(t, "command")) return command(n);
    if (!std::strcmp(t, "variable_assignment")) {
      seen_command_ = true;
      walk_children(n);  // $(...) in the value runs first
      return assign(n, EnvOrigin::Assign);
    }
    if (!std::strcmp(t, "declaration_command")) {
      seen_command_ = true;
      return declaration(n);
    }
    if (!std::strcmp(t, "unset_command")) {
      seen_command_ = true;
      ts::each_named_child(n, [&](TSNode ch) {
        vars_.erase(std::string(raw(ch)));
        pieces_.erase(std::string(raw(ch)));
      });
      return;
    }
    if (!std::strcmp(t, "for_statement") || !std::strcmp(t, "c_style_for_statement")) {
      TSNode var = ts_node_child_by_field_name(n, "variable", 8);
      if (!ts_node_is_null(var)) vars_.erase(std::string(raw(var)));  // loop variable: unknown
      if (!ts_node_is_null(var)) pieces_.erase(std::string(raw(var)));
      return walk_children(n);
    }
    if (!std::strcmp(t, "heredoc_body") || !std::strcmp(t, "heredoc_content")) return;
    if (!std::strcmp(t, "redirected_statement")) {
      walk_children(n);
      return heredoc_file(n);
    }
    if (!std::strcmp(t, "comment")) return comment(n);
    if (!std::strcmp(t, "if_statement") || !std::strcmp(t, "case_statement")) {
      bool nested = calls_ == 0 && (t[0] == 'i' ? machine_if(n) : machine_case(n));
      machine_depth_ += nested;
      arm_values_.emplace_back();
      walk_children(n);
      settle_arms();
      machine_depth_ -= nested;
      return;
    }
    if (!std::strcmp(t, "function_definition")) {
      if (calls_ == 0) walk_children(n);
      return define_function(n);
    }
    if (!std::strcmp(t, "list") && install_fallback(n)) return walk(ts_node_named_child(n, 0));
    walk_children(n);
  }

  // Does the command's text install packages (`pip install`, `uv pip install`, `conda install`)?
  bool installs(TSNode c) const {
    if (!is(c, "command")) return false;
    std::vector<std::string> words;
    ts::each_named_child(c, [&](TSNode ch) {
      if (!redirect(ch) && words.size() < 8) words.push_back(std::string(raw(ch)));
    });
    if (words.empty()) return false;
    std::string prog = program(Word{words[0], words[0], true, {}});
    static const std::set<std::string> tools = {"pip", "pip3", "uv", "conda", "mamba", "micromamba"};
    bool tool = tools.count(prog) || starts_with(prog, "python");
    return tool && std::find(words.begin(), words.end(), "install") != words.end();
  }

  // `pip install A --index-url cu130 || pip install A --index-url cu128`: the install after
  // `||` runs only when the first failed, an alternative the first one's success leaves unrun.
  bool install_fallback(TSNode list) const {
    if (ts_node_child_count(list) != 3 || ts_node_named_child_count(list) != 2) return false;
    TSNode op = ts_node_child(list, 1);
    return !ts_node_is_named(op) && raw(op) == "||" && installs(ts_node_named_child(list, 0)) &&
           installs(ts_node_named_child(list, 1));
  }
};

}  // namespace

void parse_shell(const SourceFile& src, const std::map<std::string, std::string>& vars, int stage,
                 CommandContext context, FileFacts& out, ParseDiag& diag) {
  parse_shell(src, vars, stage, context, out, diag, nullptr);
}

void parse_shell(const SourceFile& src, const std::map<std::string, std::string>& vars, int stage,
                 CommandContext context, FileFacts& out, ParseDiag& diag, const SourcedFiles* sourced) {
  Walker w(src, vars, stage, context, out, diag, sourced);
  w.parse(0, src.text().size(), {0, 0}, {0, 0}, 0);
}

ShellEnv shell_env(const SourceFile& src) {
  FileFacts scratch;
  ParseDiag ignored;  // the file's own parse reports its problems
  Walker w(src, {}, -1, CommandContext::Script, scratch, ignored);
  w.parse(0, src.text().size(), {0, 0}, {0, 0}, 0);
  return w.env();
}

// ---------------------------------------------------------------------------
// The parser for shell files
// ---------------------------------------------------------------------------
namespace {

// Bytes of decoration at `t[i]`: one of -=*#~_+ or a box-drawing character (U+2500..U+257F), else 0.
size_t decoration(std::string_view t, size_t i) {
  if (std::strchr("-=*#~_+", t[i]) && t[i] != '\0') return 1;
  bool box = i + 2 < t.size() && t[i] == '\xE2' && (t[i + 1] == '\x94' || t[i + 1] == '\x95');
  return box ? 3 : 0;
}

// A comment's text split into leading decoration, title and trailing decoration (bytes).
struct CommentParts {
  size_t lead = 0, trail = 0;
  std::string title;
};

CommentParts comment_parts(std::string_view c) {
  CommentParts parts;
  size_t i = 1;  // past the `#` that starts the comment
  while (i < c.size()) {
    if (c[i] == ' ' || c[i] == '\t') { ++i; continue; }
    size_t n = decoration(c, i);
    if (!n) break;
    parts.lead += n;
    i += n;
  }
  size_t e = c.size();
  while (e > i) {
    if (c[e - 1] == ' ' || c[e - 1] == '\t' || c[e - 1] == '\r') { --e; continue; }
    size_t n = e >= i + 3 && decoration(c, e - 3) == 3 ? 3 : decoration(c, e - 1);
    if (!n) break;
    parts.trail += n;
    e -= n;
  }
  parts.title = trim(c.substr(i, e - i));
  return parts;
}

// Banner comments are a script's headings: `# ── H100 install ──`, `### Mac ###`, or a title
// between two comment lines of decoration. Each opens a section, like a Markdown heading.
void banner_sections(const SourceFile& src, FileFacts& out) {
  auto titled = [](const std::string& t) {
    return t.size() <= 100 && std::any_of(t.begin(), t.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); });
  };
  // comment lines by line number (1-based); a line of decoration alone is a rule
  std::vector<std::optional<CommentParts>> comments(static_cast<size_t>(src.line_count()) + 2);
  for (int ln = 1; ln <= src.line_count(); ++ln) {
    std::string_view l = src.line(ln);
    size_t b = l.find_first_not_of(" \t");
    if (b != std::string_view::npos && l[b] == '#' && !starts_with(l.substr(b), "#!")) comments[ln] = comment_parts(l.substr(b));
  }
  auto rule_line = [&](int ln) { return comments[ln] && comments[ln]->title.empty() && comments[ln]->lead >= 5; };
  for (int ln = 1; ln <= src.line_count(); ++ln) {
    if (!comments[ln] || !titled(comments[ln]->title)) continue;
    bool inline_banner = comments[ln]->lead >= 2 && comments[ln]->trail >= 2;
    bool boxed = rule_line(ln - 1) && rule_line(ln + 1);
    if (inline_banner || boxed) out.sections.push_back({ln, 1, comments[ln]->title});
  }
}

// Parses a script; with `quiet`, bash syntax errors are not reported (a zsh script, a
// template or a dotenv file has a syntax of its own), the budget's notes and the facts stay.
void parse_shell_quietly(const SourceFile& src, bool quiet, FileFacts& out, ParseDiag& diag) {
  ParseDiag own;
  own.python_wanted = diag.python_wanted;
  parse_shell(src, {}, -1, CommandContext::Script, out, own);
  for (auto& n : own.notes)
    if (!quiet || n.id != "shell-syntax") diag.notes.push_back(std::move(n));
}

// A zsh script, or a template (Jinja, Go) that renders to a script: not bash as written.
bool other_syntax(const SourceFile& src) {
  std::string n = lower(src.path());
  for (const char* ext : {".zsh", ".j2", ".jinja", ".jinja2", ".tmpl", ".tpl"})
    if (ends_with(n, ext)) return true;
  return shebang_interpreter(src.text().substr(0, 256)) == "zsh";
}

class ShellParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Shell; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    for (const char* ext : {".sh", ".bash", ".slurm", ".sbatch", ".zsh"})
      if (ends_with(n, ext)) return true;
    return shell_shebang(f.head);
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Shell;
    banner_sections(src, out);  // first: the walk inserts its branch sections among them, in line order
    parse_shell_quietly(src, other_syntax(src), out, diag);
  }
};

// Files that scripts source for their settings: `*.env`, `.env*`, `.envrc`, `*.conf`,
// `*.vars`, extension-less `env`/`*config*` files. Read as shell only when the text looks
// like one (its first line that is not blank or a comment assigns a variable), so an nginx
// or INI `.conf` stays silent. A committed template of one (`cluster.env.example`, `.sample`,
// `.template`, `.dist`: copied into place before it is sourced) counts as the file.


bool env_file_name(const std::string& name) {
  std::string n = without_template_suffix(name);
  if (n == ".envrc" || n == ".env" || starts_with(n, ".env.")) return true;
  for (const char* ext : {".env", ".conf", ".vars"})
    if (ends_with(n, ext)) return true;
  return false;
}


std::string_view trim_view(std::string_view v) {
  size_t b = v.find_first_not_of(" \t");
  return b == std::string_view::npos ? std::string_view() : v.substr(b);
}

// The first line of `text` that is not blank or a comment, trimmed on the left ("" if none).
std::string_view first_statement(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    size_t e = text.find('\n', i);
    std::string_view l = text.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
    i = e == std::string_view::npos ? text.size() : e + 1;
    size_t b = l.find_first_not_of(" \t\r");
    if (b != std::string_view::npos && l[b] != '#') return l.substr(b);
  }
  return {};
}

// `NAME=...`, `NAME+=...`, `export NAME=...`, `declare -a NAME=(...)`.
bool assigns(std::string_view l) {
  for (std::string_view kw : {"export ", "declare ", "readonly "})
    if (starts_with(l, kw)) l = trim_view(l.substr(kw.size()));
  while (starts_with(l, "-")) {  // declare -a / -x
    size_t sp = l.find(' ');
    l = sp == std::string_view::npos ? std::string_view() : trim_view(l.substr(sp));
  }
  size_t n = 0;
  while (n < l.size() && name_char(l[n])) ++n;
  if (n == 0 || std::isdigit(static_cast<unsigned char>(l[0]))) return false;
  return n < l.size() && (l[n] == '=' || (l[n] == '+' && n + 1 < l.size() && l[n + 1] == '='));
}

bool looks_like_assignments(std::string_view text) { return assigns(first_statement(text)); }

class ShellEnvParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Shell; }
  int priority() const override { return -1; }  // any other parser of the name comes first
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    if (env_file_name(n)) return true;
    // extension-less: sniffed from the head
    return n.find('.') == std::string::npos && !f.head.empty() && !starts_with(f.head, "#!") &&
           looks_like_assignments(f.head);
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Shell;
    if (looks_like_assignments(src.text())) parse_shell_quietly(src, dotenv_name(src.path()), out, diag);
  }
};

}  // namespace

SPARKCHECK_PARSER(ShellParser);
SPARKCHECK_PARSER(ShellEnvParser);

// A dotenv file or its template (`.env`, `.env.local`, `cluster.env.example`): Compose reads
// `KEY=VALUE` lines of its own syntax, where `KEY=<your token>` is a placeholder, not a bash
// redirect. Its shell syntax is not reported; what it assigns is still read.
bool dotenv_name(const std::string& path) {
  std::string n = without_template_suffix(lower(path.substr(path.rfind('/') + 1)));
  return n == ".env" || starts_with(n, ".env.") || ends_with(n, ".env");
}

}  // namespace sc

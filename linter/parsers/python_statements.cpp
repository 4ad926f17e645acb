// SPDX-License-Identifier: Apache-2.0
// A cheap statement splitter for Python, so that a large file with a trigger word on a few lines
// is parsed only around them (issue 25): the other statements become spaces, every byte keeps
// its offset, and tree-sitter reads the rest as before.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/python.h"

namespace sc {

namespace {

enum class Opening { Other, Import, Decorator, Try, Clause };

// One logical line: from its first character to the end of its last physical line.
struct Statement {
  size_t begin = 0, end = 0;  // bytes: first character, the newline (or end of text) after it
  int first = 0, last = 0;    // 1-based physical lines
  int indent = 0;
  bool header = false;  // ends with ':' outside brackets: an indented block follows
  Opening word = Opening::Other;
  int parent = -1;      // the header whose block holds it
  int chain = -1;       // if/try/for/while chain: the statement that opens it
};

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool string_prefix(std::string_view w) {
  if (w.size() > 2) return false;
  for (char c : w)
    if (!std::strchr("rRbBuUfFtT", c)) return false;
  return true;
}

Opening classify(std::string_view first_word, char first) {
  if (first == '@') return Opening::Decorator;
  if (first_word == "import" || first_word == "from") return Opening::Import;
  if (first_word == "try") return Opening::Try;
  if (first_word == "elif" || first_word == "else" || first_word == "except" || first_word == "finally")
    return Opening::Clause;
  return Opening::Other;
}

// Splits a text into logical lines; false where unsure.
class Splitter {
 public:
  explicit Splitter(std::string_view t) : t_(t) {}

  bool run(std::vector<Statement>& out) {
    if (t_.size() >= 3 && t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    while (i_ < t_.size()) {
      int col = 0;
      while (i_ < t_.size() && t_[i_] == ' ') ++i_, ++col;
      if (i_ >= t_.size()) break;
      char c = t_[i_];
      if (c == '\t' || c == '\f' || (c == '\r' && !next_is('\n'))) return false;
      if (c == '\n' || c == '\r' || c == '#') {
        skip_to_newline();
        continue;
      }
      Statement s;
      s.begin = i_;
      s.first = line_;
      s.indent = col;
      if (!statement(s)) return false;
      out.push_back(s);
    }
    return true;
  }

 private:
  std::string_view t_;
  size_t i_ = 0;
  int line_ = 1;

  bool next_is(char c) const { return i_ + 1 < t_.size() && t_[i_ + 1] == c; }

  void skip_to_newline() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    if (i_ < t_.size()) ++i_, ++line_;
  }

  // What one step inside a logical line met.
  enum class Step { Going, End, Unsure };

  // From s.begin to the newline that ends the logical line (consumed).
  bool statement(Statement& s) {
    int depth = 0;
    char last = 0;
    std::string_view first_word;
    Step st = Step::Going;
    while (i_ < t_.size() && st == Step::Going) st = step(s, depth, last, first_word);
    if (st == Step::Unsure || depth != 0) return false;
    s.end = i_;
    s.last = line_;
    s.header = last == ':';
    s.word = classify(first_word, t_[s.begin]);
    if (i_ < t_.size()) ++i_, ++line_;
    return true;
  }

  // Reads one token or character of a logical line; `last` keeps the last one that counts.
  Step step(const Statement& s, int& depth, char& last, std::string_view& first_word) {
    char c = t_[i_];
    switch (c) {
      case '\n':
        if (depth == 0) return Step::End;
        ++i_, ++line_;
        return Step::Going;
      case '\r':
        if (!next_is('\n')) return Step::Unsure;
        ++i_;
        return Step::Going;
      case '\\':
        return continuation() ? Step::Going : Step::Unsure;
      case '#':
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
        return Step::Going;
      case '"':
      case '\'':
        last = c;
        return string(c) ? Step::Going : Step::Unsure;
      default:
        break;
    }
    if (ident_char(c)) return word(s, last, first_word) ? Step::Going : Step::Unsure;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && --depth < 0) return Step::Unsure;
    if (c != ' ' && c != '\t' && c != '\f') last = c;
    ++i_;
    return Step::Going;
  }

  // A backslash outside a string: only a continuation line stands there.
  bool continuation() {
    size_t nl = i_ + 1 < t_.size() && t_[i_ + 1] == '\r' ? i_ + 2 : i_ + 1;
    if (nl >= t_.size() || t_[nl] != '\n') return false;
    i_ = nl + 1, ++line_;
    return true;
  }

  // A name, keyword or number; a string prefix (`rb'...'`) goes on into its string.
  bool word(const Statement& s, char& last, std::string_view& first_word) {
    size_t b = i_;
    while (i_ < t_.size() && ident_char(t_[i_])) ++i_;
    std::string_view w = t_.substr(b, i_ - b);
    if (b == s.begin) first_word = w;
    last = 'a';
    if (i_ < t_.size() && (t_[i_] == '"' || t_[i_] == '\'') && string_prefix(w)) {
      last = '"';
      return string(t_[i_]);
    }
    return true;
  }

  // A string literal starting at the quote i_ stands on; false when it does not end.
  bool string(char q) {
    bool triple = i_ + 2 < t_.size() && t_[i_ + 1] == q && t_[i_ + 2] == q;
    i_ += triple ? 3 : 1;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\\') {
        if (i_ + 1 < t_.size() && t_[i_ + 1] == '\n') ++line_;
        i_ += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) return false;
        ++line_;
      } else if (c == q && (!triple || (i_ + 2 < t_.size() && t_[i_ + 1] == q && t_[i_ + 2] == q))) {
        i_ += triple ? 3 : 1;
        return true;
      }
      ++i_;
    }
    return false;
  }
};

// The statement before `i` with the same parent and indent, or -1.
int previous_sibling(const std::vector<Statement>& s, int i) {
  int p = s[i].parent;
  for (int j = i - 1; j > p; --j)
    if (s[j].parent == p) return s[j].indent == s[i].indent ? j : -1;
  return -1;
}

// Parents (the enclosing header) and chains (if/elif/else, try/except/finally); false when the
// indentation is not one Python accepts.
bool link(std::vector<Statement>& s) {
  std::vector<int> open;  // headers whose block may still continue
  for (int i = 0; i < static_cast<int>(s.size()); ++i) {
    while (!open.empty() && s[open.back()].indent >= s[i].indent) open.pop_back();
    int p = s[i].parent = open.empty() ? -1 : open.back();
    if ((p < 0 && s[i].indent != 0) || (p >= 0 && s[i].indent <= s[p].indent)) return false;
    s[i].chain = i;
    if (s[i].word == Opening::Clause) {
      int before = previous_sibling(s, i);
      if (before < 0) return false;
      s[i].chain = s[before].chain;
    }
    if (s[i].header) open.push_back(i);
  }
  return true;
}

// Marks what the kept statements need; the result is valid Python when the text was.
std::vector<char> close_over(const std::vector<Statement>& s, std::vector<char> keep) {
  std::vector<int> work;
  std::vector<char> chain_done(s.size(), 0);
  for (int i = 0; i < static_cast<int>(s.size()); ++i)
    if (keep[i]) work.push_back(i);
  auto add = [&](int j) {
    if (j >= 0 && !keep[j]) keep[j] = 1, work.push_back(j);
  };
  while (!work.empty()) {
    int i = work.back();
    work.pop_back();
    add(s[i].parent);
    // what a decorator decorates: the next decorator or the definition
    if (s[i].word == Opening::Decorator && i + 1 < static_cast<int>(s.size()) && s[i + 1].indent == s[i].indent)
      add(i + 1);
    // the whole chain: its opener and every clause
    int head = s[i].chain;
    if (chain_done[head]) continue;
    chain_done[head] = 1;
    add(head);
    for (int j = head + 1; j < static_cast<int>(s.size()) && s[j].indent >= s[head].indent; ++j)
      if (s[j].indent == s[head].indent) {
        if (s[j].chain != head) break;
        add(j);
      }
  }
  return keep;
}

}  // namespace

// The whole physical lines [first, last] as a range.
PythonPart::Lines whole_lines(std::string_view text, size_t begin, size_t end, int first, int last) {
  size_t nl = text.rfind('\n', begin == 0 ? 0 : begin - 1);
  PythonPart::Lines r;
  r.begin = begin == 0 || nl == std::string_view::npos ? 0 : nl + 1;
  r.first_row = first - 1;
  if (end < text.size()) {  // through the newline
    r.end = end + 1;
    r.end_row = last;
  } else {
    size_t last_nl = text.rfind('\n', end == 0 ? 0 : end - 1);
    r.end = text.size();
    r.end_row = last - 1;
    r.end_column = static_cast<uint32_t>(end - (last_nl == std::string_view::npos ? 0 : last_nl + 1));
  }
  return r;
}

std::optional<PythonPart> python_statements_only(std::string_view text, const std::vector<int>& lines) {
  std::vector<Statement> s;
  if (text.size() > UINT32_MAX || !Splitter(text).run(s) || !link(s)) return std::nullopt;
  std::vector<char> keep(s.size(), 0);
  auto marked = [&](const Statement& st) {
    auto it = std::lower_bound(lines.begin(), lines.end(), st.first);
    return it != lines.end() && *it <= st.last;
  };
  for (size_t i = 0; i < s.size(); ++i) keep[i] = s[i].word == Opening::Import || marked(s[i]);
  keep = close_over(s, std::move(keep));
  PythonPart part;
  part.text = std::string(text);
  std::vector<char> has_kept_child(s.size(), 0);
  for (size_t i = 0; i < s.size(); ++i)
    if (keep[i] && s[i].parent >= 0) has_kept_child[s[i].parent] = 1;
  auto add = [&](PythonPart::Lines r) {
    if (!part.ranges.empty() && part.ranges.back().end == r.begin) {
      part.ranges.back().end = r.end, part.ranges.back().end_row = r.end_row, part.ranges.back().end_column = r.end_column;
      return;
    }
    part.ranges.push_back(r);
  };
  for (size_t i = 0; i < s.size(); ++i) {
    if (!keep[i]) continue;
    add(whole_lines(text, s[i].begin, s[i].end, s[i].first, s[i].last));
    if (!s[i].header || has_kept_child[i]) continue;
    // a kept header whose block lost every statement: `pass` where the first one stood
    if (i + 1 >= s.size() || s[i + 1].parent != static_cast<int>(i)) return std::nullopt;
    const Statement& body = s[i + 1];
    size_t line_end = text.find('\n', body.begin);
    if (line_end == std::string_view::npos) line_end = text.size();
    if (line_end - body.begin < 4) return std::nullopt;
    part.text.replace(body.begin, line_end - body.begin, line_end - body.begin, ' ');
    part.text.replace(body.begin, 4, "pass");
    add(whole_lines(text, body.begin, line_end, body.first, body.first));
  }
  return part;
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// PEP 508 environment markers: text -> a tree of `or` / `and` over comparisons.
// Syntax only; what a marker means on a given machine is decided by the knowledge layer.
#include <cctype>

#include "parsers/packaging.h"

namespace sc {
namespace {

constexpr int kMaxDepth = 32;  // nesting of parentheses a marker may use (hostile input)

struct Token {
  enum Kind { Word, String, Open, Close, Op, End } kind = End;
  std::string text;
};

bool op_char(char c) { return c == '=' || c == '!' || c == '<' || c == '>' || c == '~'; }
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}
  bool next(Token& t) {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    t = Token{};
    if (i_ >= s_.size()) return true;
    char c = s_[i_];
    if (c == '(' || c == ')') {
      t.kind = c == '(' ? Token::Open : Token::Close;
      ++i_;
      return true;
    }
    if (c == '"' || c == '\'') return quoted(c, t);
    size_t b = i_;
    bool op = op_char(c);
    while (i_ < s_.size() && (op ? op_char(s_[i_]) : word_char(s_[i_]))) ++i_;
    if (i_ == b) return false;  // a character no marker uses
    t.kind = op ? Token::Op : Token::Word;
    t.text = std::string(s_.substr(b, i_ - b));
    return true;
  }

 private:
  bool quoted(char q, Token& t) {
    size_t close = s_.find(q, i_ + 1);
    if (close == std::string_view::npos) return false;
    t.kind = Token::String;
    t.text = std::string(s_.substr(i_ + 1, close - i_ - 1));
    i_ = close + 1;
    return true;
  }
  std::string_view s_;
  size_t i_ = 0;
};

bool comparison_op(const std::string& op) {
  return op == "==" || op == "!=" || op == "<=" || op == ">=" || op == "<" || op == ">" || op == "~=" ||
         op == "===";
}

// Recursive descent: or_expr := and_expr ('or' and_expr)*; and_expr := atom ('and' atom)*;
// atom := '(' or_expr ')' | value op value.
class Parser {
 public:
  explicit Parser(std::string_view s) : lex_(s) { ok_ = lex_.next(tok_); }

  std::optional<MarkerExpr> parse() {
    MarkerExpr e;
    if (!ok_ || !or_expr(e, 0) || tok_.kind != Token::End) return std::nullopt;
    return e;
  }

 private:
  void advance() { ok_ = ok_ && lex_.next(tok_); }
  bool keyword(std::string_view k) const { return ok_ && tok_.kind == Token::Word && tok_.text == k; }

  bool joined(MarkerExpr& out, int depth, MarkerExpr::Kind kind, std::string_view word) {
    MarkerExpr first;
    if (!(kind == MarkerExpr::Kind::Or ? and_expr(first, depth) : atom(first, depth))) return false;
    if (!keyword(word)) {
      out = std::move(first);
      return true;
    }
    out = MarkerExpr{};
    out.kind = kind;
    out.terms.push_back(std::move(first));
    while (keyword(word)) {
      advance();
      MarkerExpr t;
      if (!(kind == MarkerExpr::Kind::Or ? and_expr(t, depth) : atom(t, depth))) return false;
      out.terms.push_back(std::move(t));
    }
    return ok_;
  }
  bool or_expr(MarkerExpr& out, int depth) { return joined(out, depth, MarkerExpr::Kind::Or, "or"); }
  bool and_expr(MarkerExpr& out, int depth) { return joined(out, depth, MarkerExpr::Kind::And, "and"); }

  bool atom(MarkerExpr& out, int depth) {
    if (!ok_) return false;
    if (tok_.kind == Token::Open) {
      if (depth >= kMaxDepth) return false;
      advance();
      if (!or_expr(out, depth + 1) || tok_.kind != Token::Close) return false;
      advance();
      return ok_;
    }
    out = MarkerExpr{};
    if (!value(out.left, out.left_var) || !op(out.op)) return false;
    return value(out.right, out.right_var);
  }

  // A quoted literal, or a variable name ("platform.machine" is read as platform_machine).
  bool value(std::string& text, bool& var) {
    if (!ok_ || (tok_.kind != Token::String && tok_.kind != Token::Word)) return false;
    var = tok_.kind == Token::Word;
    text = tok_.text;
    if (var) {
      if (text == "and" || text == "or" || text == "not" || text == "in") return false;
      for (char& c : text)
        if (c == '.') c = '_';
    }
    advance();
    return ok_;
  }

  bool op(std::string& out) {
    if (ok_ && tok_.kind == Token::Op && comparison_op(tok_.text)) out = tok_.text;
    else if (keyword("in")) out = "in";
    else if (keyword("not")) {
      advance();
      if (!keyword("in")) return false;
      out = "not in";
    } else {
      return false;
    }
    advance();
    return ok_;
  }

  Lexer lex_;
  Token tok_;
  bool ok_ = true;
};

}  // namespace

std::optional<MarkerExpr> parse_marker(std::string_view text) { return Parser(text).parse(); }

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// A fast, strict JSON check (the grammar nlohmann reads) that drives a SAX-style handler
// without a DOM and without copying long strings. It only answers for text it is sure of:
// anything else (a syntax error, a number nlohmann may find out of range, an escape that is
// not a valid code point) returns false, and the caller asks nlohmann, whose messages the
// diagnostics quote. The text must already be valid UTF-8 (the engine checks every file).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/nesting.h"

namespace sc::json_quick {

// Decodes the body of a JSON string already checked by `string_end` (valid escapes, no lone
// surrogates) and appends it to `out`.
void decode(std::string_view body, std::string& out);

// `i` just past an opening quote: the offset of the closing quote, or npos when the string
// is not one nlohmann accepts for sure (control character, bad escape, lone surrogate, end of
// text). `escaped` says whether the body holds a backslash.
size_t string_end(std::string_view s, size_t i, bool& escaped);

// `i` at the first character of a number: the offset just past it, or npos when it is not
// a number by the JSON grammar, or is large enough that nlohmann might call it out of range.
size_t number_end(std::string_view s, size_t i);

// The handler is called like nlohmann's json_sax: null() for every number, boolean and null;
// string(s), key(s), start_object/end_object, start_array/end_array; optional hooks
// number(text) and raw_string(text as written, escapes kept) for every key and string. string() gets the
// decoded text only when handler.wants_string() says so (an empty string otherwise).
template <class H>
class Checker {
 public:
  Checker(std::string_view s, H& h) : s_(s), h_(h) {}

  // True when the whole text is one valid JSON value (with surrounding whitespace).
  bool run() {
    ws();
    if (!value()) return false;
    while (!stack_.empty()) {
      if (!after_value()) return false;
    }
    ws();
    return i_ == s_.size();
  }

 private:
  std::string_view s_;
  H& h_;
  size_t i_ = 0;
  std::vector<char> stack_;  // '{' or '[' per open container
  std::string buf_;

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool at(char c) { return i_ < s_.size() && s_[i_] == c; }

  // Reads a string at i_ into buf_ (when `keep`); false when not surely valid.
  bool str(bool keep) {
    bool escaped = false;
    size_t e = string_end(s_, i_ + 1, escaped);
    if (e == std::string_view::npos) return false;
    if constexpr (requires(H& h, std::string_view v) { h.raw_string(v); }) h_.raw_string(s_.substr(i_ + 1, e - i_ - 1));
    buf_.clear();
    if (keep && escaped) decode(s_.substr(i_ + 1, e - i_ - 1), buf_);
    else if (keep) buf_.assign(s_.substr(i_ + 1, e - i_ - 1));
    i_ = e + 1;
    return true;
  }

  bool literal(const char* word) {
    size_t n = std::strlen(word);
    if (s_.substr(i_, n) != word) return false;
    i_ += n;
    h_.null();
    return true;
  }

  // One value at i_ (whitespace skipped): a scalar, or the opening of a container.
  bool value() {
    if (i_ >= s_.size()) return false;
    char c = s_[i_];
    if (c == '"') {
      if (!str(h_.wants_string())) return false;
      h_.string(buf_);
      return true;
    }
    if (c == '{' || c == '[') return open(c);
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    size_t e = number_end(s_, i_);
    if (e == std::string_view::npos) return false;
    if constexpr (requires(H& h, std::string_view v) { h.number(v); }) h_.number(s_.substr(i_, e - i_));
    i_ = e;
    h_.null();
    return true;
  }

  bool open(char c) {
    ++i_;
    ws();
    if (c == '{') h_.start_object(static_cast<std::size_t>(-1));
    else h_.start_array(static_cast<std::size_t>(-1));
    stack_.push_back(c);
    // deeper than the parsers read (and each level is a call here): not surely valid
    if (stack_.size() > static_cast<size_t>(kMaxNesting)) return false;
    if (at(c == '{' ? '}' : ']')) {
      ++i_;
      close();
      return true;
    }
    return c == '{' ? member() : value_then_ws();
  }

  void close() {
    if (stack_.back() == '{') h_.end_object();
    else h_.end_array();
    stack_.pop_back();
  }

  // A key, its colon and its value.
  bool member() {
    if (!at('"') || !str(true)) return false;
    h_.key(buf_);
    ws();
    if (!at(':')) return false;
    ++i_;
    ws();
    return value_then_ws();
  }

  bool value_then_ws() {
    size_t depth = stack_.size();
    if (!value()) return false;
    if (stack_.size() == depth) ws();  // a scalar: the container goes on
    return true;
  }

  // After a value inside the innermost container: a comma and the next item, or its end.
  bool after_value() {
    ws();
    char close_c = stack_.back() == '{' ? '}' : ']';
    if (at(close_c)) {
      ++i_;
      close();
      return true;
    }
    if (!at(',')) return false;
    ++i_;
    ws();
    return stack_.back() == '{' ? member() : value_then_ws();
  }
};

template <class H>
bool check(std::string_view s, H& handler) {
  return Checker<H>(s, handler).run();
}

}  // namespace sc::json_quick

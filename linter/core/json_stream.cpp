// SPDX-License-Identifier: Apache-2.0
#include "core/json_stream.h"

#include "core/source.h"

namespace sc {

std::string json_dump(const nlohmann::ordered_json& v) {
  return v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

JsonStream::~JsonStream() { flush(); }

void JsonStream::flush() {
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void JsonStream::indent(size_t depth) { buf_.append(2 * depth, ' '); }

void JsonStream::open(char close) {
  next();
  buf_ += close == '}' ? '{' : '[';
  stack_.push_back({close, 0});
}

void JsonStream::next() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (buf_.size() > (1u << 16)) flush();
  buf_ += stack_.back().count++ ? ",\n" : "\n";
  indent(stack_.size());
}

void JsonStream::end() {
  Open o = stack_.back();
  stack_.pop_back();
  if (o.count) {
    buf_ += '\n';
    indent(stack_.size());
  }
  buf_ += o.close;
  if (stack_.empty()) flush();  // the document is whole: the caller may write after it
}

namespace {
// Nothing to escape and valid UTF-8: nlohmann writes the bytes as they are.
bool plain_json_text(std::string_view s) {
  bool ascii = true;
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || c == '"' || c == '\\') return false;
    ascii = ascii && b < 0x80;
  }
  return ascii || valid_utf8(s);
}
}  // namespace

void JsonStream::quoted(std::string_view s) {
  if (!plain_json_text(s)) {
    buf_ += json_dump(nlohmann::ordered_json(s));
    return;
  }
  buf_ += '"';
  buf_.append(s);
  buf_ += '"';
}

void JsonStream::key(std::string_view k) {
  next();
  quoted(k);
  buf_ += ": ";
  after_key_ = true;
}

void JsonStream::string(std::string_view v) {
  next();
  quoted(v);
}

void JsonStream::number(int64_t v) {
  next();
  buf_ += std::to_string(v);
}

void JsonStream::boolean(bool v) {
  next();
  buf_ += v ? "true" : "false";
}

// A dumped value's lines start at column 0; nested here they move right by the depth.
void JsonStream::value(const nlohmann::ordered_json& v) {
  next();
  std::string s = json_dump(v);
  size_t from = 0;
  for (size_t nl = s.find('\n'); nl != std::string::npos; nl = s.find('\n', from)) {
    buf_.append(s, from, nl + 1 - from);
    indent(stack_.size());
    from = nl + 1;
  }
  buf_.append(s, from, std::string::npos);
}

}  // namespace sc

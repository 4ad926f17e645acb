#include "core/json_stream.h"

namespace sc {

std::string json_dump(const nlohmann::ordered_json& v) {
  return v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonStream::indent(size_t depth) {
  for (size_t i = 0; i < depth; ++i) out_ << "  ";
}

void JsonStream::open(char close) {
  next();
  out_ << (close == '}' ? '{' : '[');
  stack_.push_back({close, 0});
}

void JsonStream::next() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  out_ << (stack_.back().count++ ? ",\n" : "\n");
  indent(stack_.size());
}

void JsonStream::end() {
  Open o = stack_.back();
  stack_.pop_back();
  if (o.count) {
    out_ << '\n';
    indent(stack_.size());
  }
  out_ << o.close;
}

void JsonStream::key(std::string_view k) {
  next();
  out_ << json_dump(nlohmann::ordered_json(k)) << ": ";
  after_key_ = true;
}

// A dumped value's lines start at column 0; nested here they move right by the depth.
void JsonStream::value(const nlohmann::ordered_json& v) {
  next();
  std::string s = json_dump(v);
  size_t from = 0;
  for (size_t nl = s.find('\n'); nl != std::string::npos; nl = s.find('\n', from)) {
    out_.write(s.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    indent(stack_.size());
    from = nl + 1;
  }
  out_.write(s.data() + from, static_cast<std::streamsize>(s.size() - from));
}

}  // namespace sc

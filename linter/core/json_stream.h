// SPDX-License-Identifier: Apache-2.0
// Writes a JSON document piece by piece, laid out exactly as nlohmann's
// dump(2, ' ', false, replace) lays out the whole document, so that a report
// of many findings needs memory for one finding at a time, not a DOM of all.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sc {

class JsonStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out) {}
  ~JsonStream();  // writes what is still buffered
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;
  void begin_object() { open('}'); }
  void begin_array() { open(']'); }
  void end();  // closes the innermost object or array
  void key(std::string_view k);
  void value(const nlohmann::ordered_json& v);  // an array element, or the value after key()
  void member(std::string_view k, const nlohmann::ordered_json& v) {
    key(k);
    value(v);
  }
  // Scalars written directly, byte for byte as value() writes them, without building a value.
  void string(std::string_view v);
  void number(int64_t v);
  void boolean(bool v);
  void member_string(std::string_view k, std::string_view v) { key(k), string(v); }
  void member_number(std::string_view k, int64_t v) { key(k), number(v); }
  void member_bool(std::string_view k, bool v) { key(k), boolean(v); }

 private:
  struct Open {
    char close;
    size_t count;
  };
  void open(char close);
  void flush();  // the buffer out to the stream (whenever the outermost value closes)
  void next();  // the separator and indentation before a member or element
  void indent(size_t depth);
  void quoted(std::string_view s);  // a JSON string as nlohmann dumps it
  std::ostream& out_;
  std::string buf_;  // written out in pieces of about 64 KiB: no stream call per token
  std::vector<Open> stack_;
  bool after_key_ = false;
};

// nlohmann's indented dump with invalid UTF-8 replaced, as every JSON report writes it.
std::string json_dump(const nlohmann::ordered_json& v);

}  // namespace sc

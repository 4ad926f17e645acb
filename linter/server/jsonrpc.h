// SPDX-License-Identifier: Apache-2.0
// JSON-RPC 2.0 over a byte stream with LSP's base protocol framing:
// `Content-Length: N\r\n` (other headers ignored), a blank line, then N bytes of JSON.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace sc::lsp {

using json = nlohmann::json;

// JSON-RPC error codes used here.
inline constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601,
                     kInvalidParams = -32602, kInternalError = -32603, kServerNotInitialized = -32002,
                     kRequestFailed = -32803;

class Channel {
 public:
  // A message body larger than this is never read into memory: an error answers it and
  // the input is dropped up to the next Content-Length header (a length can promise
  // 10^18 bytes that never come: skipping that many would ignore all later input).
  static constexpr size_t kMaxBody = 64u << 20;
  static constexpr size_t kMaxHeader = 8192;

  Channel(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}

  enum class Got { Message, Bad, End };
  // The next message body. Bad: framing was wrong (`why` says how); the stream is
  // positioned after the bad message where that can be known.
  Got read(std::string& body, std::string& why);
  // True when more input is already waiting (used to lint once after a burst of edits).
  bool pending() { return wait(0); }
  // True when input is waiting or arrives within `ms` milliseconds (the quiet time before a lint).
  bool wait(int ms);
  // Writes one message; false once the output is gone.
  bool send(const json& msg);

 private:
  int in_, out_;
  std::string buf_;
  bool eof_ = false;
  bool resync_ = false;  // after an oversized message: drop input up to the next header
  bool fill();  // reads more into buf_; false at end of input
  bool read_header(size_t& length, std::string& why);
  bool resync();
};

json response(const json& id, json result);
json error_response(const json& id, int code, const std::string& message);
json notification(const std::string& method, json params);

}  // namespace sc::lsp

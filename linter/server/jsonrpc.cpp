// SPDX-License-Identifier: Apache-2.0
#include "server/jsonrpc.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <utility>

#include "core/source.h"

namespace sc::lsp {

bool Channel::fill() {
  if (eof_) return false;
  char b[65536];
  for (;;) {
    ssize_t n = ::read(in_, b, sizeof b);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buf_.append(b, static_cast<size_t>(n));
    return true;
  }
}

bool Channel::wait(int ms) {
  if (!buf_.empty()) return true;
  if (eof_) return false;
  pollfd p{in_, POLLIN, 0};
  int n;
  while ((n = ::poll(&p, 1, std::max(ms, 0))) < 0 && errno == EINTR) {
  }
  return n > 0 && (p.revents & (POLLIN | POLLHUP));
}

// Parses the header block; false with `why` when it has no usable Content-Length.
bool Channel::read_header(size_t& length, std::string& why) {
  size_t end;
  while ((end = buf_.find("\r\n\r\n")) == std::string::npos) {
    if (buf_.size() > kMaxHeader) {
      why = "header block over " + std::to_string(kMaxHeader) + " bytes";
      buf_.clear();
      return false;
    }
    if (!fill()) return false;
  }
  std::string head = buf_.substr(0, end);
  buf_.erase(0, end + 4);
  bool found = false;
  for (const std::string& line : split(head, '\n')) {
    size_t at = lower(line).find("content-length:");  // anywhere: resyncs after a bad message
    if (at == std::string::npos) continue;
    std::string v = trim(std::string_view(line).substr(at + 15));
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), length);
    found = ec == std::errc() && p == v.data() + v.size();
  }
  if (!found) why = "no valid Content-Length header";
  return found;
}

// Drops input up to the next "Content-Length:" (any case) that starts a line; false at end of input.
bool Channel::resync() {
  static constexpr std::string_view kHeader = "content-length:";
  for (;;) {
    std::string low = lower(buf_);
    for (size_t at = low.find(kHeader); at != std::string::npos; at = low.find(kHeader, at + 1)) {
      if (at == 0 || buf_[at - 1] == '\n') {
        buf_.erase(0, at);
        return true;
      }
    }
    // keep a tail that may be the start of a header cut by the read
    if (buf_.size() > kHeader.size()) buf_.erase(0, buf_.size() - kHeader.size());
    if (!fill()) return false;
  }
}

Channel::Got Channel::read(std::string& body, std::string& why) {
  size_t length = 0;
  why.clear();
  if (std::exchange(resync_, false) && !resync()) return Got::End;
  if (!read_header(length, why)) return why.empty() ? Got::End : Got::Bad;
  if (length > kMaxBody) {  // answered now; the next read starts at the next header
    why = "message of " + std::to_string(length) + " bytes is over the " + std::to_string(kMaxBody) +
          "-byte limit; skipped to the next Content-Length header";
    resync_ = true;
    return Got::Bad;
  }
  while (buf_.size() < length)
    if (!fill()) return Got::End;
  body = buf_.substr(0, length);
  buf_.erase(0, length);
  return Got::Message;
}

bool Channel::send(const json& msg) {
  std::string body = msg.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::write(out_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

json response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace sc::lsp

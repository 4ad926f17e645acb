// SPDX-License-Identifier: Apache-2.0
#include "parsers/json_quick.h"

#include "parsers/ts_util.h"

namespace sc::json_quick {
namespace {

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighs = 0x8080808080808080ull;

// Bytes of `w` that are a quote, a backslash or a control character (< 0x20) have their
// high bit set in the result (exact for bytes below 0x80; bytes from 0x80 up never flag).
uint64_t stops(uint64_t w) {
  auto eq = [&](unsigned char c) {
    uint64_t x = w ^ (kOnes * c);
    return (x - kOnes) & ~x;
  };
  uint64_t below = (w - kOnes * 0x20) & ~w;
  return (eq('"') | eq('\\') | below) & kHighs;
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits at `i`, or -1.
long hex4(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return -1;
  long v = 0;
  for (size_t k = i; k < i + 4; ++k) {
    int h = hex(s[k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// `i` just past a backslash: the offset past the escape, or npos (nlohmann rejects it or
// might: a bad letter, bad hex, a surrogate not paired as UTF-16 pairs them).
size_t escape_end(std::string_view s, size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  char c = s[i];
  if (std::strchr("\"\\/bfnrt", c) && c) return i + 1;
  if (c != 'u') return std::string_view::npos;
  long cp = hex4(s, i + 1);
  if (cp < 0 || (cp >= 0xDC00 && cp < 0xE000)) return std::string_view::npos;
  if (cp < 0xD800 || cp >= 0xDC00) return i + 5;
  if (s.substr(i + 5, 2) != "\\u") return std::string_view::npos;
  long lo = hex4(s, i + 7);
  if (lo < 0xDC00 || lo >= 0xE000) return std::string_view::npos;
  return i + 11;
}

}  // namespace

size_t string_end(std::string_view s, size_t i, bool& escaped) {
  const size_t n = s.size();
  while (i < n) {
    while (i + 8 <= n) {  // eight bytes at a time over long runs (base64 images)
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (stops(w)) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"') return i;
    if (c < 0x20) return std::string_view::npos;
    if (c != '\\') { ++i; continue; }
    escaped = true;
    i = escape_end(s, i + 1);
  }
  return std::string_view::npos;
}

void decode(std::string_view body, std::string& out) {
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) { out += c; continue; }
    char e = body[++i];
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        auto cp = static_cast<uint32_t>(hex4(body, i + 1));
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {
          auto lo = static_cast<uint32_t>(hex4(body, i + 3));
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        ts::append_utf8(out, cp);
        break;
      }
      default: out += e;  // \" \\ \/
    }
  }
}

namespace {

size_t digits_end(std::string_view s, size_t i) {
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  return i;
}

}  // namespace

size_t number_end(std::string_view s, size_t i) {
  constexpr size_t npos = std::string_view::npos;
  if (i < s.size() && s[i] == '-') ++i;
  size_t b = i;
  if (i < s.size() && s[i] == '0') ++i;
  else i = digits_end(s, i);
  if (i == b || i - b > 200) return npos;  // no digit, or a magnitude worth nlohmann's own check
  if (i < s.size() && s[i] == '.') {
    size_t f = i + 1;
    i = digits_end(s, f);
    if (i == f) return npos;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t x = i;
    i = digits_end(s, x);
    if (i == x || i - x > 2) return npos;  // |exponent| < 100 with < 200 digits: finite
  }
  return i;
}

}  // namespace sc::json_quick

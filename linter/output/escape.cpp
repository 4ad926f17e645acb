// SPDX-License-Identifier: Apache-2.0
#include "output/escape.h"

#include <cstdio>

namespace sc {

namespace {
// Overlong forms, surrogates and code points above U+10FFFF (lead byte c, second byte c1).
bool utf8_forbidden(size_t n, unsigned char c, unsigned char c1) {
  if (n == 2) return c < 0xC2;
  if (n == 3) return (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0);
  return n == 4 && ((c == 0xF0 && c1 < 0x90) || c > 0xF4 || (c == 0xF4 && c1 >= 0x90));
}
}  // namespace

size_t utf8_seq_len(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  unsigned char c1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
  return utf8_forbidden(n, c, c1) ? 0 : n;
}

std::string hex_byte(unsigned char c) {
  char b[8];
  std::snprintf(b, sizeof b, "\\x%02x", c);
  return b;
}

namespace {
void hex(std::string& out, unsigned char c) { out += hex_byte(c); }
}  // namespace

std::string term_safe(std::string_view s, bool keep_tab) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_seq_len(s, i);
    if (n == 0) { hex(out, c); ++i; continue; }
    if (n == 1) {
      if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t' && keep_tab) out += '\t';
      else if (c < 0x20 || c == 0x7F) hex(out, c);
      else out += static_cast<char>(c);
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      hex(out, c);  // C1 controls (U+0080..U+009F), e.g. the 8-bit CSI
      hex(out, static_cast<unsigned char>(s[i + 1]));
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string term_path(std::string_view s) {
  std::string p = term_safe(s);
  return p.compare(0, 2, "::") == 0 ? "./" + p : p;
}

}  // namespace sc

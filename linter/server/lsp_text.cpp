// SPDX-License-Identifier: Apache-2.0
#include "server/lsp_text.h"

#include <algorithm>

namespace sc::lsp {
namespace {

// Length of the UTF-8 sequence that starts with byte `c` (1 for a stray byte).
size_t seq_len(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return c < 0xF0 ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

// Byte offset of the start of 0-based line `line` in `text` (text.size() past the end).
size_t line_offset(std::string_view text, int line) {
  size_t off = 0;
  for (int l = 0; l < line; ++l) {
    size_t nl = text.find('\n', off);
    if (nl == std::string_view::npos) return text.size();
    off = nl + 1;
  }
  return off;
}

std::string_view line_at(std::string_view text, size_t start) {
  size_t nl = text.find('\n', start);
  std::string_view l = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

}  // namespace

std::string uri_to_path(std::string_view uri) {
  if (uri.substr(0, 7) != "file://") return "";
  uri.remove_prefix(7);
  size_t slash = uri.find('/');  // skip an authority ("localhost")
  if (slash == std::string_view::npos) return "";
  uri.remove_prefix(slash);
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else if (uri[i] == '?' || uri[i] == '#') {
      break;
    } else {
      out += uri[i];
    }
  }
  if (out.find('\0') != std::string::npos) return "";
  return out;
}

std::string path_to_uri(std::string_view path) {
  static const char* digits = "0123456789ABCDEF";
  std::string out = "file://";
  for (unsigned char c : path) {
    if (unreserved(c)) { out += static_cast<char>(c); continue; }
    out += '%';
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

int utf16_of_cols(std::string_view line, int cols) {
  int units = 0;
  size_t i = 0;
  for (int c = 0; c < cols; ++c) {
    if (i >= line.size()) { units += cols - c; break; }
    size_t n = std::min(seq_len(static_cast<unsigned char>(line[i])), line.size() - i);
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

int cols_of_utf16(std::string_view line, int units) {
  int cols = 0, seen = 0;
  for (size_t i = 0; i < line.size();) {
    size_t n = std::min(seq_len(static_cast<unsigned char>(line[i])), line.size() - i);
    int w = n == 4 ? 2 : 1;
    if (seen + w > units) break;
    seen += w;
    ++cols;
    i += n;
  }
  return cols;
}

size_t bytes_of_utf16(std::string_view line, int units) {
  size_t i = 0;
  int seen = 0;
  while (i < line.size()) {
    size_t n = std::min(seq_len(static_cast<unsigned char>(line[i])), line.size() - i);
    int w = n == 4 ? 2 : 1;
    if (seen + w > units) break;
    seen += w;
    i += n;
  }
  return i;
}

Position to_lsp(const SourceFile& text, int line, int col) {
  if (line < 1) return {0, 0};
  if (line > text.line_count()) return {line - 1, std::max(col, 1) - 1};  // text gone (changed on disk): as written
  return {line - 1, utf16_of_cols(text.line(line), std::max(col, 1) - 1)};
}

void from_lsp(const SourceFile& text, Position p, int& line, int& col) {
  line = p.line + 1;
  col = line >= 1 && line <= text.line_count() ? cols_of_utf16(text.line(line), p.character) + 1 : 1;
}

void replace_range(std::string& text, Position start, Position end, std::string_view repl) {
  auto offset = [&](Position p) {
    size_t ls = line_offset(text, std::max(p.line, 0));
    if (ls >= text.size()) return text.size();
    return ls + bytes_of_utf16(line_at(text, ls), std::max(p.character, 0));
  };
  size_t b = offset(start), e = offset(end);
  if (e < b) std::swap(b, e);
  text.replace(b, e - b, repl);
}

}  // namespace sc::lsp

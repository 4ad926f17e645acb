// SPDX-License-Identifier: Apache-2.0
// Positions and document URIs as LSP has them: 0-based lines, columns in UTF-16
// code units; sparkcheck's Range has 1-based lines and code-point columns.
#pragma once
#include <string>
#include <string_view>

#include "core/source.h"

namespace sc::lsp {

struct Position {
  int line = 0, character = 0;  // 0-based; character in UTF-16 code units
};

// file:///a%20b/c -> /a b/c; "" when the URI is not a local file URI.
std::string uri_to_path(std::string_view uri);
// /a b/c -> file:///a%20b/c (RFC 3986: everything but unreserved characters and '/' escaped).
std::string path_to_uri(std::string_view path);

// UTF-16 units in the first `cols` code points of `line` (past the end: the whole line,
// plus one unit per missing column, as a column just past the end is valid).
int utf16_of_cols(std::string_view line, int cols);
// Code points in `line` before UTF-16 offset `units` (inside a surrogate pair: the pair's start).
int cols_of_utf16(std::string_view line, int units);
// Byte offset in `line` of UTF-16 offset `units` (clamped to the line).
size_t bytes_of_utf16(std::string_view line, int units);

// A sparkcheck 1-based line/column -> LSP position in `text` (a whole file).
Position to_lsp(const SourceFile& text, int line, int col);
// LSP position -> sparkcheck 1-based line/column in `text`.
void from_lsp(const SourceFile& text, Position p, int& line, int& col);

// Replaces the LSP range [start, end) of `text` with `repl` (an incremental didChange).
void replace_range(std::string& text, Position start, Position end, std::string_view repl);

}  // namespace sc::lsp

// SPDX-License-Identifier: Apache-2.0
// A cheap pre-scan run before handing text to a parser that recurses (or, in
// the system tree-sitter 0.20.7, double-frees) on very deep nesting.
#pragma once
#include <cstddef>
#include <string_view>

namespace sc {

// Files nested deeper than this are not parsed (a notification names the line).
constexpr int kMaxNesting = 1000;

struct NestingScan {
  int depth = 0;       // deepest nesting of ( [ { seen (brackets in strings count too)
  size_t offset = 0;   // byte offset where `depth` was first reached
};

// Deepest bracket nesting in `text`; stops scanning once `limit` is passed.
NestingScan max_nesting(std::string_view text, int limit = kMaxNesting);

// The same for JSON: brackets inside strings do not count (a notebook's output full of ANSI
// colour codes, "\u001b[0;31m", is not nested at all).
NestingScan max_json_nesting(std::string_view text, int limit = kMaxNesting);

// True when `text` nests deeper than kMaxNesting; *line gets the 1-based line.
bool too_deep(std::string_view text, int* line);

}  // namespace sc

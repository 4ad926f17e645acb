// SPDX-License-Identifier: Apache-2.0
// Building fixes. A rule names the text it wants changed inside a place it already reports
// (the finding's place, a word, a command); the edit is made only where that text stands
// verbatim in the file, so its range is exact in the real file (a Markdown block, a
// Dockerfile RUN body and a notebook cell are views of it).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/project.h"
#include "core/diagnostics.h"

namespace sc::query {

// An edit turning the first `old` inside `within` into `text`; nullopt when `old` is not
// there verbatim (written through a variable, split by a line continuation, escaped in a
// notebook's JSON). In a notebook `text` is JSON-escaped for the cell's source string.
std::optional<Edit> replace_in(const Project& p, const Location& within, std::string_view old, std::string text);

// The file text inside `within` (for rules that pick their own spans in it); nullopt when
// the place is not in a project file.
std::optional<std::string_view> text_in(const Project& p, const Location& within);
// An edit turning text_in(within)[offset, offset + length) into `text`.
std::optional<Edit> replace_span(const Project& p, const Location& within, size_t offset, size_t length, std::string text);

// An edit inserting `text` right after the first `anchor` inside `within`.
std::optional<Edit> insert_after(const Project& p, const Location& within, std::string_view anchor, std::string text);

// A fix made of `edits`, or nullopt when there are none or one of them could not be made.
std::optional<Fix> make_fix(std::string title, bool safe, const std::vector<std::optional<Edit>>& edits);

// `f` with `fix` attached when there is one.
inline Finding with_fix(Finding f, std::optional<Fix> fix) {
  if (fix) f.fixes.push_back(std::move(*fix));
  return f;
}

}  // namespace sc::query

// SPDX-License-Identifier: Apache-2.0
#include "query/fix.h"

namespace sc::query {
namespace {

bool json_plain(std::string_view s) {
  for (char c : s)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  return true;
}

std::string json_escaped(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string r;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') r += std::string("\\") + c;
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else if (u < 0x20) r += std::string("\\u00") + hex[u >> 4] + hex[u & 15];
    else r += c;
  }
  return r;
}

// Where `needle` first stands inside `within`, as file offsets; false when it does not.
bool locate(const ParsedFile& f, const Location& within, std::string_view needle, size_t& at) {
  size_t b = 0, e = 0;
  if (needle.empty() || !f.src.offsets(within.range, b, e)) return false;
  std::string_view region = std::string_view(f.src.text()).substr(b, e - b);
  size_t k = region.find(needle);
  if (k == std::string_view::npos) return false;
  at = b + k;
  return true;
}

std::optional<Edit> edit_at(const ParsedFile& f, size_t b, size_t e, std::string text) {
  bool notebook = f.facts->kind == FileKind::Notebook;
  std::string_view old = std::string_view(f.src.text()).substr(b, e - b);
  if (notebook && !json_plain(old)) return std::nullopt;
  Edit ed;
  ed.loc = f.src.loc(b, e);
  ed.text = notebook ? json_escaped(text) : std::move(text);
  ed.old = std::string(old);
  return ed;
}

}  // namespace

std::optional<Edit> replace_in(const Project& p, const Location& within, std::string_view old, std::string text) {
  const ParsedFile* f = p.find(within.path);
  size_t at = 0;
  if (!f || !locate(*f, within, old, at)) return std::nullopt;
  return edit_at(*f, at, at + old.size(), std::move(text));
}

std::optional<std::string_view> text_in(const Project& p, const Location& within) {
  const ParsedFile* f = p.find(within.path);
  size_t b = 0, e = 0;
  if (!f || !f->src.offsets(within.range, b, e)) return std::nullopt;
  return std::string_view(f->src.text()).substr(b, e - b);
}

std::optional<Edit> replace_span(const Project& p, const Location& within, size_t offset, size_t length, std::string text) {
  const ParsedFile* f = p.find(within.path);
  size_t b = 0, e = 0;
  if (!f || !f->src.offsets(within.range, b, e) || offset + length > e - b) return std::nullopt;
  return edit_at(*f, b + offset, b + offset + length, std::move(text));
}

std::optional<Edit> insert_after(const Project& p, const Location& within, std::string_view anchor, std::string text) {
  const ParsedFile* f = p.find(within.path);
  size_t at = 0;
  if (!f || !locate(*f, within, anchor, at)) return std::nullopt;
  return edit_at(*f, at + anchor.size(), at + anchor.size(), std::move(text));
}

std::optional<Fix> make_fix(std::string title, bool safe, const std::vector<std::optional<Edit>>& edits) {
  Fix fx{std::move(title), safe, {}};
  for (const auto& e : edits) {
    if (!e) return std::nullopt;
    fx.edits.push_back(*e);
  }
  if (fx.edits.empty()) return std::nullopt;
  return fx;
}

}  // namespace sc::query

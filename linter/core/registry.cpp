// SPDX-License-Identifier: Apache-2.0
#include "core/registry.h"

#include <algorithm>
#include <charconv>

namespace sc {

std::vector<const Parser*>& parsers() {
  static std::vector<const Parser*> v;
  return v;
}

std::vector<PostParsePass>& post_parse_passes() {
  static std::vector<PostParsePass> v;
  return v;
}

std::vector<TextNeed>& text_needs() {
  static std::vector<TextNeed> v;
  return v;
}

std::vector<const Rule*>& rules() {
  static std::vector<const Rule*> v;
  return v;
}

std::vector<CheckEntry>& registered_checks() {
  static std::vector<CheckEntry> v;
  return v;
}

namespace {

// 3 for "G3" (any case), -1 for an id that is not a G-number.
int g_number(std::string_view id) {
  if (id.size() < 2 || (id[0] != 'G' && id[0] != 'g')) return -1;
  int n = 0;
  auto [end, ec] = std::from_chars(id.data() + 1, id.data() + id.size(), n);
  return ec == std::errc() && end == id.data() + id.size() ? n : -1;
}

}  // namespace

bool rule_id_less(std::string_view a, std::string_view b) {
  int x = g_number(a), y = g_number(b);
  if ((x < 0) != (y < 0)) return x >= 0;  // G-numbers first
  if (x != y) return x < y;
  return a < b;
}

std::vector<std::string> checks_of(std::string_view id) {
  std::vector<std::string> out;
  for (const char* kind : {"lint", "probe"})
    for (const auto& e : registered_checks())
      if (e.id == id && e.kind == kind) {
        out.push_back(kind);
        break;
      }
  return out;
}

std::vector<std::string> registered_ids() {
  std::vector<std::string> v;
  for (const auto& e : registered_checks())
    if (std::find(v.begin(), v.end(), e.id) == v.end()) v.push_back(e.id);
  std::sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) { return rule_id_less(a, b); });
  return v;
}

const Parser* parser_for(const FileInfo& f) {
  const Parser* best = nullptr;
  for (const Parser* p : parsers())
    if (p->accepts(f) && (!best || p->priority() > best->priority())) best = p;
  return best;
}

}  // namespace sc

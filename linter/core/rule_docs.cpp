// SPDX-License-Identifier: Apache-2.0
#include "core/rule_docs.h"

#include <algorithm>

#include "core/registry.h"
#include "core/source.h"

namespace sc {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_rule_docs();

namespace {

std::vector<std::string> parse_list(std::string v) {
  v = trim(v);
  if (!v.empty() && v.front() == '[') v = v.substr(1);
  if (!v.empty() && v.back() == ']') v.pop_back();
  std::vector<std::string> out;
  for (auto& p : split(v, ',')) {
    auto t = trim(p);
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

void set_key(RuleDoc& d, const std::string& k, const std::string& v) {
  if (k == "id") d.id = v;
  else if (k == "name") d.name = v;
  else if (k == "short") d.short_description = v;
  else if (k == "level") d.default_level = v;
  else if (k == "precision") d.precision = v;
  else if (k == "tags") d.tags = parse_list(v);
}

// Reads the front matter into `d`; returns the body after it (all of `text` without one).
std::string_view front_matter(std::string_view text, RuleDoc& d) {
  if (!starts_with(text, "---\n")) return text;
  size_t end = text.find("\n---\n", 4);
  if (end == std::string_view::npos) return text;
  for (auto& line : split(text.substr(4, end - 4), '\n')) {
    size_t c = line.find(':');
    if (c == std::string::npos) continue;
    std::string k = trim(line.substr(0, c)), v = trim(line.substr(c + 1));
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    set_key(d, k, v);
  }
  return text.substr(end + 5);
}

// The first paragraph that is not a heading, joined into one line.
std::string first_paragraph(const std::string& markdown) {
  std::string para;
  for (auto& line : split(markdown, '\n')) {
    auto t = trim(line);
    if (t.empty()) {
      if (!para.empty()) break;
      continue;
    }
    if (t[0] == '#') continue;
    if (!para.empty()) para += ' ';
    para += t;
  }
  return para;
}

// The source's knowledge-table markers (scripts/gen-docs.sh fills the rows between them) are
// for the generator, not the reader.
std::string without_table_markers(std::string_view md) {
  std::string out;
  for (auto& line : split(md, '\n'))
    if (line.rfind("<!-- knowledge-table ", 0) != 0 && line.rfind("<!-- /knowledge-table -->", 0) != 0) out += line + "\n";
  return out;
}

RuleDoc parse_doc(std::string_view file, std::string_view text) {
  RuleDoc d;
  d.source_file = std::string(file);
  d.markdown = trim(without_table_markers(front_matter(text, d)));
  d.full_description = markdown_to_text(first_paragraph(d.markdown));
  if (d.full_description.size() > 1000) d.full_description = d.full_description.substr(0, 997) + "...";
  if (d.default_level.empty()) d.default_level = "warning";
  if (d.precision.empty()) d.precision = "high";
  return d;
}

// One line outside a code fence: heading marks, backticks and stars dropped, [text](url) -> text (url).
std::string inline_text(std::string line) {
  size_t i = 0;
  while (i < line.size() && line[i] == '#') ++i;
  if (i > 0 && i < line.size() && line[i] == ' ') line = line.substr(i + 1);
  std::string t;
  for (size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (c == '`' || c == '*') continue;
    if (c == '[') {
      size_t close = line.find("](", k);
      size_t end = close == std::string::npos ? close : line.find(')', close);
      if (close != std::string::npos && end != std::string::npos) {
        t += line.substr(k + 1, close - k - 1) + " (" + line.substr(close + 2, end - close - 2) + ")";
        k = end;
        continue;
      }
    }
    t += c;
  }
  return t;
}

}  // namespace

const std::vector<RuleDoc>& rule_docs() {
  static const std::vector<RuleDoc> docs = [] {
    std::vector<RuleDoc> v;
    for (auto& [f, t] : embedded_rule_docs()) {
      v.push_back(parse_doc(f, t));
      v.back().checks = checks_of(v.back().id);
    }
    std::sort(v.begin(), v.end(), [](const RuleDoc& a, const RuleDoc& b) { return rule_id_less(a.id, b.id); });
    return v;
  }();
  return docs;
}

int rule_index(std::string_view id) {
  auto& d = rule_docs();
  std::string want = lower(id);
  for (size_t i = 0; i < d.size(); ++i)
    if (lower(d[i].id) == want) return static_cast<int>(i);
  return -1;
}

const RuleDoc* find_rule_doc(std::string_view id) {
  int i = rule_index(id);
  return i < 0 ? nullptr : &rule_docs()[i];
}

std::string markdown_to_text(std::string_view md) {
  std::string out;
  bool in_fence = false;
  for (auto& raw : split(md, '\n')) {
    if (starts_with(trim(raw), "```")) {
      in_fence = !in_fence;
      continue;
    }
    out += in_fence ? "    " + raw : inline_text(raw);
    out += '\n';
  }
  return trim(out);
}

}  // namespace sc

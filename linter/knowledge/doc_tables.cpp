// SPDX-License-Identifier: Apache-2.0
#include "knowledge/doc_tables.h"

#include <stdexcept>
#include <vector>

#include "knowledge/knowledge.h"

namespace sc::knowledge {
namespace {

constexpr std::string_view kOpen = "<!-- knowledge-table ";
constexpr std::string_view kClose = "<!-- /knowledge-table -->";

struct Column {
  std::string header, expr;
};

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// "Header=expr; Header=expr" -> columns; empty on a malformed spec.
std::vector<Column> columns(std::string_view spec) {
  std::vector<Column> out;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(';', start);
    if (end == std::string_view::npos) end = spec.size();
    std::string_view part = spec.substr(start, end - start);
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) return {};
    Column c{trim(part.substr(0, eq)), trim(part.substr(eq + 1))};
    if (c.header.empty() || c.expr.empty()) return {};
    out.push_back(std::move(c));
    start = end + 1;
  }
  return out;
}

// A table cell never holds a bare `|` or a line break.
std::string cell_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

std::string value(const Entry& e, std::string_view expr) {
  if (size_t q = expr.find('?'); q != std::string_view::npos) {
    size_t colon = expr.find(':', q);
    std::string_view field = expr.substr(0, q);
    bool set = !e.get(field).empty() || !e.list(field).empty();
    if (colon == std::string_view::npos) return set ? std::string(expr.substr(q + 1)) : std::string();
    return std::string(set ? expr.substr(q + 1, colon - q - 1) : expr.substr(colon + 1));
  }
  bool code = expr.substr(0, 5) == "code:";
  std::string_view field = code ? expr.substr(5) : expr;
  std::vector<std::string> values = e.list(field);
  if (values.empty() && !e.get(field).empty()) values.push_back(e.get(field));
  std::string out;
  for (const std::string& v : values) {
    if (!out.empty()) out += ", ";
    out += code ? "`" + v + "`" : v;
  }
  return cell_text(out);
}

std::string rows(const Table& t, const std::vector<Column>& cols) {
  std::string out = "|";
  for (const Column& c : cols) out += " " + c.header + " |";
  out += "\n|";
  for (size_t i = 0; i < cols.size(); ++i) out += "---|";
  out += "\n";
  for (const Entry& e : t.entries) {
    out += "|";
    for (const Column& c : cols) out += " " + value(e, c.expr) + " |";
    out += "\n";
  }
  return out;
}

const Table* find_table(std::string_view name) {
  for (const Table* t : all_tables())
    if (t->name == name) return t;
  return nullptr;
}

}  // namespace

std::string render_doc_tables(std::string_view md, std::string& error) {
  std::string out;
  size_t pos = 0;
  for (size_t open = md.find(kOpen); open != std::string_view::npos; open = md.find(kOpen, pos)) {
    size_t head_end = md.find("-->", open);
    size_t line_end = md.find('\n', open);
    if (head_end == std::string_view::npos || line_end == std::string_view::npos || line_end < head_end) {
      error = "a knowledge-table marker must end with --> on its own line";
      return "";
    }
    std::string_view head = md.substr(open + kOpen.size(), head_end - open - kOpen.size());
    size_t colon = head.find(':');
    std::string name = trim(head.substr(0, colon));
    std::vector<Column> cols = colon == std::string_view::npos ? std::vector<Column>() : columns(head.substr(colon + 1));
    const Table* t = find_table(name);
    size_t close = md.find(kClose, line_end);
    if (!t || cols.empty() || close == std::string_view::npos) {
      error = !t ? "unknown knowledge table '" + name + "'"
                 : cols.empty() ? "table '" + name + "': columns are Header=field; Header=field"
                                : "table '" + name + "': no " + std::string(kClose);
      return "";
    }
    out.append(md.substr(pos, line_end + 1 - pos));
    out += rows(*t, cols);
    pos = close;
  }
  out.append(md.substr(pos));
  return out;
}

}  // namespace sc::knowledge

// SPDX-License-Identifier: Apache-2.0
#include "server/convert.h"

#include "core/rule_docs.h"
#include "core/suppress.h"
#include "output/output.h"

namespace sc::lsp {
namespace {

json position(Position p) { return {{"line", p.line}, {"character", p.character}}; }

int severity(Level l) { return l == Level::Error ? 1 : l == Level::Warning ? 2 : 3; }

json related_info(const Project& p, const Finding& f) {
  json out = json::array();
  for (const Related& r : f.related) {
    if (!r.loc.range.valid() || r.loc.path.empty()) continue;
    out.push_back({{"location", {{"uri", uri_of(p, r.loc.path)}, {"range", lsp_range(p, r.loc)}}},
                   {"message", r.message.empty() ? std::string("related place") : r.message}});
  }
  return out;
}

// The first line of the logical line holding `line` (backslash continuations joined).
int logical_start(const SourceFile& src, int line) {
  auto continued = [&](int l) {
    std::string_view t = src.line(l);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    return !t.empty() && t.back() == '\\';
  };
  while (line > 1 && continued(line - 1)) --line;
  return line;
}

std::string indent_of(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return std::string(line.substr(0, n));
}

// Whether the file kind takes `#` comments on a line of their own anywhere.
bool hash_comments(const ParsedFile& pf) {
  switch (pf.facts->kind) {
    case FileKind::Json: case FileKind::Markdown: case FileKind::Notebook: case FileKind::Unknown: return false;
    case FileKind::Lockfile: return !ends_with(pf.src.path(), ".json");
    default: return true;
  }
}

json text_edit(const Project& p, const Edit& e) {
  return {{"range", lsp_range(p, e.loc)}, {"newText", e.text}};
}

json fix_action(const Project& p, const Fix& fix, const json& diag) {
  json changes = json::object();
  for (const Edit& e : fix.edits) changes[uri_of(p, e.loc.path)].push_back(text_edit(p, e));
  return {{"title", fix.safe ? fix.title : fix.title + " (unsafe fix)"},
          {"kind", "quickfix"},
          {"diagnostics", json::array({diag})},
          {"isPreferred", fix.safe},
          {"edit", {{"changes", changes}}}};
}

}  // namespace

std::string abs_path(const Project& p, const std::string& display) {
  if (!display.empty() && display[0] == '/') return display;
  return p.root == "/" ? "/" + display : p.root + "/" + display;
}

std::string uri_of(const Project& p, const std::string& display) { return path_to_uri(abs_path(p, display)); }

json lsp_range(const Project& p, const Location& loc) {
  const Range& r = loc.range;
  if (!r.valid()) return {{"start", position({0, 0})}, {"end", position({0, 0})}};
  const ParsedFile* pf = p.find(loc.path);
  auto conv = [&](int line, int col) {
    if (pf) return to_lsp(pf->src, line, col);
    return Position{line - 1, std::max(col, 1) - 1};
  };
  Position s = conv(r.line, r.col);
  Position e = r.end_line >= r.line && r.end_line > 0 ? conv(r.end_line, r.end_col) : s;
  if (e.line < s.line || (e.line == s.line && e.character < s.character)) e = s;
  return {{"start", position(s)}, {"end", position(e)}};
}

json to_diagnostic(const Project& p, const Finding& f) {
  json d = {{"range", lsp_range(p, f.loc)},
            {"severity", severity(f.level)},
            {"code", f.rule},
            {"source", "sparkcheck"},
            {"message", f.fix.empty() ? f.message.str() : f.message + "\nFix: " + f.fix}};
  if (find_rule_doc(f.rule))
    d["codeDescription"] = {{"href", std::string(tool_information_uri()) + "/blob/main/docs/rules/" + f.rule + ".md"}};
  json rel = related_info(p, f);
  if (!rel.empty()) d["relatedInformation"] = std::move(rel);
  return d;
}

json to_diagnostic(const Project& p, const Notification& n) {
  return {{"range", lsp_range(p, {n.path, n.range})},
          {"severity", severity(n.level)},
          {"code", n.id},
          {"source", "sparkcheck"},
          {"message", n.message}};
}

std::optional<json> suppression_edit(const ParsedFile& pf, const Finding& f) {
  const SourceFile& src = pf.src;
  int line = f.loc.range.line;
  if (f.rule == kUnusedSuppression || line < 1 || line > src.line_count()) return std::nullopt;
  bool notebook = pf.facts->kind == FileKind::Notebook;
  std::string_view text = src.line(line);
  std::string body = trim(text);
  // In a notebook, a code cell's `source` is an array of JSON strings: the comment is one more.
  if (notebook && !(starts_with(body, "\"") && (ends_with(body, "\",") || ends_with(body, "\""))))
    return std::nullopt;
  if (!notebook && !hash_comments(pf)) return std::nullopt;
  if (!notebook) line = logical_start(src, line);
  if (line == 1 && starts_with(src.line(1), "#!")) return std::nullopt;  // nothing goes above a shebang
  std::string comment = "# sparkcheck: ignore[" + f.rule + "] -- TODO: why this is safe";
  std::string eol = src.text().find("\r\n") != std::string::npos ? "\r\n" : "\n";
  std::string ins = indent_of(src.line(line)) + (notebook ? "\"" + comment + "\\n\"," : comment) + eol;
  json at = position({line - 1, 0});
  return json{{"range", {{"start", at}, {"end", at}}}, {"newText", ins}};
}

namespace {

bool separator(char c) { return c == ',' || c == ' ' || c == '\t'; }

json edit_bytes(int line0, std::string_view text, size_t b, size_t e, size_t line_bytes) {
  auto pos = [&](size_t off) {
    if (off > line_bytes) return position({line0 + 1, 0});  // the start of the next line
    return position({line0, utf16_of_cols(text, utf8_cols(text, off))});
  };
  return {{"range", {{"start", pos(b)}, {"end", pos(e)}}}, {"newText", ""}};
}

// Deletes line `l` with its line break (the one before it when the file's last line has none).
json line_removal(const SourceFile& src, int l) {
  std::string_view line = src.line(l);
  if (l < src.line_count() || ends_with(src.text(), "\n")) return edit_bytes(l - 1, line, 0, line.size() + 1, line.size());
  if (l == 1) return edit_bytes(0, line, 0, line.size(), line.size());
  Position from = to_lsp(src, l - 1, utf8_cols(src.line(l - 1), src.line(l - 1).size()) + 1);
  return {{"range", {{"start", position(from)}, {"end", position(to_lsp(src, l, utf8_cols(line, line.size()) + 1))}}},
          {"newText", ""}};
}

}  // namespace

std::optional<json> removal_edit(const ParsedFile& pf, const Finding& f) {
  const SourceFile& src = pf.src;
  int l = f.loc.range.line;
  if (f.rule != kUnusedSuppression || pf.facts->kind == FileKind::Notebook || l < 1 || l > src.line_count()) return {};
  std::string_view line = src.line(l);
  size_t idb = bytes_of_utf16(line, to_lsp(src, l, f.loc.range.col).character);
  size_t ide = bytes_of_utf16(line, to_lsp(src, l, f.loc.range.end_col).character);
  size_t open = line.rfind('[', idb), close = line.find(']', ide), hash = line.rfind('#', open);
  if (open == std::string_view::npos || close == std::string_view::npos || hash == std::string_view::npos || ide <= idb)
    return {};
  size_t after = ide, before = idb;
  while (after < close && separator(line[after])) ++after;
  while (before > open + 1 && separator(line[before - 1])) --before;
  if (after < close) return edit_bytes(l - 1, line, idb, after, line.size());  // "G1, G9" -> "G9"
  if (before > open + 1) return edit_bytes(l - 1, line, before, ide, line.size());  // "G1, G9" -> "G1"
  size_t code_end = hash;  // the only id: the whole comment goes
  while (code_end > 0 && (line[code_end - 1] == ' ' || line[code_end - 1] == '\t')) --code_end;
  if (code_end == 0) return line_removal(src, l);
  return edit_bytes(l - 1, line, code_end, line.size(), line.size());
}

std::vector<json> code_actions(const Project& p, const Finding& f, const json& diag) {
  std::vector<json> out;
  for (const Fix& fix : f.fixes)
    if (!fix.edits.empty()) out.push_back(fix_action(p, fix, diag));
  const ParsedFile* pf = p.find(f.loc.path);
  if (!pf) return out;
  if (f.fixes.empty())
    if (auto edit = removal_edit(*pf, f))
      out.push_back({{"title", "Remove the unused suppression"},
                     {"kind", "quickfix"},
                     {"diagnostics", json::array({diag})},
                     {"isPreferred", true},
                     {"edit", {{"changes", {{uri_of(p, f.loc.path), json::array({*edit})}}}}}});
  if (auto edit = suppression_edit(*pf, f)) {
    json changes = {{uri_of(p, f.loc.path), json::array({*edit})}};
    out.push_back({{"title", "Suppress " + f.rule + " on this line (# sparkcheck: ignore[" + f.rule + "])"},
                   {"kind", "quickfix"},
                   {"diagnostics", json::array({diag})},
                   {"edit", {{"changes", changes}}}});
  }
  return out;
}

std::string hover_markdown(const Finding& f, bool with_doc) {
  std::string md = "**sparkcheck " + f.rule + "** (" + level_name(f.level) + "): " + f.message + "\n";
  if (!f.fix.empty()) md += "\n*Fix:* " + f.fix + "\n";
  const RuleDoc* doc = with_doc ? find_rule_doc(f.rule) : nullptr;
  if (!doc) return md;
  md += "\n---\n\n### " + doc->id + " " + doc->name + "\n\n" + doc->short_description + "\n\n" + doc->markdown;
  if (!md.empty() && md.back() != '\n') md += '\n';
  return md;
}

}  // namespace sc::lsp

// SPDX-License-Identifier: Apache-2.0
// JSON configs (DeepSpeed, hf_quant_config.json...) via tree-sitter-json,
// which keeps exact positions and recovers from errors.
#include <tree_sitter/api.h>

#include <cstring>
#include <memory>

#include "core/source.h"
#include "parsers/config.h"
#include "parsers/ts_util.h"

extern "C" const TSLanguage* tree_sitter_json(void);

namespace sc {

std::string json_unescape(std::string_view body) {
  std::string r;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) {
      char c = body[++i];
      switch (c) {
        case 'n': r += '\n'; break;
        case 't': r += '\t'; break;
        case 'u': r += '?'; i += 4; break;
        default: r += c;
      }
    } else {
      r += body[i];
    }
  }
  return r;
}

namespace {

std::string node_text(const SourceFile& src, TSNode n) {
  return src.text().substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

std::string unquote_json(const std::string& s) {
  if (s.size() < 2 || s.front() != '"') return s;
  return json_unescape(std::string_view(s).substr(1, s.size() - 2));
}

// Configs are small; data files (metrics, golden values) can hold millions of
// values that no rule reads. Stop extracting after this many.
constexpr size_t kMaxEntries = 100000;
constexpr size_t kMaxChildren = 256;   // per object/array: enough for any config

struct JsonWalker {
  const SourceFile& src;
  std::vector<ConfigEntry>& out;
  int depth = 0;

  Location loc(TSNode n) { return src.loc(ts_node_start_byte(n), ts_node_end_byte(n)); }

  void value(TSNode v, std::vector<std::string>& path, const Location& kl) {
    if (ts_node_is_null(v) || ++depth > 200) { if (!ts_node_is_null(v)) --depth; return; }
    std::string type = ts_node_type(v);
    ConfigEntry e;
    e.path = path;
    e.key_loc = kl;
    e.value_loc = loc(v);
    if (type == "object") {
      e.scalar = false;
      if (!path.empty()) out.push_back(std::move(e));
      size_t seen = 0;
      ts::each_named_child(v, [&](TSNode pair) {
        if (out.size() >= kMaxEntries || ++seen > kMaxChildren) return false;
        if (std::strcmp(ts_node_type(pair), "pair") != 0) return true;
        TSNode k = ts_node_child_by_field_name(pair, "key", 3);
        TSNode val = ts_node_child_by_field_name(pair, "value", 5);
        if (ts_node_is_null(k)) return true;
        path.push_back(unquote_json(node_text(src, k)));
        value(val, path, loc(k));
        path.pop_back();
        return true;
      });
    } else if (type == "array") {
      e.scalar = false;
      if (!path.empty()) out.push_back(std::move(e));
      uint32_t idx = 0;
      ts::each_named_child(v, [&](TSNode c) {
        if (out.size() >= kMaxEntries || idx >= kMaxChildren) return false;
        if (std::strcmp(ts_node_type(c), "comment") == 0) return true;
        path.push_back("[" + std::to_string(idx++) + "]");
        value(c, path, loc(c));
        path.pop_back();
        return true;
      });
    } else {
      std::string t = node_text(src, v);
      e.value = type == "string" ? unquote_json(t) : t;
      if (!path.empty()) out.push_back(std::move(e));
    }
    --depth;
  }
};

TSNode first_error(TSNode n) {
  if (ts_node_is_missing(n) || std::string(ts_node_type(n)) == "ERROR") return n;
  TSNode found{};
  ts::each_child(n, false, [&](TSNode ch) {
    if (ts_node_has_error(ch) || ts_node_is_missing(ch)) found = first_error(ch);
    return ts_node_is_null(found);
  });
  return found;
}

}  // namespace

void json_entries(const SourceFile& src, std::vector<ConfigEntry>& out, ParseDiag& diag) {
  if (ts::refuse_deep(src, src.text(), diag, 0, true)) return;
  ts::ParserPtr p = ts::new_parser();
  if (!ts_parser_set_language(p.get(), tree_sitter_json())) {
    diag.error(src.path(), {}, "internal: JSON grammar failed to load", "internal-error");
    return;
  }
  ts_parser_set_timeout_micros(p.get(), 10'000'000);
  ts::TreePtr tree = ts::parse(p.get(), src.text());
  if (!tree) {
    diag.error(src.path(), {}, "JSON parse timed out", "parse-timeout");
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) {
    TSNode e = first_error(root);
    Range r = ts_node_is_null(e) ? Range{}
                                 : src.range(ts_node_start_byte(e), std::max(ts_node_end_byte(e), ts_node_start_byte(e) + 1));
    std::string what = ts_node_is_null(e) ? "" : ts_node_is_missing(e) ? std::string(": missing ") + ts_node_type(e)
                                                                       : ": unexpected input";
    // Python's json writes NaN/Infinity, which strict JSON does not allow: name it.
    size_t b = ts_node_is_null(e) ? 0 : ts_node_start_byte(e);
    for (const char* word : {"NaN", "Infinity"}) {
      size_t at = src.text().find(word, b);
      if (at == std::string::npos || (at > 0 && std::isalnum(static_cast<unsigned char>(src.text()[at - 1])))) continue;
      size_t colon = src.text().find_last_not_of(" \t\r\n-", at == 0 ? 0 : at - 1);
      if (colon == std::string::npos || (src.text()[colon] != ':' && src.text()[colon] != '[' && src.text()[colon] != ','))
        continue;
      r = src.range(at, at + std::strlen(word));
      what = std::string(": ") + word + " is not a JSON value (Python's json writes it; strict parsers reject it)";
      break;
    }
    diag.error(src.path(), r,
               std::string("JSON syntax error") +
                   (r.valid() ? " at line " + std::to_string(r.line) + ", column " + std::to_string(r.col) : "") + what);
  }
  JsonWalker w{src, out};
  ts::each_named_child(root, [&](TSNode ch) {
    std::vector<std::string> path;
    w.value(ch, path, Location{src.path(), {}});
  });
}

namespace {
class JsonParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Json; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return ends_with(n, ".json") && n != "package-lock.json";
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    json_entries(src, out.config.edit(), diag);
  }
};
}  // namespace
SPARKCHECK_PARSER(JsonParser);

}  // namespace sc

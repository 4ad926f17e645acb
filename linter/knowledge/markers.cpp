// SPDX-License-Identifier: Apache-2.0
// PEP 508 environment markers evaluated against known marker values (three-valued).
#include "knowledge/markers.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/source.h"
#include "knowledge/knowledge.h"
#include "knowledge/versions.h"
#include "parsers/packaging.h"

namespace sc {
namespace {

using R = MarkerResult;

R from_bool(bool b) { return b ? R::True : R::False; }

// A PEP 440 version as far as ordering goes: "3.12", "2.5.1rc1", "1.0.post2"; "aarch64" is none.
bool looks_like_version(std::string_view s) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '!' || c == '-' || c == '_';
  });
}

// The first `n` release numbers of `v` equal those of `prefix` ("3.12.1" starts with "3.12").
bool release_prefix(std::string_view v, std::string_view prefix) {
  auto a = split(v, '.'), b = split(prefix, '.');
  if (b.size() > a.size()) a.resize(b.size(), "0");
  for (size_t i = 0; i < b.size(); ++i)
    if (knowledge::compare_versions(a[i], b[i]) != 0) return false;
  return true;
}

// "X.*" wildcards (== / !=) and ~= compatible releases, PEP 440.
std::optional<bool> version_compare(std::string_view l, const std::string& op, std::string_view r) {
  bool wild = ends_with(r, ".*");
  std::string_view base = wild ? r.substr(0, r.size() - 2) : r;
  if (!looks_like_version(l) || !looks_like_version(base)) return std::nullopt;
  if (wild && (op == "==" || op == "!=")) return release_prefix(l, base) == (op == "==");
  if (wild) return std::nullopt;
  int c = knowledge::compare_versions(l, r);
  if (op == "==") return c == 0;
  if (op == "!=") return c != 0;
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  if (op == ">=") return c >= 0;
  if (op == "~=") {
    size_t dot = r.rfind('.');
    return dot != std::string_view::npos && c >= 0 && release_prefix(l, r.substr(0, dot));
  }
  return std::nullopt;
}

// Python's behaviour for strings (PEP 508 falls back to it when the sides are not versions).
bool string_compare(const std::string& l, const std::string& op, const std::string& r) {
  if (op == "in") return r.find(l) != std::string::npos;
  if (op == "not in") return r.find(l) == std::string::npos;
  if (op == "==" || op == "===") return l == r;
  if (op == "!=") return l != r;
  if (op == "<") return l < r;
  if (op == "<=") return l <= r;
  if (op == ">") return l > r;
  if (op == ">=") return l >= r;
  return false;  // ~= on strings: an error in PEP 508, never true
}

std::optional<std::string> side(const std::string& text, bool var, const MarkerValues& values) {
  if (!var) return text;
  auto it = values.find(text);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

R compare(const MarkerExpr& e, const MarkerValues& values) {
  auto l = side(e.left, e.left_var, values), r = side(e.right, e.right_var, values);
  if (!l || !r) return R::Unknown;
  if (e.op != "in" && e.op != "not in" && e.op != "===")
    if (auto v = version_compare(*l, e.op, *r)) return from_bool(*v);
  return from_bool(string_compare(*l, e.op, *r));
}

R evaluate(const MarkerExpr& e, const MarkerValues& values) {
  if (e.kind == MarkerExpr::Kind::Compare) return compare(e, values);
  bool is_or = e.kind == MarkerExpr::Kind::Or;
  R decisive = is_or ? R::True : R::False;  // one true term decides `or`, one false term `and`
  bool unknown = false;
  for (const MarkerExpr& t : e.terms) {
    R v = evaluate(t, values);
    if (v == decisive) return decisive;
    unknown = unknown || v == R::Unknown;
  }
  return unknown ? R::Unknown : (is_or ? R::False : R::True);
}

}  // namespace

const MarkerValues& spark_marker_values() {
  static const MarkerValues values = [] {
    MarkerValues m;
    for (const knowledge::Entry& e : knowledge::table("spark-marker-values").entries) m[e.get("name")] = e.get("value");
    return m;
  }();
  return values;
}

MarkerResult evaluate_marker(std::string_view marker, const MarkerValues& values) {
  if (trim(marker).empty()) return R::True;
  auto tree = parse_marker(marker);
  return tree ? evaluate(*tree, values) : R::Unknown;
}

bool marker_false_on_spark(std::string_view marker) {
  return evaluate_marker(marker, spark_marker_values()) == R::False;
}

}  // namespace sc

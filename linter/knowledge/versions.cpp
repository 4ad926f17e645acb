// SPDX-License-Identifier: Apache-2.0
#include "knowledge/versions.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <initializer_list>
#include <tuple>
#include <utility>
#include <vector>

namespace sc::knowledge {
namespace {
// A PEP 440 version as a sort key: release numbers, then pre-release
// (a < b < rc), post-release and development release. A local part (+...) and
// anything unparsed are ignored.
struct Pep440 {
  std::vector<long> release;
  std::pair<int, long> pre{3, 0};  // phase 0 a, 1 b, 2 rc; 3 none; -1 dev-only release
  long post = -1;                   // -1: none
  long dev = LONG_MAX;              // LONG_MAX: none
};

bool take_number(std::string_view& s, long& out) {
  out = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<size_t>(p - s.data()));
  return true;
}

// "rc1", ".post2", "-dev3": the label among `labels` (longest first) and its number.
bool take_label(std::string_view& s, std::initializer_list<std::pair<const char*, int>> labels, int& which, long& n) {
  std::string_view t = s;
  if (!t.empty() && (t[0] == '.' || t[0] == '-' || t[0] == '_')) t.remove_prefix(1);
  for (auto& [label, w] : labels) {
    std::string_view l(label);
    if (t.size() < l.size() || t.substr(0, l.size()) != l) continue;
    if (t.size() > l.size() && std::isalpha(static_cast<unsigned char>(t[l.size()]))) continue;  // "cu130" is no "c"
    t = t.substr(l.size());
    if (!t.empty() && (t[0] == '.' || t[0] == '-' || t[0] == '_')) t.remove_prefix(1);
    if (!take_number(t, n)) n = 0;
    which = w;
    s = t;
    return true;
  }
  return false;
}

Pep440 parse_pep440(std::string_view text) {
  Pep440 v;
  std::string_view s = text;
  while (!s.empty() && !std::isdigit(static_cast<unsigned char>(s[0]))) s.remove_prefix(1);
  for (long n = 0; take_number(s, n);) {
    v.release.push_back(n);
    if (s.size() < 2 || s[0] != '.' || !std::isdigit(static_cast<unsigned char>(s[1]))) break;
    s.remove_prefix(1);
  }
  int which = 0;
  long n = 0;
  if (take_label(s, {{"alpha", 0}, {"beta", 1}, {"preview", 2}, {"pre", 2}, {"rc", 2}, {"a", 0}, {"b", 1}, {"c", 2}}, which, n))
    v.pre = {which, n};
  if (take_label(s, {{"post", 0}, {"rev", 0}, {"r", 0}}, which, n)) v.post = n;
  else if (s.size() > 1 && s[0] == '-' && std::isdigit(static_cast<unsigned char>(s[1]))) {
    s.remove_prefix(1);
    if (take_number(s, n)) v.post = n;  // "1.0-1" is 1.0.post1
  }
  if (take_label(s, {{"dev", 0}}, which, n)) v.dev = n;
  if (v.pre.first == 3 && v.post < 0 && v.dev != LONG_MAX) v.pre = {-1, 0};
  return v;
}
}  // namespace

int compare_versions(std::string_view a, std::string_view b) {
  Pep440 x = parse_pep440(a), y = parse_pep440(b);
  size_t n = std::max(x.release.size(), y.release.size());
  for (size_t i = 0; i < n; ++i) {
    long p = i < x.release.size() ? x.release[i] : 0, q = i < y.release.size() ? y.release[i] : 0;
    if (p != q) return p < q ? -1 : 1;
  }
  auto kx = std::make_tuple(x.pre, x.post, x.dev), ky = std::make_tuple(y.pre, y.post, y.dev);
  return kx < ky ? -1 : ky < kx ? 1 : 0;
}

namespace {
bool is_prerelease(const Pep440& v) { return v.pre.first != 3 || v.dev != LONG_MAX; }

// "5.6.0rc1" for bound "5.6.0": a pre- or development release of a final release.
bool prerelease_of(std::string_view version, std::string_view bound) {
  Pep440 v = parse_pep440(version), b = parse_pep440(bound);
  if (!is_prerelease(v) || is_prerelease(b) || v.post >= 0) return false;
  size_t n = std::max(v.release.size(), b.release.size());
  for (size_t i = 0; i < n; ++i)
    if ((i < v.release.size() ? v.release[i] : 0) != (i < b.release.size() ? b.release[i] : 0)) return false;
  return true;
}
}  // namespace

// A range names a release series: `min` admits its own pre-releases (5.5.0rc1 is the
// 5.5 code), `below` excludes the next series' pre-releases, as PEP 440's `<` does.
bool version_in_range(const Entry& e, std::string_view version) {
  if (version.empty()) return false;
  const std::string &min = e.get("min"), &max = e.get("max"), &below = e.get("below");
  bool from_min = min.empty() || compare_versions(version, min) >= 0 || prerelease_of(version, min);
  bool to_max = max.empty() || compare_versions(version, max) <= 0;
  bool under = below.empty() || (compare_versions(version, below) < 0 && !prerelease_of(version, below));
  return from_min && to_max && under;
}

}  // namespace sc::knowledge

namespace sc::knowledge {
namespace {

// One `OPvalue` clause of a specifier against `version`; true for a clause it cannot read.
bool clause_allows(std::string_view c, std::string_view version) {
  size_t op = 0;
  while (op < c.size() && std::string_view("<>=!~").find(c[op]) != std::string_view::npos) ++op;
  std::string_view o = c.substr(0, op), v = c.substr(op);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  if (v.empty()) return true;
  if (v.ends_with(".*")) {  // ==2.9.* / !=2.9.*
    std::string_view prefix = v.substr(0, v.size() - 1);
    bool in = version.starts_with(prefix) || version == v.substr(0, v.size() - 2);
    return o == "!=" ? !in : in;
  }
  int cmp = compare_versions(version, v);
  if (o == ">=") return cmp >= 0;
  if (o == ">") return cmp > 0;
  if (o == "<=") return cmp <= 0;
  if (o == "<") return cmp < 0;
  if (o == "==" || o == "===") return cmp == 0;
  if (o == "!=") return cmp != 0;
  if (o == "~=") {  // ~=2.9.1: >=2.9.1, ==2.9.*
    size_t dot = v.rfind('.');
    if (cmp < 0 || dot == std::string_view::npos) return cmp >= 0;
    std::string_view prefix = v.substr(0, dot + 1);
    return version.starts_with(prefix);
  }
  return true;
}

}  // namespace

bool specifier_allows(std::string_view spec, std::string_view version) {
  size_t i = 0;
  while (i <= spec.size()) {
    size_t e = spec.find(',', i);
    std::string_view c = spec.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
    while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
    while (!c.empty() && c.back() == ' ') c.remove_suffix(1);
    if (!c.empty() && !clause_allows(c, version)) return false;
    if (e == std::string_view::npos) break;
    i = e + 1;
  }
  return true;
}

}  // namespace sc::knowledge

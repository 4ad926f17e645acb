#include "knowledge/versions.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace sc::knowledge {
namespace {

std::vector<long> version_parts(std::string_view v) {
  std::vector<long> out;
  size_t i = 0;
  while (i < v.size() && !std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    long n = 0;
    auto [end, ec] = std::from_chars(v.data() + i, v.data() + v.size(), n);
    if (ec != std::errc()) break;
    out.push_back(n);
    i = static_cast<size_t>(end - v.data());
    if (i >= v.size() || v[i] != '.') break;
    ++i;
  }
  return out;
}

}  // namespace

int compare_versions(std::string_view a, std::string_view b) {
  auto x = version_parts(a), y = version_parts(b);
  size_t n = std::max(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) {
    long p = i < x.size() ? x[i] : 0, q = i < y.size() ? y[i] : 0;
    if (p != q) return p < q ? -1 : 1;
  }
  return 0;
}

bool version_in_range(const Entry& e, std::string_view version) {
  if (version.empty()) return false;
  const std::string &min = e.get("min"), &max = e.get("max"), &below = e.get("below");
  return (min.empty() || compare_versions(version, min) >= 0) && (max.empty() || compare_versions(version, max) <= 0) &&
         (below.empty() || compare_versions(version, below) < 0);
}

}  // namespace sc::knowledge

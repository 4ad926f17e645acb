// CUDA versions of wheel indexes, package names and container images, and the
// platforms a requirement installs on.
#include "knowledge/cuda.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/source.h"
#include "knowledge/knowledge.h"

namespace sc {

int cuda_tag_value(std::string_view tag) {
  std::string t = lower(tag);
  if (!starts_with(t, "cu") || t.size() < 4) return -1;
  for (size_t i = 2; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return -1;
  int v = std::stoi(t.substr(2));
  if (t.size() == 4) v *= 10;  // "cu12" -> 120
  return v;
}

int cuda_of_url(std::string_view url) {
  std::string u = lower(url);
  size_t q = u.find_first_of("?#");
  if (q != std::string::npos) u = u.substr(0, q);
  for (auto& seg : split(u, '/')) {
    int v = cuda_tag_value(seg);
    if (v > 0) return v;
  }
  return -1;
}

bool is_ngc_framework_image(std::string_view ref) {
  std::string r = lower(ref);
  if (!starts_with(r, "nvcr.io/nvidia/")) return false;
  std::string rest = r.substr(15);
  size_t colon = rest.find(':');
  if (colon == std::string::npos) return false;
  std::string repo = rest.substr(0, colon), tag = rest.substr(colon + 1);
  if (!knowledge::in("ngc-framework-repos", repo)) return false;
  return tag.size() >= 5 && std::isdigit(static_cast<unsigned char>(tag[0])) &&
         std::isdigit(static_cast<unsigned char>(tag[1])) && tag[2] == '.' &&
         std::isdigit(static_cast<unsigned char>(tag[3])) && std::isdigit(static_cast<unsigned char>(tag[4]));
}

ImageCuda image_cuda(std::string_view ref_in) {
  ImageCuda ic;
  std::string ref = lower(ref_in);
  size_t dig = ref.find('@');
  if (dig != std::string::npos) ref = ref.substr(0, dig);
  size_t slash = ref.rfind('/');
  size_t colon = ref.rfind(':');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return ic;
  std::string repo = ref.substr(0, colon), tag = ref.substr(colon + 1);
  auto num_at = [](const std::string& s, size_t& i) {
    int v = 0;
    bool any = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      v = v * 10 + (s[i++] - '0');
      any = true;
    }
    return any ? v : -1;
  };
  // nvidia/cuda:<major>.<minor>.<patch>-...
  if (repo == "nvidia/cuda" || ends_with(repo, "/nvidia/cuda")) {
    size_t i = 0;
    int maj = num_at(tag, i);
    if (maj > 0 && i < tag.size() && tag[i] == '.') {
      ++i;
      int min = num_at(tag, i);
      if (min >= 0) {
        ic.known = true;
        ic.major = maj;
        ic.minor = min;
        ic.how = "nvidia/cuda:" + tag + " is CUDA " + std::to_string(maj) + "." + std::to_string(min);
        return ic;
      }
    }
    return ic;
  }
  // NGC monthly framework releases: YY.MM. (The NeMo framework container's CUDA per tag is
  // not verified: it counts as an NGC framework image but its CUDA stays unknown.)
  if (is_ngc_framework_image(ref) && !starts_with(ref, "nvcr.io/nvidia/nemo:")) {
    int yymm = std::stoi(tag.substr(0, 2)) * 100 + std::stoi(tag.substr(3, 2));
    struct Row { int from; int major, minor; };
    static const Row rows[] = {{2609, 13, 4}, {2606, 13, 3}, {2603, 13, 2}, {2601, 13, 1},
                               {2508, 13, 0}, {2506, 12, 9}, {2501, 12, 8}, {2408, 12, 6},
                               {2406, 12, 5}, {2404, 12, 4}, {2401, 12, 3}, {2301, 12, 0}, {0, 11, 8}};
    for (const auto& row : rows)
      if (yymm >= row.from) {
        ic.known = true;
        ic.ngc = true;
        ic.major = row.major;
        ic.minor = row.minor;
        ic.how = "NGC " + tag.substr(0, 5) + " release (CUDA " + std::to_string(row.major) +
                 (row.major == 13 ? "" : "." + std::to_string(row.minor)) + ")";
        return ic;
      }
  }
  // Any other image whose tag spells its CUDA: "2.5.1-cuda12.4-cudnn9-devel", "latest-cu130",
  // "25.10-cuda13-py3.13".
  for (auto& part : split(tag, '-')) {
    std::string p = part;
    size_t i;
    if (starts_with(p, "cuda")) {
      i = 4;
      int maj = num_at(p, i);
      if (maj <= 0) continue;
      int min = 0;
      bool minor_known = false;
      if (i < p.size() && p[i] == '.') {
        ++i;
        min = num_at(p, i);
        minor_known = min >= 0;
        if (min < 0) min = 0;
      }
      if (maj >= 100) { min = maj % 10; maj /= 10; minor_known = true; }
      ic.known = true;
      ic.major = maj;
      ic.minor = minor_known ? min : (maj >= 13 ? 0 : -1);
      ic.how = "image tag " + tag + " names CUDA " + std::to_string(maj) +
               (minor_known ? "." + std::to_string(min) : "");
      return ic;
    }
    int v = cuda_tag_value(p);
    if (v > 0) {
      ic.known = true;
      ic.major = v / 10;
      ic.minor = v % 10;
      ic.how = "image tag " + tag + " names CUDA " + std::to_string(ic.major) + "." + std::to_string(ic.minor);
      return ic;
    }
  }
  return ic;
}

int cuda_major_of_package(const Requirement& r) {
  if (!r.local_version.empty()) {
    int v = cuda_tag_value(r.local_version);
    if (v > 0) return v / 10;
  }
  for (auto& e : r.extras) {
    if (starts_with(e, "cuda")) {
      size_t i = 4;
      int v = 0;
      bool any = false;
      while (i < e.size() && std::isdigit(static_cast<unsigned char>(e[i]))) { v = v * 10 + (e[i++] - '0'); any = true; }
      if (any && v >= 10 && v <= 14) return v;
    }
  }
  // Name segments: "-cu12", "-cu12-libs", "cupy-cuda12x", "jax-cuda12-plugin".
  for (auto& seg : split(r.name, '-')) {
    std::string s = seg;
    if (ends_with(s, "x") && starts_with(s, "cuda")) s = s.substr(0, s.size() - 1);
    std::string digits;
    if (starts_with(s, "cuda")) digits = s.substr(4);
    else if (starts_with(s, "cu")) digits = s.substr(2);
    else continue;
    if (digits.size() != 2 || !std::isdigit(static_cast<unsigned char>(digits[0])) ||
        !std::isdigit(static_cast<unsigned char>(digits[1])))
      continue;
    int v = std::stoi(digits);
    if (v >= 10 && v <= 14) return v;
  }
  if (r.name == "sgl-kernel" && r.url.empty()) return 12;  // PyPI build links libcudart.so.12
  return 0;
}

bool requirement_skips_aarch64(const Requirement& r) {
  std::string m;
  for (char c : lower(r.marker))
    if (c != ' ' && c != '"' && c != '\'') m += c;
  for (const char* x : {"platform_machine==x86_64", "platform_machine==amd64", "platform_machine!=aarch64",
                        "platform_machine!=arm64", "x86_64==platform_machine", "aarch64!=platform_machine",
                        "sys_platform==win32", "sys_platform==darwin", "platform_system==windows",
                        "platform_system==darwin", "sys_platform!=linux"})
    if (m.find(x) != std::string::npos) return true;
  std::string u = lower(r.url);
  if (ends_with(u, ".whl") || u.find(".whl#") != std::string::npos) {
    bool arm = u.find("aarch64") != std::string::npos || u.find("arm64") != std::string::npos ||
               u.find("-any.whl") != std::string::npos || u.find("-none-any") != std::string::npos;
    bool other = u.find("x86_64") != std::string::npos || u.find("win_amd64") != std::string::npos ||
                 u.find("macosx") != std::string::npos || u.find("amd64") != std::string::npos;
    if (other && !arm) return true;
  }
  return false;
}

}  // namespace sc

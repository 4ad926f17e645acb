// SPDX-License-Identifier: Apache-2.0
// CUDA versions of wheel indexes, package names and container images, and the
// platforms a requirement installs on.
#include "knowledge/cuda.h"

#include <cctype>
#include <charconv>

#include "core/source.h"
#include "knowledge/knowledge.h"
#include "knowledge/markers.h"
#include "knowledge/versions.h"

namespace sc {
namespace {

bool digits_only(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Leading digits of s from i on (advancing i); -1 when none or too large.
int num_at(std::string_view s, size_t& i) {
  size_t start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return digits_value(s.substr(start, i - start)).value_or(-1);
}

int threshold(std::string_view name, std::string_view key) {
  const knowledge::Entry* e = knowledge::table("cuda-thresholds").find(name);
  return e ? e->number(key, -1) : -1;
}

// "YY.MM..." -> YYMM, or nullopt.
std::optional<int> ngc_yymm(std::string_view tag) {
  if (tag.size() < 5 || tag[2] != '.') return std::nullopt;
  auto yy = digits_value(tag.substr(0, 2)), mm = digits_value(tag.substr(3, 2));
  if (!yy || !mm) return std::nullopt;
  return *yy * 100 + *mm;
}

ImageCuda cuda_base_image(const std::string& tag) {
  ImageCuda ic;
  size_t i = 0;
  int maj = num_at(tag, i);
  if (maj <= 0 || i >= tag.size() || tag[i] != '.') return ic;
  ++i;
  int min = num_at(tag, i);
  if (min < 0) return ic;
  ic.known = true;
  ic.major = maj;
  ic.minor = min;
  ic.how = "nvidia/cuda:" + tag + " is CUDA " + std::to_string(maj) + "." + std::to_string(min);
  return ic;
}

ImageCuda ngc_release(const std::string& tag) {
  ImageCuda ic;
  auto yymm = ngc_yymm(tag);
  if (!yymm) {
    ic.unreadable = true;
    return ic;
  }
  for (const knowledge::Entry& row : knowledge::table("ngc-cuda-releases").entries) {
    if (*yymm < row.number("from")) continue;
    ic.known = ic.ngc = true;
    ic.major = row.number("major");
    ic.minor = row.number("minor");
    ic.how = "NGC " + tag.substr(0, 5) + " release (CUDA " + std::to_string(ic.major) +
             (ic.major == 13 ? "" : "." + std::to_string(ic.minor)) + ")";
    return ic;
  }
  return ic;
}

// A tag part "cuda12.4", "cuda13", "cuda128".
ImageCuda cuda_tag_part(const std::string& tag, const std::string& p) {
  ImageCuda ic;
  size_t i = 4;
  int maj = num_at(p, i);
  if (maj <= 0) return ic;
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
  ic.how = "image tag " + tag + " names CUDA " + std::to_string(maj) + (minor_known ? "." + std::to_string(min) : "");
  return ic;
}

// Any other image whose tag spells its CUDA: "2.5.1-cuda12.4-cudnn9-devel", "latest-cu130".
ImageCuda tag_spelled(const std::string& tag) {
  for (auto& p : split(tag, '-')) {
    if (starts_with(p, "cuda")) {
      ImageCuda ic = cuda_tag_part(tag, p);
      if (ic.known) return ic;
      continue;
    }
    int v = cuda_tag_value(p);
    if (v <= 0) continue;
    ImageCuda ic;
    ic.known = true;
    ic.major = v / 10;
    ic.minor = v % 10;
    ic.how = "image tag " + tag + " names CUDA " + std::to_string(ic.major) + "." + std::to_string(ic.minor);
    return ic;
  }
  return {};
}

// First capture of the first entry in `table_name` whose pattern matches `text`, as a CUDA major.
int major_from(std::string_view table_name, std::string_view text) {
  for (const knowledge::Entry* e : knowledge::table(table_name).matches(text))
    if (auto g = e->capture(text))
      if (auto v = digits_value(*g)) return *v;
  return 0;
}

}  // namespace

std::optional<int> digits_value(std::string_view text) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

CudaTag cuda_tag(std::string_view tag) {
  std::string t = lower(tag);
  if (!starts_with(t, "cu") || !digits_only(std::string_view(t).substr(2))) return {};
  std::string_view d = std::string_view(t).substr(2);
  if (d.size() < 2) return {};
  auto v = digits_value(d);
  if (d.size() > 3 || !v) return {-1, true};
  return {d.size() == 2 ? *v * 10 : *v, false};
}

int cuda_tag_value(std::string_view tag) { return cuda_tag(tag).value; }

int cuda_of_url(std::string_view url) {
  std::string u = lower(url);
  size_t q = u.find_first_of("?#");
  if (q != std::string::npos) u = u.substr(0, q);
  std::vector<std::string> segs = split(u, '/');
  for (auto& seg : segs) {
    int v = cuda_tag_value(seg);
    if (v > 0) return v;
  }
  // a find-links page named for the build: PyG's whl/torch-2.1.0+cu121.html
  size_t plus = segs.empty() ? std::string::npos : segs.back().find("+cu");
  if (plus == std::string::npos) return -1;
  std::string tag = segs.back().substr(plus + 1);
  return cuda_tag_value(tag.substr(0, tag.find('.')));
}

int last_cuda_without_blackwell() { return threshold("last-without-blackwell", "cuda"); }
int first_cuda13() { return threshold("first-cuda13", "cuda"); }

std::string pypi_aarch64_cpu_only_through() { return knowledge::table("pypi-aarch64-torch").find("cpu-only")->get("through"); }
std::string pypi_aarch64_first_unsettled() { return knowledge::table("pypi-aarch64-torch").find("cpu-only")->get("next"); }

std::string ngc_repo(std::string_view ref) {
  std::string r = lower(ref);
  if (!starts_with(r, "nvcr.io/nvidia/")) return {};
  std::string rest = r.substr(15);
  size_t colon = rest.find(':');
  return colon == std::string::npos ? std::string() : rest.substr(0, colon);
}

bool is_ngc_framework_image(std::string_view ref) {
  std::string repo = ngc_repo(ref);
  if (repo.empty() || !knowledge::in("ngc-framework-repos", repo)) return false;
  std::string tag = lower(ref).substr(15 + repo.size() + 1);
  return tag.size() >= 5 && std::isdigit(static_cast<unsigned char>(tag[0])) &&
         std::isdigit(static_cast<unsigned char>(tag[1])) && tag[2] == '.' &&
         std::isdigit(static_cast<unsigned char>(tag[3])) && std::isdigit(static_cast<unsigned char>(tag[4]));
}

// An NGC image (NeMo) whose CUDA per tag is not published but which builds on an NGC
// PyTorch release of an earlier month: a tag before the first CUDA 13 release is CUDA 12 at
// most (the same month's CUDA is an upper bound); a later tag stays unknown.
ImageCuda built_on_earlier_release(const std::string& repo, const std::string& tag) {
  ImageCuda ic = ngc_release(tag);
  if (!ic.known || ic.major >= 13) return ic.unreadable ? ic : ImageCuda{};
  ic.how = "NGC " + tag.substr(0, 5) + " " + repo + " release (built on an earlier NGC PyTorch release: CUDA 12)";
  return ic;
}

// A plain release tag (v0.8.5, 0.8.5.post1) of an image in knowledge image-release-cuda.
ImageCuda release_image(const std::string& repo, const std::string& tag) {
  std::string v = starts_with(tag, "v") ? tag.substr(1) : tag;
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) ||
      v.find_first_not_of("0123456789.post") != std::string::npos)
    return {};
  for (const knowledge::Entry* e : knowledge::table("image-release-cuda").matches(repo)) {
    if (!version_in_range(*e, v)) continue;
    ImageCuda ic;
    ic.known = true;
    ic.major = e->number("major");
    ic.minor = e->number("minor");
    ic.how = e->get("how");
    ic.fix = e->get("fix");
    return ic;
  }
  return {};
}

ImageCuda image_cuda(std::string_view ref_in) {
  std::string ref = lower(ref_in);
  ref = ref.substr(0, ref.find('@'));
  size_t slash = ref.rfind('/');
  size_t colon = ref.rfind(':');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return {};
  std::string repo = ref.substr(0, colon), tag = ref.substr(colon + 1);
  if (knowledge::table("cuda-base-image-repos").match(repo)) return cuda_base_image(tag);
  if (is_ngc_framework_image(ref)) {
    if (!knowledge::in("ngc-repos-unknown-cuda", ngc_repo(ref))) return ngc_release(tag);
    return built_on_earlier_release(ngc_repo(ref), tag);
  }
  if (ImageCuda ic = tag_spelled(tag); ic.known) return ic;
  return release_image(repo, tag);
}

int cuda_major_of_package(const Requirement& r) {
  if (int v = cuda_tag_value(r.local_version); v > 0) return v / 10;
  for (auto& e : r.extras)
    if (int v = major_from("cuda-extras", e)) return v;
  if (int v = major_from("cuda-named-packages", r.name)) return v;
  if (r.url.empty())
    if (const knowledge::Entry* d = knowledge::table("default-cuda-builds").find(r.name)) return d->number("cuda-major");
  return 0;
}

bool requirement_skips_aarch64(const Requirement& r) {
  if (marker_false_on_spark(r.marker)) return true;
  std::string u = lower(r.url);
  if (!ends_with(u, ".whl") && u.find(".whl#") == std::string::npos) return false;
  bool arm = false, other = false;
  for (const knowledge::Entry& t : knowledge::table("wheel-platform-tags").entries)
    if (u.find(t.get("name")) != std::string::npos) (t.get("runs-on-aarch64") == "yes" ? arm : other) = true;
  return other && !arm;
}

}  // namespace sc

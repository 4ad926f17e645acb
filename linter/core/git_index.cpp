// SPDX-License-Identifier: Apache-2.0
#include "core/git_index.h"

#include <cstdint>

#include "core/read_file.h"
#include "core/source.h"

namespace sc {

namespace {

uint32_t be32(const std::string& d, size_t at) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(d[at + i])); };
  return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

// Index v4 prefix length: git's "offset" varint.
bool varint(const std::string& d, size_t& at, size_t& v) {
  if (at >= d.size()) return false;
  unsigned char c = static_cast<unsigned char>(d[at++]);
  v = c & 0x7F;
  while (c & 0x80) {
    if (at >= d.size() || v > (SIZE_MAX >> 8)) return false;
    c = static_cast<unsigned char>(d[at++]);
    v = ((v + 1) << 7) | (c & 0x7F);
  }
  return true;
}

// Adds the path and its directories; false once the bytes kept would pass `left` (which it
// lowers by what it keeps).
bool add(TrackedPaths& out, const std::string& path, size_t& left) {
  if (path.size() > left) return false;
  left -= path.size();
  out.files.insert(path);
  for (size_t k = path.rfind('/'); k != std::string::npos && k > 0; k = path.rfind('/', k - 1)) {
    if (out.dirs.count(path.substr(0, k))) break;  // its parents are in already
    if (k > left) return false;
    left -= k;
    out.dirs.insert(path.substr(0, k));
  }
  return true;
}

}  // namespace

namespace {

// One entry's path, read from `at` (moved past the entry); false when malformed or past `left`.
bool entry_name(const std::string& d, uint32_t version, size_t& at, const std::string& prev, size_t left,
                std::string& name) {
  size_t start = at;
  if (at + 62 > d.size()) return false;
  uint16_t flags = static_cast<uint16_t>(static_cast<unsigned char>(d[at + 60]) << 8 | static_cast<unsigned char>(d[at + 61]));
  at += 62;
  if (version >= 3 && (flags & 0x4000)) at += 2;
  size_t strip = 0;
  if (version == 4 && (!varint(d, at, strip) || strip > prev.size())) return false;
  size_t end = d.find('\0', at);
  if (end == std::string::npos) return false;
  if (version == 4) {
    if (prev.size() - strip + (end - at) > left) return false;
    name = prev.substr(0, prev.size() - strip) + d.substr(at, end - at);
    at = end + 1;
  } else {
    name = d.substr(at, end - at);
    at = start + ((end - start + 8) / 8) * 8;  // NUL padding to a multiple of 8
  }
  return at <= d.size();
}

}  // namespace

bool parse_git_index(const std::string& d, TrackedPaths& out) {
  if (d.size() < 12 || d.compare(0, 4, "DIRC") != 0) return false;
  uint32_t version = be32(d, 4), count = be32(d, 8);
  if (version < 2 || version > 4) return false;
  size_t at = 12;
  std::string prev, name;
  // What the paths may take, all told: a real index holds about as many bytes of paths as it
  // has (v4 shares prefixes; v2/v3 store each path whole), but a hostile one can make the
  // memory quadratic in its size (v4 entries that each keep all of the last path and add to it;
  // deep paths, whose every directory is kept). Past this the index counts as malformed.
  size_t left = 8 * d.size() + (1u << 20);
  for (uint32_t i = 0; i < count; ++i) {
    if (!entry_name(d, version, at, prev, left, name) || !add(out, name, left)) return false;
    prev = std::move(name);
  }
  return true;
}

std::string git_dir(const std::string& top) {
  std::string git = top + "/.git", text, why;
  if (read_regular_file(git, text, why, 4096, false)) {  // a worktree: "gitdir: PATH"
    std::string line = trim(text);
    if (!starts_with(line, "gitdir:")) return "";
    std::string dir = trim(line.substr(7));
    git = !dir.empty() && dir[0] == '/' ? dir : top + "/" + dir;
  }
  return git;
}

bool read_git_index(const std::string& top, TrackedPaths& out) {
  std::string git = git_dir(top), data, why;
  return !git.empty() && read_regular_file(git + "/index", data, why, 256u << 20, false) && parse_git_index(data, out);
}

}  // namespace sc

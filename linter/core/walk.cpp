// SPDX-License-Identifier: Apache-2.0
#include "core/walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <string_view>
#include <utility>

#include "core/git_config.h"
#include "core/git_index.h"
#include "core/gitignore.h"
#include "core/read_file.h"
#include "core/source.h"

namespace sc {
namespace fs = std::filesystem;

bool skipped_dir_name(const std::string& n) {
  static const std::set<std::string> names = {
      ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
      ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs", "site-packages", ".ipynb_checkpoints",
      "CMakeFiles", ".cache", ".idea", ".vscode", kCacheDirName};
  return names.count(n) || ends_with(n, ".egg-info");
}

bool in_cache_dir(const std::string& abs) {
  std::string seg = std::string("/") + kCacheDirName;
  return ends_with(abs, seg) || abs.find(seg + "/") != std::string::npos;
}

namespace {
// An absolute path with no "." or ".." part and no doubled or trailing '/'.
bool plain_path(std::string_view p) {
  return p.size() > 1 && p[0] == '/' && p.back() != '/' && p.find("//") == std::string_view::npos &&
         p.find("/./") == std::string_view::npos && p.find("/../") == std::string_view::npos && !ends_with(p, "/.") &&
         !ends_with(p, "/..");
}
}  // namespace

std::string display_path(const std::string& abs, const std::string& root) {
  // The usual case, without building paths: a plain `abs` under a plain `root` (an absolute
  // `root` that starts a plain `abs` is plain too: no need to scan it on every call).
  if (abs.size() > root.size() + 1 && !root.empty() && root[0] == '/' && abs.compare(0, root.size(), root) == 0 &&
      abs[root.size()] == '/' && plain_path(abs) && abs.compare(root.size() + 1, 2, "..") != 0)
    return abs.substr(root.size() + 1);
  std::error_code ec;
  fs::path rel = fs::path(abs).lexically_relative(root);
  std::string s = rel.generic_string();
  if (s.empty() || starts_with(s, "..")) return fs::path(abs).generic_string();
  if (s == ".") return fs::path(abs).filename().generic_string();
  return s;
}

namespace {

// The directory holding .git at or above `dir` (ignore files apply from there), or `dir`.
std::string ignore_top(const std::string& dir) {
  fs::path p(dir);
  std::error_code ec;
  for (fs::path q = p;; q = q.parent_path()) {
    struct stat st;
    if (lstat((q / ".git").c_str(), &st) == 0) return q.generic_string();
    if (!q.has_parent_path() || q.parent_path() == q) break;
  }
  return dir;
}

// The (device, inode) pairs of files or directories met before. Every walked file is looked
// up, so the table is open-addressed: no allocation per file and one probe run per look-up
// (a node-based set took a malloc and a cache miss per file, growing with the tree).
class FileIdSet {
 public:
  // False when the pair was there already.
  bool insert(dev_t dev, ino_t ino) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(dev, ino) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) {
        s = {static_cast<uint64_t>(dev), static_cast<uint64_t>(ino), true};
        ++size_;
        return true;
      }
      if (s.dev == static_cast<uint64_t>(dev) && s.ino == static_cast<uint64_t>(ino)) return false;
    }
  }

 private:
  struct Slot {
    uint64_t dev = 0, ino = 0;
    bool used = false;
  };
  static size_t hash(uint64_t dev, uint64_t ino) {  // mixed: the low bits pick the slot
    uint64_t x = ino ^ (dev * 0x9E3779B97F4A7C15ull);
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    return x ^ (x >> 33);
  }
  void grow() {
    std::vector<Slot> old(std::max<size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (s.used) insert(static_cast<dev_t>(s.dev), static_cast<ino_t>(s.ino));
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

struct Walker {
  const WalkOptions& opt;
  WalkResult& res;
  FileIdSet seen_files;
  FileIdSet seen_dirs;
  IgnoreStack ignores;
  std::string top;  // ignore patterns are relative to this directory
  std::vector<std::string> roots;  // real paths of the directories being walked
  TrackedPaths tracked;            // git never ignores a tracked file
  bool inside_ignored = false;     // walking below a directory git ignores (for its tracked files)
  std::vector<char> listing;       // getdents64's buffer, reused by every directory

  bool excluded(const std::string& display) {
    for (auto& g : opt.exclude)
      if (glob_match(g, display)) return true;
    return false;
  }

  void note(const std::string& path, const std::string& msg, const std::string& id, Level l = Level::Warning) {
    res.notes.push_back({l, path, {}, msg, id});
  }

  void add_file(const std::string& abs, const std::string& disp, const struct stat& st, bool explicit_arg) {
    if (!seen_files.insert(st.st_dev, st.st_ino)) return;  // read each file once
    WalkedFile f{abs, disp, explicit_arg};
    if (S_ISREG(st.st_mode)) {
      f.dev = static_cast<int64_t>(st.st_dev), f.ino = static_cast<int64_t>(st.st_ino);
      f.size = static_cast<int64_t>(st.st_size);
      f.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
    }
    res.files.push_back(std::move(f));
  }

  std::string rel_to_top(const std::string& abs) const {
    return abs.size() > top.size() && abs.compare(0, top.size(), top) == 0 ? abs.substr(top.size() + (top == "/" ? 0 : 1))
                                                                             : std::string();
  }

  // Pushes the ignore files of `abs` (.gitignore, then .ignore); returns how many.
  // `names`, when given, is the directory's sorted listing (no lstat for a name not in it).
  size_t push_ignores(const std::string& abs, const std::vector<std::string>* names = nullptr) {
    if (opt.no_ignore) return 0;
    size_t n = 0;
    std::string base = rel_to_top(abs);
    for (const char* name : {".gitignore", ".ignore"}) {
      std::string text, why;
      if (names && !std::binary_search(names->begin(), names->end(), std::string(name))) continue;
      std::string file = abs + "/" + name;
      struct stat st;
      if (lstat(file.c_str(), &st) != 0) continue;
      if (!read_regular_file(file, text, why, 1u << 20, false)) {
        note(display_path(file, opt.root), "ignore file not read: " + why, "ignore-file");
        continue;
      }
      ignores.push(parse_ignore(text, base));
      ++n;
    }
    return n;
  }

  // core.excludesFile (or git's default global ignore file): the lowest precedence.
  void push_excludes_file() {
    std::string file = excludes_file(top), text, why;
    struct stat st;
    if (file.empty() || stat(file.c_str(), &st) != 0) return;  // none: the usual case
    if (read_regular_file(file, text, why, 1u << 20, true)) ignores.push(parse_ignore(text, ""));
    else note(file, "ignore file (core.excludesFile) not read: " + why, "ignore-file");
  }

  // Ignore files above the first walked directory, from the repository top down.
  void push_ancestor_ignores(const std::string& abs) {
    if (opt.no_ignore) return;
    push_excludes_file();
    std::string text, why;
    if (read_regular_file(top + "/.git/info/exclude", text, why, 1u << 20, false))
      ignores.push(parse_ignore(text, ""));
    std::string rel = rel_to_top(abs);
    std::string cur = top;
    for (const auto& part : split(rel, '/')) {
      if (part.empty()) continue;
      push_ignores(cur);
      cur += (cur == "/" ? "" : "/") + part;
    }
  }

  bool inside_roots(const std::string& target) const {
    for (const auto& r : roots)
      if (target == r || starts_with(target, r == "/" ? r : r + "/")) return true;
    return false;
  }

  // A symbolic link: never followed out of the linted directories. One whose
  // target lies inside is skipped quietly (the target is linted where it is),
  // or followed with --follow-symlinks: then `real` is the target and `st` its
  // status, and the caller treats the link as that file or directory.
  bool follow_link(const std::string& child, const std::string& disp, std::string& real, struct stat& st) {
    char buf[PATH_MAX];
    if (!realpath(child.c_str(), buf)) {
      note(disp, "broken symbolic link", "broken-symlink", Level::Note);
      return false;
    }
    if (!inside_roots(buf)) {
      note(disp, "symbolic link to a path outside the linted tree; not followed", "symlink", Level::Note);
      return false;
    }
    if (!opt.follow_symlinks || stat(buf, &st) != 0) return false;
    real = buf;
    return true;
  }

  // A directory reached through a link that was walked already: a cycle when
  // it contains the link (reported), else a second way to the same files (quiet).
  void linked_dir_seen(const std::string& parent, const std::string& real, const std::string& disp) {
    char buf[PATH_MAX];
    std::string here = realpath(parent.c_str(), buf) ? buf : parent;
    if (here == real || starts_with(here, real == "/" ? real : real + "/"))
      note(disp, "symbolic link cycle: the link points to a directory that contains it; not followed",
           "symlink-cycle", Level::Note);
  }

  // `dfd` is `abs` opened: the entry's status is taken relative to it.
  void entry(const std::string& abs, int dfd, const std::string& n, int depth) {
    if (n == kCacheDirName) return;  // sparkcheck's own cache, whatever it is
    std::string child = abs + "/" + n;
    std::string disp = display_path(child, opt.root);
    if (excluded(disp)) return;
    struct stat st;
    if (fstatat(dfd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    std::string real;  // the target of a followed link
    if (S_ISLNK(st.st_mode) && !follow_link(child, disp, real, st)) return;
    bool is_dir = S_ISDIR(st.st_mode);
    bool ignored_here = false;
    if (!opt.no_ignore && (ignores.size() || inside_ignored)) {
      std::string rel = rel_to_top(child);
      ignored_here = inside_ignored || ignores.ignored(rel, is_dir);
      if (ignored_here && !tracked.has(rel, is_dir)) return;
    }
    if (is_dir) {
      if (skipped_dir_name(n)) return;
      if (seen_dirs.insert(st.st_dev, st.st_ino)) return ignored_dir(child, depth + 1, real, ignored_here);
      if (!real.empty()) linked_dir_seen(abs, real, disp);
    } else if (S_ISREG(st.st_mode)) {
      add_file(real.empty() ? child : real, disp, st, false);
    } else {
      note(disp, std::string("not linted: the path is ") + file_kind_name(st.st_mode) + ", not a regular file",
           "not-regular-file");
    }
  }

  // The names in the open directory `fd`, sorted, without "." and "..". Read with getdents64:
  // fdopendir would take the directory's status again (it was taken by its entry).
  std::vector<std::string> list(int fd) {
    std::vector<std::string> names;
    listing.resize(1 << 15);
    for (;;) {
      ssize_t n = getdents64(fd, listing.data(), listing.size());
      if (n <= 0) break;  // the end, or an error: what was listed is walked (as readdir did)
      for (ssize_t off = 0; off < n;) {
        const auto* e = reinterpret_cast<const struct dirent64*>(listing.data() + off);
        off += e->d_reclen;
        std::string_view name = e->d_name;
        if (name != "." && name != "..") names.emplace_back(name);
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // A directory git ignores but holds tracked files in: below it only tracked files count,
  // as git ignores every untracked file under an ignored directory.
  void ignored_dir(const std::string& abs, int depth, const std::string& real, bool ignored) {
    bool was = inside_ignored;
    inside_ignored = was || ignored;
    dir(abs, depth, real);
    inside_ignored = was;
  }

  // Lists `abs`; `real` is the directory's real path when it was reached through
  // a followed link (opened there; the files keep paths under the link).
  void dir(const std::string& abs, int depth, const std::string& real = "") {
    if (depth > 64) {
      note(display_path(abs, opt.root), "directory nesting deeper than 64 levels; not descended", "too-deep");
      return;
    }
    int fd = open((real.empty() ? abs : real).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      note(display_path(abs, opt.root), std::string("cannot read directory: ") + std::strerror(errno), "read-error");
      return;
    }
    std::vector<std::string> names = list(fd);
    bool is_venv = std::binary_search(names.begin(), names.end(), std::string("pyvenv.cfg"));
    if (is_venv && depth > 0) return (void)close(fd);
    if (opt.stop_at_repositories && depth > 0 && std::binary_search(names.begin(), names.end(), std::string(".git"))) {
      res.repositories.push_back(abs);
      return (void)close(fd);
    }
    size_t pushed = push_ignores(abs, &names);
    for (auto& n : names) entry(abs, fd, n, depth);
    close(fd);  // open while its entries are walked (at most 64 deep)
    for (size_t i = 0; i < pushed; ++i) ignores.pop();
  }
};

// The real paths of the directories named: a link is followed (or skipped
// quietly) only when its target lies inside one of them.
std::vector<std::string> real_roots(const std::vector<std::string>& paths) {
  std::vector<std::string> roots;
  for (const auto& p : paths) {
    char real[PATH_MAX];
    struct stat st;
    if (realpath(p.c_str(), real) && stat(real, &st) == 0 && S_ISDIR(st.st_mode)) roots.push_back(real);
  }
  return roots;
}

}  // namespace

WalkResult walk(const WalkOptions& opt) {
  WalkResult res;
  Walker w{opt, res, {}, {}, {}, {}, real_roots(opt.link_roots.empty() ? opt.paths : opt.link_roots), {}, false, {}};
  for (const auto& p : opt.paths) {
    std::error_code ec;
    std::string abs = fs::absolute(p, ec).lexically_normal().generic_string();
    if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    if (in_cache_dir(abs)) {
      res.notes.push_back({Level::Warning, p, {}, "not linted: inside sparkcheck's cache directory", "cache-dir"});
      continue;
    }
    struct stat st;
    if (stat(abs.c_str(), &st) != 0) {
      res.notes.push_back({Level::Error, p, {}, std::string("cannot lint path: ") + std::strerror(errno), "missing-path"});
      res.complete = false;
      continue;
    }
    struct stat git;
    if (S_ISDIR(st.st_mode) && opt.stop_at_repositories && lstat((abs + "/.git").c_str(), &git) == 0) {
      res.repositories.push_back(abs);  // a repository named on the command line
      continue;
    }
    if (S_ISDIR(st.st_mode)) {  // a directory named on the command line: its own ignore files apply
      w.seen_dirs.insert(st.st_dev, st.st_ino);
      w.top = ignore_top(abs);
      w.ignores = IgnoreStack();
      w.tracked = TrackedPaths();
      if (!opt.no_ignore) read_git_index(w.top, w.tracked);
      w.push_ancestor_ignores(abs);
      w.dir(abs, 0);
    } else {
      w.add_file(abs, display_path(abs, opt.root), st, true);
    }
  }
  return res;
}

}  // namespace sc

#include "core/walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

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
      "CMakeFiles", ".cache", ".idea", ".vscode"};
  return names.count(n) || ends_with(n, ".egg-info");
}

std::string display_path(const std::string& abs, const std::string& root) {
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

struct Walker {
  const WalkOptions& opt;
  WalkResult& res;
  std::set<std::pair<dev_t, ino_t>> seen_files;
  std::set<std::pair<dev_t, ino_t>> seen_dirs;
  IgnoreStack ignores;
  std::string top;  // ignore patterns are relative to this directory
  std::vector<std::string> roots;  // real paths of the directories being walked
  TrackedPaths tracked;            // git never ignores a tracked file

  bool excluded(const std::string& display) {
    for (auto& g : opt.exclude)
      if (glob_match(g, display)) return true;
    return false;
  }

  void note(const std::string& path, const std::string& msg, const std::string& id, Level l = Level::Warning) {
    res.notes.push_back({l, path, {}, msg, id});
  }

  void add_file(const std::string& abs, const struct stat& st, bool explicit_arg) {
    if (!seen_files.insert({st.st_dev, st.st_ino}).second) return;  // read each file once
    res.files.push_back({abs, display_path(abs, opt.root), explicit_arg});
  }

  std::string rel_to_top(const std::string& abs) const {
    return abs.size() > top.size() && abs.compare(0, top.size(), top) == 0 ? abs.substr(top.size() + (top == "/" ? 0 : 1))
                                                                             : std::string();
  }

  // Pushes the ignore files of `abs` (.gitignore, then .ignore); returns how many.
  size_t push_ignores(const std::string& abs) {
    if (opt.no_ignore) return 0;
    size_t n = 0;
    std::string base = rel_to_top(abs);
    for (const char* name : {".gitignore", ".ignore"}) {
      std::string text, why;
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

  // Ignore files above the first walked directory, from the repository top down.
  void push_ancestor_ignores(const std::string& abs) {
    if (opt.no_ignore) return;
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

  // Symbolic links are never followed: the walk stays inside the linted tree.
  // One whose target lies inside a linted directory is skipped quietly (the
  // target is linted where it is); others are reported.
  void link(const std::string& child, const std::string& disp) {
    char buf[PATH_MAX];
    if (!realpath(child.c_str(), buf)) {
      note(disp, "broken symbolic link", "broken-symlink", Level::Note);
      return;
    }
    std::string target = buf;
    for (const auto& r : roots)
      if (target == r || starts_with(target, r == "/" ? r : r + "/")) return;
    note(disp, "symbolic link to a path outside the linted tree; not followed", "symlink", Level::Note);
  }

  void entry(const std::string& abs, const std::string& n, int depth) {
    std::string child = abs + "/" + n;
    std::string disp = display_path(child, opt.root);
    if (excluded(disp)) return;
    struct stat st;
    if (lstat(child.c_str(), &st) != 0) return;
    if (S_ISLNK(st.st_mode)) return link(child, disp);
    bool is_dir = S_ISDIR(st.st_mode);
    if (!opt.no_ignore && ignores.size()) {
      std::string rel = rel_to_top(child);
      if (ignores.ignored(rel, is_dir) && !tracked.has(rel, is_dir)) return;
    }
    if (is_dir) {
      if (skipped_dir_name(n) || !seen_dirs.insert({st.st_dev, st.st_ino}).second) return;
      dir(child, depth + 1);
    } else if (S_ISREG(st.st_mode)) {
      add_file(child, st, false);
    } else {
      note(disp, std::string("not linted: the path is ") + file_kind_name(st.st_mode) + ", not a regular file",
           "not-regular-file");
    }
  }

  void dir(const std::string& abs, int depth) {
    if (depth > 64) {
      note(display_path(abs, opt.root), "directory nesting deeper than 64 levels; not descended", "too-deep");
      return;
    }
    int fd = open(abs.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR* d = fd < 0 ? nullptr : fdopendir(fd);
    if (!d) {
      if (fd >= 0) close(fd);
      note(display_path(abs, opt.root), std::string("cannot read directory: ") + std::strerror(errno), "read-error");
      return;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    bool is_venv = std::find(names.begin(), names.end(), "pyvenv.cfg") != names.end();
    if (is_venv && depth > 0) return;
    size_t pushed = push_ignores(abs);
    for (auto& n : names) entry(abs, n, depth);
    for (size_t i = 0; i < pushed; ++i) ignores.pop();
  }
};

}  // namespace

WalkResult walk(const WalkOptions& opt) {
  WalkResult res;
  Walker w{opt, res, {}, {}, {}, {}, {}, {}};
  for (const auto& p : opt.paths) {
    std::error_code ec;
    std::string abs = fs::absolute(p, ec).lexically_normal().generic_string();
    if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    struct stat st;
    if (stat(abs.c_str(), &st) != 0) {
      res.notes.push_back({Level::Error, p, {}, std::string("cannot lint path: ") + std::strerror(errno), "missing-path"});
      res.complete = false;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {  // a directory named on the command line: its own ignore files apply
      w.seen_dirs.insert({st.st_dev, st.st_ino});
      char real[PATH_MAX];
      w.roots.push_back(realpath(abs.c_str(), real) ? std::string(real) : abs);
      w.top = ignore_top(abs);
      w.ignores = IgnoreStack();
      w.tracked = TrackedPaths();
      if (!opt.no_ignore) read_git_index(w.top, w.tracked);
      w.push_ancestor_ignores(abs);
      w.dir(abs, 0);
    } else {
      w.add_file(abs, st, true);
    }
  }
  return res;
}

}  // namespace sc

#include "core/walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/source.h"

extern char** environ;

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

bool glob_match(const std::string& pattern, const std::string& path) {
  std::string p = pattern;
  if (starts_with(p, "./")) p = p.substr(2);
  if (!p.empty() && p.back() == '/') p += "**";
  // '**/' and '/**' : fnmatch without FNM_PATHNAME lets '*' cross '/'
  auto m = [&](const std::string& pat, const std::string& s) {
    return fnmatch(pat.c_str(), s.c_str(), 0) == 0;
  };
  if (m(p, path)) return true;
  if (p.find('/') == std::string::npos || starts_with(p, "**/")) {
    std::string pp = starts_with(p, "**/") ? p.substr(3) : p;
    for (size_t i = path.find('/'); i != std::string::npos; i = path.find('/', i + 1))
      if (m(pp, path.substr(i + 1))) return true;
    if (m(pp, path)) return true;
  }
  // directory prefix: "data" or "data/**" excludes everything below data/
  if (ends_with(p, "/**")) {
    std::string dir = p.substr(0, p.size() - 3);
    if (starts_with(path, dir + "/") || m(dir + "/*", path)) return true;
  }
  return false;
}

int run_capture(const std::vector<std::string>& argv, const std::string& stdin_file, std::string& out,
                const std::string& cwd) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = argv;
  if (!cwd.empty()) {  // use `git -C`-style: callers pass cwd-aware argv; fall back to chdir wrapper
    args.insert(args.begin(), {"/usr/bin/env", "-C", cwd});
  }
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    return -1;
  }
  char buf[65536];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) out.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

struct Walker {
  const WalkOptions& opt;
  WalkResult& res;
  std::set<std::pair<dev_t, ino_t>> seen_files;
  std::set<std::pair<dev_t, ino_t>> seen_dirs;
  std::vector<std::pair<dev_t, ino_t>> stack;

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

  void dir(const std::string& abs, int depth) {
    if (depth > 64) {
      note(display_path(abs, opt.root), "directory nesting deeper than 64 levels; not descended", "too-deep");
      return;
    }
    DIR* d = opendir(abs.c_str());
    if (!d) {
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
    for (auto& n : names) {
      std::string child = abs + "/" + n;
      std::string disp = display_path(child, opt.root);
      if (excluded(disp)) continue;
      struct stat lst, st;
      if (lstat(child.c_str(), &lst) != 0) continue;
      bool link = S_ISLNK(lst.st_mode);
      if (stat(child.c_str(), &st) != 0) {
        if (link) note(disp, "broken symbolic link", "broken-symlink", Level::Note);
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (skipped_dir_name(n)) continue;
        std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
        if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
          note(disp, "symbolic link loop: points back to one of its parent directories; not followed", "symlink-loop");
          continue;
        }
        if (!seen_dirs.insert(id).second) continue;  // reached twice via symlinks
        stack.push_back(id);
        dir(child, depth + 1);
        stack.pop_back();
      } else {
        add_file(child, st, false);  // FIFOs and devices are reported when read
      }
    }
  }
};

}  // namespace

WalkResult walk(const WalkOptions& opt) {
  WalkResult res;
  Walker w{opt, res, {}, {}, {}};
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
    if (S_ISDIR(st.st_mode)) {
      w.seen_dirs.insert({st.st_dev, st.st_ino});
      w.stack = {{st.st_dev, st.st_ino}};
      w.dir(abs, 0);
    } else {
      w.add_file(abs, st, true);
    }
  }
  if (opt.no_ignore || res.files.empty()) return res;

  // .gitignore with git's own semantics. Inside a work tree use the repository
  // (also honours .git/info/exclude and core.excludesFile); elsewhere use a
  // throw-away repository over the root so .gitignore files still apply.
  std::string top;
  bool in_repo = run_capture({"git", "-C", opt.root, "rev-parse", "--show-toplevel"}, "", top) == 0;
  char tmpl[] = "/tmp/sparkcheck-ignore-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return res;
  std::string list;
  for (auto& f : res.files) {
    list += f.abs;
    list.push_back('\0');
  }
  if (write(fd, list.data(), list.size()) != static_cast<ssize_t>(list.size())) {}
  close(fd);
  std::string out;
  int rc;
  std::string tmpgit;
  if (in_repo) {
    rc = run_capture({"git", "-C", opt.root, "check-ignore", "--stdin", "-z"}, tmpl, out);
  } else {
    char gtmpl[] = "/tmp/sparkcheck-git-XXXXXX";
    tmpgit = mkdtemp(gtmpl) ? gtmpl : "";
    std::string dummy;
    rc = tmpgit.empty() ? -1 : run_capture({"git", "init", "-q", "--bare", tmpgit}, "", dummy);
    if (rc == 0)
      rc = run_capture({"git", "--git-dir=" + tmpgit, "--work-tree=" + opt.root, "-C", opt.root,
                        "check-ignore", "--no-index", "--stdin", "-z"}, tmpl, out);
  }
  unlink(tmpl);
  if (!tmpgit.empty()) fs::remove_all(tmpgit);
  if (rc == -1) {
    res.notes.push_back({Level::Warning, "", {}, "git not found: .gitignore rules were not applied (install git, or pass --no-ignore to silence this)", "no-git"});
    return res;
  }
  // rc 1 = nothing ignored; 0 = some ignored
  std::set<std::string> ignored;
  for (auto& s : split(out, '\0'))
    if (!s.empty()) ignored.insert(s);
  std::vector<WalkedFile> kept;
  for (auto& f : res.files)
    if (f.explicit_arg || !ignored.count(f.abs)) kept.push_back(f);
  res.files = std::move(kept);
  return res;
}

}  // namespace sc

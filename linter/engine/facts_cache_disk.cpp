// SPDX-License-Identifier: Apache-2.0
// Where the facts cache lives and how it is read and written: never through a symbolic
// link, never more than kMaxCacheBytes, always whole (a temporary file, then a rename).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <thread>
#include <utility>

#include <sodium.h>

#include "core/git_index.h"
#include "core/walk.h"
#include "engine/facts_cache.h"
#include "knowledge/knowledge.h"

namespace sc {

namespace {
namespace fs = std::filesystem;

std::string hex16(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

// Writes `text` to a new file `name` in the directory `dirfd` (nothing when it exists).
void write_new(int dirfd, const char* name, std::string_view text) {
  int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t n = write(fd, text.data(), text.size());
  (void)n;
  close(fd);
}

constexpr std::string_view kTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by sparkcheck.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

// Whether the git work tree around `dir` tracks a file inside it (a cache folder that came
// with a checkout was written by someone else).
bool tracked_by_git(const std::string& dir) {
  fs::path d = fs::path(dir).lexically_normal();
  for (fs::path top = d;; top = top.parent_path()) {
    struct stat st;
    if (lstat((top / ".git").c_str(), &st) == 0) {
      TrackedPaths tracked;
      read_git_index(top.string(), tracked);
      std::string rel = d.lexically_relative(top).generic_string();
      return rel != "." && tracked.dirs.count(rel) > 0;
    }
    if (!top.has_parent_path() || top.parent_path() == top) return false;
  }
}

constexpr int kMissing = -2;

// Whether a missing directory could be made: its nearest existing ancestor is a directory
// this user can write.
bool could_make(const std::string& dir) {
  std::error_code ec;
  for (fs::path p = fs::path(dir).parent_path(); !p.empty(); p = p.parent_path()) {
    struct stat st;
    if (lstat(p.c_str(), &st) == 0) return S_ISDIR(st.st_mode) && access(p.c_str(), W_OK) == 0;
    if (p == p.parent_path()) break;
  }
  return false;
}

// Opens a directory that is not a symbolic link and that this user can write; -1 with `why`
// otherwise. A missing one is made (with its .gitignore and CACHEDIR.TAG) when `make`, else
// kMissing when it could be: nothing is created before there is a cache to save.
int open_cache_dir(const std::string& dir, std::string& why, bool make) {
  std::error_code ec;
  bool made = false;
  struct stat st;
  if (lstat(dir.c_str(), &st) != 0) {
    if (!make) return could_make(dir) ? kMissing : (why = dir + ": cannot be created", -1);
    fs::create_directories(fs::path(dir).parent_path(), ec);
    made = mkdir(dir.c_str(), 0755) == 0;
    if (!made && errno != EEXIST) return why = dir + ": " + std::strerror(errno), -1;
  }
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return why = dir + ": not a directory or a symbolic link; not used", -1;
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid()) {
    close(fd);
    return why = dir + ": owned by another user; not used", -1;
  }
  if (tracked_by_git(dir)) {
    close(fd);
    return why = dir + ": holds files git tracks (a cache from a commit is never trusted); not used", -1;
  }
  if (faccessat(fd, ".", W_OK, 0) != 0) {
    close(fd);
    return why = dir + ": not writable", -1;
  }
  if (made) write_new(fd, ".gitignore", "# Created by sparkcheck: its facts cache.\n*\n"), write_new(fd, "CACHEDIR.TAG", kTag);
  return fd;
}

std::string user_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/sparkcheck";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.cache/sparkcheck";
  return "";
}

bool under(const std::string& a, const std::string& dir) {
  return a == dir || (a.size() > dir.size() && a.compare(0, dir.size(), dir) == 0 && (dir == "/" || a[dir.size()] == '/'));
}

std::string split_dir(const std::string& path, std::string& name) {
  size_t slash = path.rfind('/');
  name = slash == std::string::npos ? path : path.substr(slash + 1);
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string cache_home(const LintOptions& opt, const std::string& root) {
  std::error_code ec;
  std::string home;
  for (const std::string& p : opt.paths.empty() ? std::vector<std::string>{"."} : opt.paths) {
    fs::path a = fs::absolute(p, ec).lexically_normal();
    if (!fs::is_directory(a, ec)) a = a.parent_path();
    std::string d = a.generic_string();
    if (d.size() > 1 && d.back() == '/') d.pop_back();
    if (home.empty()) home = d;
    while (!under(d, home) && home != "/") home = fs::path(home).parent_path().generic_string();
  }
  for (fs::path q = home; under(q.generic_string(), root); q = q.parent_path()) {  // the work tree's top
    struct stat st;
    if (lstat((q / ".git").c_str(), &st) == 0) return q.generic_string();
    if (!q.has_parent_path() || q.parent_path() == q) break;
  }
  return home;
}

std::string cache_dir_for(const std::string& home, const std::string& dir, std::string& why) {
  std::string tried;
  for (const std::string& d : {dir, dir.empty() ? (home == "/" ? "" : home) + "/" + kCacheDirName : "", user_cache_dir()}) {
    if (d.empty()) continue;
    int fd = open_cache_dir(d, why, false);
    if (fd >= 0 || fd == kMissing) {
      if (fd >= 0) close(fd);
      why = tried;
      return d;
    }
    tried += (tried.empty() ? "" : "; ") + why;
    if (!dir.empty()) break;  // a named directory has no fallback
  }
  why = tried.empty() ? "no cache directory ($HOME unset)" : tried;
  return "";
}

std::string cache_file_in(const std::string& dir, const std::string& root, const std::string& options) {
  return dir + "/facts-" + hex16(hash_bytes(root + '\n' + options)) + ".bin";
}

namespace {

// Reads `len` bytes at `at` into `into` (resized to what was read).
bool read_at(int fd, size_t at, size_t len, std::string& into) {
  into.resize(len);
  size_t got = 0;
  for (ssize_t n; got < len; got += static_cast<size_t>(n)) {
    n = pread(fd, into.data() + got, len - got, static_cast<off_t>(at + got));
    if (n < 0 && errno == EINTR) n = 0;
    else if (n <= 0) break;
  }
  into.resize(got);
  return got == len;
}

// Opens a cache file for reading without following links: -1 (with `why`, empty when it is
// missing) unless it is a regular file within the size cap.
int open_cache_file(const std::string& path, struct stat& st, std::string& why) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    why = errno == ENOENT ? "" : "cannot open (" + std::string(std::strerror(errno)) + ")";
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > kMaxCacheBytes)
    why = "not a regular file, or over the size limit";
  else if (st.st_uid != geteuid())
    why = "owned by another user";
  else if (std::string head, want = cache_header(); !read_at(fd, 0, std::min(want.size(), size_t(st.st_size)), head) || head != want)
    why = "written by another sparkcheck version, build or cache format";  // the rest is never read
  else
    return fd;
  close(fd);
  return -1;
}

}  // namespace

bool read_cache_file(const std::string& path, std::string& bytes, std::string& why) {
  struct stat st;
  int fd = open_cache_file(path, st, why);
  if (fd < 0) return false;
  bool ok = read_at(fd, 0, static_cast<size_t>(st.st_size), bytes);
  close(fd);
  if (!ok) why = "short read";
  return ok;
}

namespace {

// A cache file written as it is made: into a temporary file in the same directory, renamed
// over the path once whole (last writer wins); dropped on any failure or past the size cap.
class FileWriter {
 public:
  explicit FileWriter(const std::string& path) {
    std::string dir = split_dir(path, name_);
    dfd_ = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd_ < 0) {
      why_ = dir + ": " + std::strerror(errno);
      return;
    }
    for (int attempt = 0; attempt < 8 && fd_ < 0; ++attempt) {  // a random new name: nothing planted is opened
      tmp_ = "." + name_ + "." + hex16(randombytes_random() | uint64_t(randombytes_random()) << 32) + ".tmp";
      fd_ = openat(dfd_, tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
      if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) why_ = std::string("cannot write: ") + std::strerror(errno), tmp_.clear();
  }
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter() {
    if (fd_ >= 0) close(fd_);
    if ((fd_ >= 0 || !why_.empty()) && !tmp_.empty()) unlinkat(dfd_, tmp_.c_str(), 0);
    if (dfd_ >= 0) close(dfd_);
  }

  void write(std::string_view bytes) {
    if (!why_.empty()) return;
    if ((written_ += bytes.size()) > kMaxCacheBytes) return void(why_ = "over the size limit; not written");
    while (!bytes.empty()) {
      ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return void(why_ = std::string("cannot write: ") + std::strerror(errno));
      bytes.remove_prefix(static_cast<size_t>(n));
    }
  }
  // Renames the file into place; false (with `why`) when anything failed.
  bool commit(std::string& why) {
    if (why_.empty() && close(std::exchange(fd_, -1)) != 0) why_ = std::string("cannot write: ") + std::strerror(errno);
    if (why_.empty() && renameat(dfd_, tmp_.c_str(), dfd_, name_.c_str()) != 0)
      why_ = std::string("cannot rename: ") + std::strerror(errno);
    why = why_;
    return why_.empty();
  }

 private:
  int dfd_ = -1, fd_ = -1;
  std::string name_, tmp_, why_;
  size_t written_ = 0;
};

// CPU time of this thread in ms: what loading and saving cost, however busy the machine is.
double cpu_ms() {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// What decides reuse for every entry: unchanged after a run means there is nothing to write.
// Hashed entry by entry (no copy of every path at once).
uint64_t cache_state(const CacheEntries& entries) {
  uint64_t state = entries.size();
  std::string one;
  for (const auto& [abs, e] : entries) {
    one.assign(abs).append(1, '\n');
    if (e.file) one.append(e.file->src.path()).append(1, '\n');
    if (e.file && e.file->line_memo) one += std::to_string(e.file->line_memo->lines.size());  // a memo grown: saved again
    if (e.file) one.append(reinterpret_cast<const char*>(e.file->content_hash.words.data()), sizeof(ContentHash));
    for (int64_t v : {static_cast<int64_t>(e.key), e.disk.dev, e.disk.ino, e.disk.size, e.disk.ctime_ns})
      one.append(reinterpret_cast<const char*>(&v), sizeof v);
    state = (state * 0x9E3779B97F4A7C15ull) ^ hash_bytes(one);
  }
  return state;
}

// Entries for files outside the paths this run walks are set aside (the run cannot reach them)
// and put back before saving: linting a few named files keeps the rest of the cache.
CacheEntries out_of_scope(ParseCache& cache, const LintOptions& opt) {
  std::vector<std::string> scope;
  std::error_code ec;
  for (const std::string& p : opt.paths.empty() ? std::vector<std::string>{"."} : opt.paths) {
    std::string a = fs::absolute(p, ec).lexically_normal().generic_string();
    if (a.size() > 1 && a.back() == '/') a.pop_back();
    scope.push_back(a);
  }
  return cache.entries.split_off([&](PathRef abs) {
    return std::none_of(scope.begin(), scope.end(), [&](const std::string& s) { return under(abs, s); });
  });
}

// The cache file as loaded, kept open (not its bytes) for the entries saved again unchanged:
// read back in windows, in the order they are asked for. Another run's save replaces the
// file by a rename, which this descriptor does not see; a change in place (its size or
// times differ) leaves nothing to copy.
class LoadedFile {
 public:
  LoadedFile(int fd, const struct stat& st) : fd_(fd), st_(st) {}
  LoadedFile(const LoadedFile&) = delete;
  LoadedFile& operator=(const LoadedFile&) = delete;
  ~LoadedFile() { close(fd_); }

  std::string_view bytes(size_t at, size_t len) {
    if (!unchanged()) return {};
    if (at < win_at_ || at + len > win_at_ + win_.size()) {
      size_t end = std::min(static_cast<size_t>(st_.st_size), std::max(at + len, at + kWindow));
      win_at_ = at;
      if (at + len > end || !read_at(fd_, at, end - at, win_)) return win_.clear(), std::string_view();
    }
    return std::string_view(win_).substr(at - win_at_, len);
  }

 private:
  static constexpr size_t kWindow = 1u << 20;
  bool unchanged() {
    if (checked_) return same_;
    struct stat now;
    checked_ = true;
    same_ = fstat(fd_, &now) == 0 && now.st_size == st_.st_size && now.st_mtim.tv_sec == st_.st_mtim.tv_sec &&
            now.st_mtim.tv_nsec == st_.st_mtim.tv_nsec && now.st_ctim.tv_sec == st_.st_ctim.tv_sec &&
            now.st_ctim.tv_nsec == st_.st_ctim.tv_nsec;
    return same_;
  }
  int fd_;
  struct stat st_;
  std::string win_;
  size_t win_at_ = 0;
  bool checked_ = false, same_ = false;
};

// Decodes the cache file; its bytes go once decoded (`loaded` reads them again to save).
void load(const std::string& root, const std::string& options, ParseCache& cache, LoadedBytes& loaded,
          CacheReport& rep) {
  double t0 = cpu_ms();
  std::string why;
  struct stat st;
  int fd = open_cache_file(rep.file, st, why);
  if (fd >= 0) {
    auto file = std::make_shared<LoadedFile>(fd, st);
    std::string bytes;
    if (!read_at(fd, 0, static_cast<size_t>(st.st_size), bytes)) why = "short read";
    else if (decode_cache(bytes, root, options, cache, why))
      loaded = [file](size_t at, size_t len) { return file->bytes(at, len); };
  }
  if (!why.empty()) rep.note = "cache file ignored: " + why;
  rep.loaded = cache.entries.size();
  rep.load_ms = cpu_ms() - t0;
}

void save(const std::string& root, const std::string& options, const ParseCache& cache, const LoadedBytes& loaded,
          CacheReport& rep) {
  double t0 = cpu_ms();
  std::string why;
  size_t left_out = 0;
  auto add = [&](const std::string& what) { rep.note += (rep.note.empty() ? "" : "; ") + what; };
  std::string name;
  int dir = open_cache_dir(split_dir(rep.file, name), why, true);
  if (dir < 0) return add("cache not written: " + why);
  close(dir);
  FileWriter out(rep.file);
  encode_cache(cache, root, options, [&](std::string_view bytes) { out.write(bytes); }, &left_out, &loaded);
  if (out.commit(why)) rep.saved = true;
  else add("cache not written: " + why);
  if (left_out) add(std::to_string(left_out) + " files not cached (facts naming another file)");
  rep.save_ms = cpu_ms() - t0;
}

}  // namespace

bool cache_off_by_env() {
  const char* v = std::getenv("SPARKCHECK_NO_CACHE");
  return v && *v && std::string(v) != "0";
}

size_t seed_from_disk_cache(const LintOptions& opt, const std::string& root, ParseCache& cache) {
  std::string options = cache_options_text(opt), bytes, why;
  std::string home = cache_home(opt, root);
  std::string local = opt.cache_dir.empty() ? (home == "/" ? "" : home) + "/" + kCacheDirName : "";
  for (const std::string& d : {opt.cache_dir, local, user_cache_dir()}) {
    if (d.empty() || !read_cache_file(cache_file_in(d, root, options), bytes, why)) continue;
    if (decode_cache(bytes, root, options, cache, why)) return cache.entries.size();
    cache.entries.clear();
  }
  return 0;
}

uint64_t cache_stated_entries(const std::string& path) {
  struct stat st;
  std::string why, t;
  int fd = open_cache_file(path, st, why);
  if (fd < 0) return 0;
  bool ok = st.st_size >= 24 && read_at(fd, static_cast<size_t>(st.st_size) - 24, 8, t);
  close(fd);
  uint64_t v = 0;
  for (int i = 7; ok && i >= 0; --i) v = v << 8 | static_cast<unsigned char>(t[static_cast<size_t>(i)]);
  return ok ? v : 0;
}

namespace {

// A run that names files only (no folder), few against the cache's entries: a pre-commit
// call on the staged files after a whole-tree lint. Parsing them costs less than decoding a
// cache of the whole tree (about 20 us an entry against a millisecond or two a parsed file),
// so the cache is neither read nor written. Returns the cache's stated entries then, else 0.
uint64_t few_named_files(const LintOptions& opt, const std::string& cache_file) {
  constexpr uint64_t kEntriesPerNamedFile = 50;
  if (opt.paths.empty()) return 0;
  for (const std::string& p : opt.paths) {
    struct stat st;
    if (stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  }
  uint64_t n = cache_stated_entries(cache_file);
  return n >= kEntriesPerNamedFile * opt.paths.size() ? n : 0;
}

}  // namespace

LintResult lint_with_disk_cache(const LintOptions& opt, const std::string& root) {
  CacheReport rep;
  std::string why, dir = cache_dir_for(cache_home(opt, root), opt.cache_dir, why);
  LintOptions run = opt;
  run.disk_cache = false;
  ParseCache cache;
  if (dir.empty()) {
    LintResult res = run_lint(run);
    res.cache.note = "no usable cache directory: " + why;
    return res;
  }
  std::string options = cache_options_text(opt);
  rep.used = true;
  rep.file = cache_file_in(dir, root, options);
  if (!why.empty()) rep.note = "fell back to " + dir + " (" + why + ")";
  if (uint64_t held = few_named_files(opt, rep.file)) {
    LintResult res = run_lint(run);
    rep.used = false;
    rep.note = std::to_string(opt.paths.size()) + " named file(s) parsed directly; the cache (" +
               std::to_string(held) + " files) was neither read nor written";
    res.cache = std::move(rep);
    return res;
  }
  LoadedBytes loaded;
  // With a cache file to decode, the knowledge tables are parsed meanwhile (a run with files
  // needs them; an empty tree, with no cache file, loads none). A failure there is left for the
  // first look-up to meet again on this thread.
  struct stat st;
  bool has_file = lstat(rep.file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  static std::atomic<bool> tables_loaded{false};  // once per process (a split run loads per unit)
  std::thread tables;
  if (has_file && !tables_loaded) tables = std::thread([] { try { knowledge::load_errors(); } catch (...) {} });
  load(root, options, cache, loaded, rep);
  if (tables.joinable()) {
    tables.join();
    tables_loaded = true;
  }
  CacheEntries aside = out_of_scope(cache, opt);
  uint64_t before = rep.loaded ? cache_state(cache.entries) : ~uint64_t(0);
  run.reuse = &cache;
  LintResult res = run_lint(run);
  rep.hits = cache.hits, rep.misses = cache.misses;
  if (rep.loaded ? cache_state(cache.entries) != before : !cache.entries.empty()) {  // an empty tree writes none
    cache.entries.merge(aside);
    save(root, options, cache, loaded, rep);
  }
  res.cache = std::move(rep);
  return res;
}

}  // namespace sc

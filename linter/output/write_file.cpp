// SPDX-License-Identifier: Apache-2.0
#include "output/write_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <streambuf>
#include <string_view>
#include <vector>

namespace sc {

namespace {

// Temporary paths to remove on SIGINT/SIGTERM: 0 free, 1 being filled in, 2 armed.
constexpr int kSlots = 4;
char g_paths[kSlots][4096];
std::atomic<int> g_state[kSlots];

// A child's process group that SIGINT/SIGTERM are passed on to (0: none).
std::atomic<int> g_child{0};

// Passes `sig` to the child's group and reaps the child: up to a second for it to
// exit, then SIGKILL. Async-signal-safe calls only.
void stop_child(int sig) {
  int child = g_child.exchange(0);
  if (child <= 0) return;
  kill(-child, sig);
  int status = 0;
  bool reaped = false;
  for (int i = 0; i < 100 && !reaped; ++i) {
    pid_t got = waitpid(child, &status, WNOHANG);
    if (got == child || (got < 0 && errno != EINTR)) reaped = true;
    else {
      struct timespec ts{0, 10 * 1000 * 1000};
      nanosleep(&ts, nullptr);
    }
  }
  kill(-child, SIGKILL);  // what is left of the group (a grandchild that ignored the signal)
  if (!reaped)
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
}

void on_signal(int sig) {
  int saved = errno;
  stop_child(sig);
  errno = saved;
  for (int i = 0; i < kSlots; ++i)
    if (g_state[i].load() == 2 && unlink(g_paths[i]) != 0) rmdir(g_paths[i]);  // a file, else an empty directory
  signal(sig, SIG_DFL);
  raise(sig);
}

int claim_slot() {
  for (int i = 0; i < kSlots; ++i) {
    int free_state = 0;
    if (g_state[i].compare_exchange_strong(free_state, 1)) return i;
  }
  return -1;
}

bool write_all(int fd, std::string_view s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

std::string fail(const std::string& path, int err) {
  return "cannot write " + path + ": " + std::strerror(err);
}

// Passes a report to a file descriptor as it is rendered, 64 KiB at a time, so no
// copy of the whole report is held; keeps the first write error (errno's value).
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  bool finish() { return drain(); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (err_) return false;
    size_t n = static_cast<size_t>(pptr() - pbase());
    if (n && !write_all(fd_, std::string_view(pbase(), n))) {
      err_ = errno ? errno : EIO;
      return false;
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  int err_ = 0;
  std::vector<char> buf_;
};

// Renders with `fn` straight into `fd`; false with the write error in `err`.
bool render_to(int fd, const Render& fn, int& err) {
  FdBuf buf(fd);
  std::ostream os(&buf);
  fn(os);
  bool ok = buf.finish();
  err = buf.error();
  return ok;
}

// Writes into an existing non-regular target (device, FIFO) as it is.
bool write_special(const std::string& path, const Render& fn, std::string& error) {
  int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) { error = fail(path, errno); return false; }
  int e = 0;
  bool ok = render_to(fd, fn, e);
  if (close(fd) != 0 && ok) { ok = false; e = errno; }
  if (!ok) error = fail(path, e);
  return ok;
}

// Renders into the temporary file `temp` (open as `fd`); removes it when rendering throws.
bool render_temp(int fd, const char* temp, mode_t mode, const Render& fn, int& err) {
  try {
    if (fchmod(fd, mode) != 0) { err = errno; return false; }
    return render_to(fd, fn, err);
  } catch (...) {
    close(fd);
    unlink(temp);
    throw;
  }
}

bool write_replacing(const std::string& path, const Render& fn, mode_t mode, std::string& error) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmpl = dir + "/." + base + ".sparkcheck-XXXXXX";  // beside the target: rename is atomic
  int slot = tmpl.size() < sizeof g_paths[0] ? claim_slot() : -1;
  if (slot < 0) { error = fail(path, tmpl.size() < sizeof g_paths[0] ? EBUSY : ENAMETOOLONG); return false; }
  char* temp = g_paths[slot];
  std::memcpy(temp, tmpl.c_str(), tmpl.size() + 1);
  int fd = mkstemp(temp);
  if (fd < 0) { error = fail(path, errno); g_state[slot] = 0; return false; }
  g_state[slot] = 2;
  int e = 0;
  bool ok = false;
  try {
    ok = render_temp(fd, temp, mode, fn, e);
  } catch (...) {
    g_state[slot] = 0;
    throw;
  }
  if (close(fd) != 0 && ok) { ok = false; e = errno; }
  if (ok && rename(temp, path.c_str()) != 0) { ok = false; e = errno; }
  if (!ok) unlink(temp);
  g_state[slot] = 0;
  if (!ok) error = fail(path, e);
  return ok;
}

}  // namespace

void remove_temp_files_on_signals() {
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
}

void forward_signals_to(int pid) { g_child.store(pid); }

int remove_on_signal(const std::string& path) {
  int slot = path.size() < sizeof g_paths[0] ? claim_slot() : -1;
  if (slot < 0) return -1;
  std::memcpy(g_paths[slot], path.c_str(), path.size() + 1);
  g_state[slot] = 2;
  return slot;
}

void forget_on_signal(int slot) {
  if (slot >= 0 && slot < kSlots) g_state[slot] = 0;
}

// The report goes out as it is rendered: memory does not grow with its size.
bool emit_report(const std::string& path, const Render& fn, std::ostream& out, std::ostream& err, const std::string& command) {
  if (path.empty()) {
    fn(out);
    return true;
  }
  std::string why;
  if (write_report(path, fn, why)) return true;
  err << command << ": " << why << "\n";
  return false;
}

bool write_report(const std::string& path, const Render& fn, std::string& error) {
  if (path.empty() || path == "-") {
    std::cout.flush();
    std::fflush(stdout);
    int e = 0;
    bool ok = render_to(1, fn, e);
    if (!ok) error = fail("standard output", e);
    return ok;
  }
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return write_special(path, fn, error);
  mode_t um = umask(0);
  umask(um);
  return write_replacing(path, fn, 0666 & ~um, error);
}

namespace {

// --fix's file, opened in its folder without following a link at its name.
struct FixTarget {
  int dir = -1, fd = -1;
  std::string base;
  struct stat st {};
  ~FixTarget() {
    if (fd >= 0) close(fd);
    if (dir >= 0) close(dir);
  }
};

bool open_target(const std::string& path, FixTarget& t, std::string& error) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  t.base = slash == std::string::npos ? path : path.substr(slash + 1);
  t.dir = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (t.dir >= 0) t.fd = openat(t.dir, t.base.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (t.fd < 0 || fstat(t.fd, &t.st) != 0) return error = fail(path, errno), false;
  if (!S_ISREG(t.st.st_mode)) return error = fail(path, EINVAL), false;
  return true;
}

// Up to `cap` bytes of the open file (one more tells that it is longer).
bool read_upto(int fd, size_t cap, std::string& out) {
  out.resize(cap + 1);
  size_t got = 0;
  for (ssize_t n; got < out.size(); got += static_cast<size_t>(n)) {
    n = read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) n = 0;
    else if (n < 0) return false;
    else if (n == 0) break;
  }
  out.resize(got);
  return true;
}

std::string random_suffix() {
  unsigned char r[8];
  if (getrandom(r, sizeof r, 0) != static_cast<ssize_t>(sizeof r)) std::memset(r, 0, sizeof r);
  std::string hex;
  for (unsigned char c : r) hex += "0123456789abcdef"[c >> 4], hex += "0123456789abcdef"[c & 15];
  return hex;
}

// Writes `data` to a new temporary file in the target's folder and renames it over the
// target, provided the name still holds the very file that was read (same device and inode,
// not a link swapped in since). Changed when it does not.
PatchWrite replace_target(const std::string& path, FixTarget& t, const std::string& data, std::string& error) {
  std::string tmp, full;
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    tmp = "." + t.base + ".sparkcheck-" + random_suffix();
    fd = openat(t.dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return error = fail(path, errno), PatchWrite::Failed;
  size_t slash = path.rfind('/');
  full = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + tmp;
  int slot = remove_on_signal(full);
  bool ok = write_all(fd, data) && fchmod(fd, t.st.st_mode & 07777) == 0;
  int e = ok ? 0 : errno;
  if (close(fd) != 0 && ok) ok = false, e = errno;
  struct stat now;
  bool same = fstatat(t.dir, t.base.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(now.st_mode) &&
              now.st_dev == t.st.st_dev && now.st_ino == t.st.st_ino;
  if (ok && same && renameat(t.dir, tmp.c_str(), t.dir, t.base.c_str()) != 0) ok = false, e = errno;
  if (!ok || !same) unlinkat(t.dir, tmp.c_str(), 0);
  forget_on_signal(slot);
  if (!ok) return error = fail(path, e), PatchWrite::Failed;
  return same ? PatchWrite::Written : PatchWrite::Changed;
}

}  // namespace

PatchWrite write_patch(const std::string& path, const std::string& before, const std::string& after, std::string& error) {
  FixTarget t;
  if (!open_target(path, t, error)) return PatchWrite::Failed;
  const std::string bom = "\xEF\xBB\xBF";
  std::string now;
  if (!read_upto(t.fd, before.size() + bom.size(), now)) return error = "cannot read " + path, PatchWrite::Failed;
  size_t skip = now.compare(0, bom.size(), bom) == 0 ? bom.size() : 0;
  if (now.compare(skip, std::string::npos, before) != 0) return PatchWrite::Changed;
  return replace_target(path, t, now.substr(0, skip) + after, error);
}

}  // namespace sc

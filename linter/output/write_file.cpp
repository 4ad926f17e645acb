#include "output/write_file.h"

#include <fcntl.h>
#include <sys/stat.h>
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
#include <sstream>

namespace sc {

namespace {

// The temporary file being written, for the signal handler (one at a time).
char g_temp[4096];
std::atomic<bool> g_temp_set{false};

void on_signal(int sig) {
  if (g_temp_set.load()) unlink(g_temp);
  signal(sig, SIG_DFL);
  raise(sig);
}

bool write_all(int fd, const std::string& s) {
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

// Writes into an existing non-regular target (device, FIFO) as it is.
bool write_special(const std::string& path, const std::string& data, std::string& error) {
  int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) { error = fail(path, errno); return false; }
  bool ok = write_all(fd, data);
  int e = errno;
  if (close(fd) != 0 && ok) { ok = false; e = errno; }
  if (!ok) error = fail(path, e);
  return ok;
}

bool write_replacing(const std::string& path, const std::string& data, mode_t mode, std::string& error) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmpl = dir + "/." + base + ".sparkcheck-XXXXXX";
  if (tmpl.size() >= sizeof g_temp) { error = fail(path, ENAMETOOLONG); return false; }
  std::memcpy(g_temp, tmpl.c_str(), tmpl.size() + 1);
  int fd = mkstemp(g_temp);
  if (fd < 0) { error = fail(path, errno); return false; }
  g_temp_set = true;
  bool ok = fchmod(fd, mode) == 0 && write_all(fd, data);
  int e = errno;
  if (close(fd) != 0 && ok) { ok = false; e = errno; }
  if (ok && rename(g_temp, path.c_str()) != 0) { ok = false; e = errno; }
  if (!ok) unlink(g_temp);
  g_temp_set = false;
  if (!ok) error = fail(path, e);
  return ok;
}

}  // namespace

void remove_temp_files_on_signals() {
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
}

bool write_report(const std::string& path, const std::function<void(std::ostream&)>& fn, std::string& error) {
  std::ostringstream buf;
  fn(buf);
  std::string data = buf.str();
  if (path.empty() || path == "-") {
    std::cout.flush();
    std::fflush(stdout);
    bool ok = write_all(1, data);
    if (!ok) error = fail("standard output", errno);
    return ok;
  }
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return write_special(path, data, error);
  mode_t um = umask(0);
  umask(um);
  return write_replacing(path, data, 0666 & ~um, error);
}

bool replace_file(const std::string& path, const std::string& data, std::string& error) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path.c_str(), real) || stat(real, &st) != 0) { error = fail(path, errno); return false; }
  if (!S_ISREG(st.st_mode)) { error = fail(path, EINVAL); return false; }
  return write_replacing(real, data, st.st_mode & 07777, error);
}

PatchWrite write_patch(const std::string& path, const std::string& before, const std::string& after, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.is_open() || in.bad()) { error = "cannot read " + path; return PatchWrite::Failed; }
  const std::string bom = "\xEF\xBB\xBF";
  size_t skip = now.compare(0, bom.size(), bom) == 0 ? bom.size() : 0;
  if (now.compare(skip, std::string::npos, before) != 0) return PatchWrite::Changed;
  return replace_file(path, now.substr(0, skip) + after, error) ? PatchWrite::Written : PatchWrite::Failed;
}

}  // namespace sc

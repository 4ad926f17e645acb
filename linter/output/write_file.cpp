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

// Temporary paths to remove on SIGINT/SIGTERM: 0 free, 1 being filled in, 2 armed.
constexpr int kSlots = 4;
char g_paths[kSlots][4096];
std::atomic<int> g_state[kSlots];

void on_signal(int sig) {
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
  std::string tmpl = dir + "/." + base + ".sparkcheck-XXXXXX";  // beside the target: rename is atomic
  int slot = tmpl.size() < sizeof g_paths[0] ? claim_slot() : -1;
  if (slot < 0) { error = fail(path, tmpl.size() < sizeof g_paths[0] ? EBUSY : ENAMETOOLONG); return false; }
  char* temp = g_paths[slot];
  std::memcpy(temp, tmpl.c_str(), tmpl.size() + 1);
  int fd = mkstemp(temp);
  if (fd < 0) { error = fail(path, errno); g_state[slot] = 0; return false; }
  g_state[slot] = 2;
  bool ok = fchmod(fd, mode) == 0 && write_all(fd, data);
  int e = errno;
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

// SPDX-License-Identifier: Apache-2.0
#include "core/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sc {

const char* file_kind_name(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISDIR(m)) return "a directory";
  return "not a regular file";
}

namespace {

bool read_all(int fd, size_t max_bytes, std::string& text, std::string& error) {
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::string("read failed: ") + std::strerror(errno);
      return false;
    }
    if (n == 0) return true;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      error = "larger than the " + std::to_string(max_bytes >> 20) + " MB limit";
      return false;
    }
  }
}
}  // namespace

bool read_regular_file(const std::string& path, std::string& text, std::string& error, size_t max_bytes,
                       bool follow_links) {
  int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow_links ? 0 : O_NOFOLLOW);
  int fd = open(path.c_str(), flags);
  if (fd < 0) {
    error = errno == ELOOP && !follow_links ? "a symbolic link (not followed)" : std::strerror(errno);
    return false;
  }
  struct stat st;
  bool ok = false;
  if (fstat(fd, &st) != 0) {
    error = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    error = std::string("not read: the path is ") + file_kind_name(st.st_mode) + ", not a regular file";
  } else if (static_cast<size_t>(st.st_size) > max_bytes) {
    error = "larger than the " + std::to_string(max_bytes >> 20) + " MB limit";
  } else {
    text.clear();
    ok = read_all(fd, max_bytes, text, error);
  }
  close(fd);
  return ok;
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the language server's framing and JSON-RPC dispatch (server/server.h). The
// input is the client's byte stream on standard input (Content-Length headers, JSON bodies);
// sc::lsp::serve reads it from a memory file and writes its answers to /dev/null. Nothing may
// crash, hang or let an exception out of serve.
//
// Before the input the target sends its own `initialize` (root: a private directory under
// $TMPDIR holding two small files, debounce 0) and `initialized`, so that the input's
// didOpen/didChange/codeAction/hover messages lint. A later `initialize` is refused by the
// server; inputs that name workspace folders are skipped (they would lint any directory of
// this machine, / included: slow, not a bug).
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "server/server.h"

namespace fs = std::filesystem;

namespace {

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

const std::string& prologue() {
  static const std::string p = [] {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/sparkcheck-fuzz-lsp-XXXXXX";
    if (!mkdtemp(tmpl.data())) std::abort();
    static const std::string dir = tmpl;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(dir, ec);
    });
    std::ofstream(tmpl + "/Dockerfile") << "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch\n";
    std::ofstream(tmpl + "/requirements.txt") << "torch==2.5.1+cu124\n";
    std::string init = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":"file://)" + tmpl +
                       R"(","initializationOptions":{"debounceMs":0},"capabilities":{}}})";
    return frame(init) + frame(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SPARKCHECK_NO_CACHE", "1", 1);  // the first lint would read a disk cache
  (void)prologue();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (in.find("Folders") != std::string_view::npos ||
      (in.find("\\u") != std::string_view::npos && in.find("didChangeWorkspace") != std::string_view::npos))
    return 0;
  int fd = memfd_create("fuzz-lsp-in", 0);
  int out = open("/dev/null", O_WRONLY);
  if (fd < 0 || out < 0) std::abort();
  const std::string& p = prologue();
  if (write(fd, p.data(), p.size()) != static_cast<ssize_t>(p.size()) ||
      (size && write(fd, data, size) != static_cast<ssize_t>(size)))
    std::abort();
  lseek(fd, 0, SEEK_SET);
  (void)sc::lsp::serve(fd, out);
  close(fd);
  close(out);
  return 0;
}

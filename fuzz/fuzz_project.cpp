// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the whole lint run (walk, read, parse, link, rules, policy,
// output) over a small generated project of 2-4 files.
//
// Input layout:  byte 0     file count (2 + b % 3) and flags (bit 7: prefilter on)
//                bytes 1..n the kind of each file (index into kFiles)
//                byte n+1   the output format (index into the writers)
//                the rest   the file texts, separated by "\x1e" (missing ones are empty)
// The files are written to a private temporary directory under $TMPDIR.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "output/output.h"

namespace fs = std::filesystem;

namespace {

// Paths chosen so that files link to each other (requirements -r/-c, Dockerfile
// COPY/RUN of scripts, compose build contexts, workflows running scripts).
const char* const kFiles[] = {
    "Dockerfile",       "requirements.txt", "scripts/train.sh",       "docker-compose.yml",
    "train.py",         "README.md",        "pyproject.toml",         "environment.yml",
    ".github/workflows/ci.yml", "requirements-dev.txt", "ds_config.json", "notebook.ipynb",
    "Makefile",         ".gitignore",       "docker/Dockerfile.cuda", "constraints.txt",
    "uv.lock",          "CMakeLists.txt",   "launch.slurm",           "setup.py",
};
constexpr size_t kKinds = sizeof kFiles / sizeof kFiles[0];

struct TempDir {
  std::string path;
  TempDir() {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/sparkcheck-fuzz-XXXXXX";
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

const std::string& work_dir() {
  static TempDir dir;
  return dir.path;
}

void clear_dir(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) fs::remove_all(e.path(), ec);
}

void write_file(const std::string& dir, std::string rel, std::string_view text) {
  std::error_code ec;
  if (fs::exists(dir + "/" + rel, ec)) rel = "sub/" + rel;  // the same kind twice
  fs::path p = fs::path(dir) / rel;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream(p, std::ios::binary) << text;
}

// Splits `rest` on the record separator into `n` texts (missing ones empty).
std::vector<std::string_view> split_texts(std::string_view rest, size_t n) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < n) {
    size_t cut = rest.find('\x1e');
    if (cut == std::string_view::npos) break;
    out.push_back(rest.substr(0, cut));
    rest.remove_prefix(cut + 1);
  }
  out.push_back(rest);
  out.resize(n);
  return out;
}

void render(const sc::LintResult& r, uint8_t pick) {
  auto& writers = sc::output_writers();
  if (writers.empty()) return;
  auto it = writers.begin();
  std::advance(it, pick % writers.size());
  sc::OutputOptions oo;
  std::ostringstream out;
  it->second(r, out, oo);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = work_dir();
  size_t n = size ? 2 + data[0] % 3 : 0;
  if (dir.empty() || size < n + 2) return 0;
  clear_dir(dir);
  std::string_view rest(reinterpret_cast<const char*>(data + n + 2), size - n - 2);
  std::vector<std::string_view> texts = split_texts(rest, n);
  for (size_t i = 0; i < n; ++i) write_file(dir, kFiles[data[1 + i] % kKinds], texts[i]);
  sc::LintOptions opt;
  opt.paths = {dir};
  opt.root = dir;
  opt.jobs = 1;
  opt.prefilter = (data[0] & 0x80) != 0;
  sc::LintResult r = sc::run_lint(opt);
  render(r, data[n + 1]);
  return 0;
}

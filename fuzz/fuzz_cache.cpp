// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the facts cache decoder (engine/facts_cache.h). A cache file lies in the
// lint root (.sparkcheck_cache/), so its bytes come from the repository: decode_cache must
// reject anything inconsistent (false, with a reason) and never crash, hang or throw.
//
// Input layout: byte 0 % 3 picks how the bytes become a cache file:
//   0  framed: byte 1 is the entry count; the rest are entry bytes. The target adds this
//      build's header (magic, format, version, layout), the root and options, and a trailer
//      with the right payload size and checksum, so that mutations reach the entry decoder.
//   1  the target adds the header only (the payload, root and options included, and the
//      trailer come from the input);
//   2  the whole file as given; it is also written to a private file and read back through
//      read_cache_file and cache_stated_entries (the checks before any byte is trusted).
// A cache that decodes is encoded again (every decoded fact is written back), and that
// encoding must decode too.
//
// SC_FUZZ_CACHE_SEEDS=DIR: instead of fuzzing, lints a few small files with the disk cache
// on, and writes the entries of the real cache file it made (.sparkcheck_cache/facts-*.bin)
// as framed seeds (mode 0) to DIR (fuzz/seeds.py runs this).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "engine/facts_cache.h"

namespace fs = std::filesystem;

namespace {

const std::string kRoot = "/sparkcheck-fuzz-root";

const std::string& options() {
  static const std::string o = sc::cache_options_text(sc::LintOptions{});
  return o;
}

uint64_t le64(std::string_view s) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(s[i])) << (8 * i);
  return v;
}

void put64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// This build's cache file of no entries, cut into header | payload (root, options) | trailer.
struct Frame {
  std::string header, prefix;
};

Frame split_frame(const std::string& file) {
  uint64_t payload = le64(std::string_view(file).substr(file.size() - 16, 8));
  size_t head = file.size() - 24 - payload;
  return {file.substr(0, head), file.substr(head, payload)};
}

const Frame& empty_frame() {
  static const Frame f = split_frame(sc::encode_cache(sc::ParseCache{}, kRoot, options()));
  return f;
}

std::string framed(std::string_view entries, uint64_t n, const Frame& f) {
  std::string payload = f.prefix;
  payload.append(entries);
  std::string out = f.header + payload;
  put64(out, n);
  put64(out, payload.size());
  put64(out, sc::cache_checksum(payload));
  return out;
}

// Mode 2: the file read from disk must be the bytes written or refused, and the stated
// count the trailer's first 8 bytes of a file read whole.
void check_file_reads(const std::string& file) {
  static const std::string path = [] {
    std::string t = (fs::temp_directory_path() / "sparkcheck-fuzz-cache-XXXXXX").string();
    if (!mkdtemp(t.data())) std::abort();
    return t + "/facts.bin";
  }();
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << file; }
  std::string bytes, why;
  bool read = sc::read_cache_file(path, bytes, why);
  if (read && bytes != file) __builtin_trap();
  uint64_t n = sc::cache_stated_entries(path);
  uint64_t want = read && file.size() >= 24 ? le64(std::string_view(file).substr(file.size() - 24, 8)) : 0;
  if (n != want) __builtin_trap();
}

// Seeds from a real cache: lint small files with the disk cache on, then keep the entries.
void write_seeds(const std::string& out_dir) {
  std::string tmpl = (fs::temp_directory_path() / "sparkcheck-cache-seed-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) std::exit(2);
  const std::string dir = tmpl;
  const std::pair<const char*, const char*> files[] = {
      {"Dockerfile", "FROM nvcr.io/nvidia/pytorch:24.10-py3\nENV TORCH_CUDA_ARCH_LIST=9.0\nCOPY requirements.txt .\n"
                     "RUN pip install -r requirements.txt && pip install flash-attn --no-build-isolation\n"},
      {"requirements.txt", "--extra-index-url https://download.pytorch.org/whl/cu124\ntorch==2.5.1+cu124\n"
                           "-c constraints.txt\nvllm>=0.6 ; python_version >= \"3.10\"\n"},
      {"train.py", "import torch\nfrom transformers import AutoModel\n"
                   "m = AutoModel.from_pretrained('x', attn_implementation='flash_attention_2')\n"
                   "torch.cuda.set_device(0)  # sparkcheck: ignore[G2] reason\n"},
      {"scripts/run.sh", "#!/bin/bash\nexport NCCL_P2P_DISABLE=1\ntorchrun --nproc_per_node=8 train.py\n"},
      {"docker-compose.yml", "services:\n  t:\n    build: .\n    deploy:\n      resources:\n        reservations:\n"
                             "          devices: [{driver: nvidia, count: all}]\n"},
      {"pyproject.toml", "[project]\nname = \"x\"\ndependencies = [\"torch==2.5.1\"]\n"},
      {".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                   "      - run: pip install torch\n"},
      {"README.md", "# x\n```bash\npip install torch --index-url https://download.pytorch.org/whl/cu121\n```\n"},
  };
  for (const auto& [rel, text] : files) {
    fs::create_directories((fs::path(dir) / rel).parent_path());
    std::ofstream(fs::path(dir) / rel, std::ios::binary) << text;
  }
  sc::LintOptions opt;
  opt.paths = {dir};
  opt.root = dir;
  opt.jobs = 1;
  opt.disk_cache = true;
  (void)sc::lint_with_disk_cache(opt, dir);
  size_t written = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / ".sparkcheck_cache", ec)) {
    if (e.path().filename().string().rfind("facts-", 0) != 0) continue;
    std::string bytes, why;
    if (!sc::read_cache_file(e.path().string(), bytes, why)) continue;
    // the real file's frame: its own header and (temporary) root; the entries do not name it
    uint64_t n = le64(std::string_view(bytes).substr(bytes.size() - 24, 8));
    Frame f = split_frame(bytes);
    sc::ParseCache check;
    if (!sc::decode_cache(bytes, dir, sc::cache_options_text(opt), check, why)) continue;
    // the entries follow the root and the options (two length-prefixed strings)
    sc::ParseCache empty;
    std::string none = sc::encode_cache(empty, dir, sc::cache_options_text(opt));
    size_t prefix = split_frame(none).prefix.size();
    std::string entries = f.prefix.substr(prefix);
    std::ofstream(out_dir + "/cache-all", std::ios::binary) << '\0' << static_cast<char>(n) << entries;
    // each entry alone: re-encode one entry at a time
    for (auto& [abs, entry] : check.entries) {
      sc::ParseCache one;
      one.entries[abs] = std::move(entry);
      std::string file = sc::encode_cache(one, dir, sc::cache_options_text(opt));
      std::string body = split_frame(file).prefix.substr(prefix);
      if (body.size() + 2 > 4096) continue;
      std::ofstream(out_dir + "/cache-entry-" + std::to_string(++written), std::ios::binary) << '\0' << '\1' << body;
    }
    ++written;
  }
  fs::remove_all(dir, ec);
  std::exit(written ? 0 : 1);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* d = std::getenv("SC_FUZZ_CACHE_SEEDS"); d && *d) write_seeds(d);
  (void)empty_frame();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  const Frame& f = empty_frame();
  std::string file;
  switch (data[0] % 3) {
    case 0:
      if (in.empty()) return 0;
      file = framed(in.substr(1), static_cast<unsigned char>(in[0]), f);
      break;
    case 1: file = f.header + std::string(in); break;
    default:
      file = std::string(in);
      check_file_reads(file);
      break;
  }
  sc::ParseCache cache;
  std::string why;
  if (!sc::decode_cache(file, kRoot, options(), cache, why)) {
    if (!cache.entries.empty()) __builtin_trap();  // documented: `out` is empty on failure
    return 0;
  }
  size_t n = cache.entries.size();
  std::string again = sc::encode_cache(cache, kRoot, options());
  sc::ParseCache back;
  if (!sc::decode_cache(again, kRoot, options(), back, why) || back.entries.size() > n) __builtin_trap();
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// The on-disk facts cache: every fact type survives the round trip; a damaged or forged file
// is rejected as a whole (or read back naming only its own file), never a crash.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "engine/facts_cache.h"

using namespace sc;

namespace {

const std::string kRoot = "/proj";
const std::string kPath = "deploy/Dockerfile";

Location at(int line, int col = 1) { return {kPath, {line, col, line, col + 3}}; }
Word word(const std::string& t, int line) { return {t, "'" + t + "'", false, at(line, 2)}; }

Command command(int line) {
  return {{word("pip", line), word("install", line)}, {{"PIP_X", word("1", line)}}, 2, CommandContext::Kubernetes, at(line)};
}

// Every field of every fact set to something other than its default.
FileFacts every_fact() {
  FileFacts f;
  f.kind = FileKind::CMake;
  Requirement r{"flash-attn", "flash_attn[x]==2.1+cu130; os_name=='nt'", {"x"}, "==2.1+cu130", "2.1+cu130",
                "cu130", "os_name=='nt'", "https://w/x.whl", true, true, at(2)};
  IndexUrl idx{"https://pypi.nvidia.com", IndexRole::CondaChannel, at(3)};
  Install in{Installer::CondaEnvFile, {r}, {{"req.txt", at(4)}}, {{"c.txt", at(5)}}, {idx}, true, true, true, "cu130", 1, at(6)};
  in.local_project = true;
  in.reference_only = true;
  f.installs = {in};
  f.indexes = {idx};
  f.images = {{"nvcr.io/nvidia/pytorch:25.11-py3", "builder", 0, false, true, -1, true, at(7)}, {"builder", "final", 1, true, false, 0, false, at(8)}};
  f.env = {{"CUDA_HOME", "/usr/local/cuda", EnvOrigin::Sed, 1, at(9)}};
  f.refs = {{"requirements.txt", RefKind::Dockerfile, "/app/", 1, at(10)}};
  f.commands = {command(11), command(12)};
  f.config = {{{"a", "[0]", "b"}, "4", false, 3, at(13), at(13, 5)}};
  f.python.imports = {{"unsloth.models", "Fast", "F", at(14)}};
  f.python.calls = {{"F.from_pretrained", "unsloth.models.Fast.from_pretrained",
                     {{"dtype", "bf16", true, "string", {"a", "b"}, at(15, 4)}}, at(15)}};
  f.python.assigns = {{"u.X", "unsloth.X", "True", true, 2, at(16)}};
  f.python.strings = {{"meta-llama/Llama-3", at(17)}};
  f.sbatch = {command(18)};
  f.code_lines = {{19, 21}};
  f.ci_jobs = {{"gitlab", "train", 19, 30, {"spark", "gpu"}, false}};
  f.expansions = {{at(22), at(23, 7), "expanded here ($CMD)"}};
  f.builds = {{"docker/Dockerfile", {{"ARG1", "v", EnvOrigin::BuildArg, -1, at(24)}}, at(24, 2)}};
  f.services = {{"trainer", {{"NCCL", "1", EnvOrigin::Yaml, -1, at(25)}}, "Dockerfile", "org/trainer:local", {{"./src", "/app"}}, 0, 2}};
  f.lockfile = true;
  f.locked = {{"torch", "2.9.1"}, {"vllm", "0.11"}};
  return f;
}

ParseCache one_entry(const std::string& text = std::string(40, 'x') + "\n" + std::string(40, 'y')) {
  auto pf = std::make_shared<ParsedFile>();
  pf->abs_path = kRoot + "/" + kPath;
  pf->content_hash = content_hash(text);
  pf->src = SourceFile(kPath, text);
  pf->src.release(pf->abs_path, pf->content_hash, text.size() + 3);
  pf->facts = every_fact();
  SuppressDirective d{true, {{"G9", {26, 20, 26, 22}, 3}}, "vendor pin", at(26), 26, 27};
  pf->set_suppressions({d}, {{Level::Error, kPath, {28, 1, 28, 9}, "unknown rule 'G99'", "bad-suppression"}});
  pf->memo().lines = {{1, "xx"}, {2, "y y"}};
  ParseCache c;
  ParseCache::Entry& e = c.entries[pf->abs_path];
  e.key = static_cast<uint32_t>(FileKind::Dockerfile) | cache_key::kInlineIgnore;
  e.file = pf;
  FileNotes notes;
  notes.parse = {{Level::Warning, kPath, {1, 1, 1, 2}, "parse note", "parse-error"}, {Level::Note, "", {}, "plain", "x"}};
  notes.read = {{Level::Note, kPath, {1, 1, 1, 2}, "byte-order mark", "bom"}};
  e.notes = std::make_unique<const FileNotes>(notes);
  e.disk = {11, 22, static_cast<int64_t>(text.size()), 1234567890123};
  return c;
}

// `bytes` decoded, and `loaded` set to give them back.
ParseCache decoded_with_raw(const std::string& bytes, LoadedBytes& loaded) {
  auto buf = std::make_shared<const std::string>(bytes);
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(*buf, kRoot, "o", back, why));
  loaded = [buf](size_t at, size_t len) {
    return at + len <= buf->size() ? std::string_view(*buf).substr(at, len) : std::string_view();
  };
  return back;
}

}  // namespace

TEST_CASE("facts cache: every fact type survives the round trip") {
  ParseCache c = one_entry();
  std::string bytes = encode_cache(c, kRoot, "opts");
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(bytes, kRoot, "opts", back, why));
  REQUIRE(back.entries.size() == 1);
  const ParseCache::Entry& e = back.entries.begin()->second;
  CHECK(back.entries.begin()->first == kRoot + "/" + kPath);
  CHECK(e.key == c.entries.begin()->second.key);
  CHECK(e.file->content_hash == c.entries.begin()->second.file->content_hash);
  CHECK(e.disk == c.entries.begin()->second.disk);
  CHECK(e.parse_notes().size() == 2);
  CHECK(e.parse_notes()[1].path.empty());
  CHECK(e.read_notes()[0].id == "bom");
  const ParsedFile& pf = *e.file;
  CHECK(pf.src.path() == kPath);
  CHECK(pf.src.released());
  CHECK(pf.abs_path == kRoot + "/" + kPath);
  const FileFacts& f = *pf.facts;
  CHECK(f.installs[0].packages[0].local_version == "cu130");
  CHECK(f.installs[0].indexes[0].role == IndexRole::CondaChannel);
  CHECK(f.installs[0].local_project);
  CHECK(f.installs[0].reference_only);
  CHECK_FALSE(f.installs[0].no_index);
  CHECK(f.images[1].parent_stage == 0);
  CHECK(f.images[0].unused);
  CHECK(f.images[0].no_gpu);
  CHECK_FALSE(f.images[1].no_gpu);
  CHECK_FALSE(f.images[1].unused);
  CHECK(f.commands[1].env[0].second.raw == "'1'");
  CHECK(f.commands[0].context == CommandContext::Kubernetes);
  CHECK(f.config[0].value_loc.range.col == 5);
  CHECK(f.python.calls[0].args[0].items.size() == 2);
  CHECK(f.python.assigns[0].scope_depth == 2);
  CHECK(f.ci_jobs[0].labels[1] == "gpu");
  CHECK(f.expansions[0].used.path == kPath);
  CHECK(f.services[0].mounts[0].second == "/app");
  CHECK(f.services[0].image == "org/trainer:local");
  CHECK(f.locked.at("vllm") == "0.11");
  CHECK(pf.suppressions()[0].ids[0].used == 3);
  CHECK(pf.suppression_problems()[0].level == Level::Error);
  CHECK(pf.line_memo->lines == c.entries.begin()->second.file->line_memo->lines);
  CHECK_FALSE(pf.line_memo->grown);
  // writing what was read gives the same bytes: every field read is every field written
  CHECK(encode_cache(back, kRoot, "opts") == bytes);
}

TEST_CASE("facts cache: a file that keeps its text keeps it through the cache") {
  ParseCache c = one_entry();
  auto pf = std::make_shared<ParsedFile>(*c.entries.begin()->second.file);
  pf->src = SourceFile(kPath, "FROM x\nRUN nvfp4\n" + std::string(200, '#'));
  c.entries.begin()->second.file = pf;
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(encode_cache(c, kRoot, "o"), kRoot, "o", back, why));
  CHECK(back.entries.begin()->second.file->src.line(2) == "RUN nvfp4");
  CHECK_FALSE(back.entries.begin()->second.file->src.released());
}

TEST_CASE("facts cache: written in blocks as it is made, the same bytes as made whole") {
  ParseCache c = one_entry();
  auto pf = std::make_shared<ParsedFile>(*c.entries.begin()->second.file);
  pf->src = SourceFile(kPath, "FROM x\n" + std::string(300000, '#'));  // a kept text: several blocks
  c.entries.begin()->second.file = pf;
  std::vector<std::string> blocks;
  encode_cache(c, kRoot, "o", [&](std::string_view b) { blocks.emplace_back(b); });
  CHECK(blocks.size() >= 3);  // header, payload, trailer
  std::string joined;
  for (const std::string& b : blocks) joined += b;
  CHECK(joined == encode_cache(c, kRoot, "o"));
  std::string payload = joined.substr(blocks[0].size(), joined.size() - blocks[0].size() - 24);
  uint64_t sum = 0;
  for (int k = 0; k < 8; ++k) sum |= uint64_t(static_cast<unsigned char>(joined[joined.size() - 8 + k])) << (8 * k);
  CHECK(sum == cache_checksum(payload));
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(joined, kRoot, "o", back, why));
  CHECK(back.entries.begin()->second.file->src.text().size() == pf->src.text().size());
}

TEST_CASE("facts cache: entries naming another file, outside the root or from a buffer are not written") {
  ParseCache c = one_entry();
  ParseCache::Entry& e = c.entries.begin()->second;
  auto other = std::make_shared<ParsedFile>(*e.file);
  other->facts.edit().expansions[0].used.path = "elsewhere.sh";
  c.entries.begin()->second.file = other;
  size_t skipped = 0;
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(encode_cache(c, kRoot, "o", &skipped), kRoot, "o", back, why));
  CHECK(skipped == 1);
  CHECK(back.entries.empty());
  c = one_entry();
  c.entries.begin()->second.key |= cache_key::kBuffer;
  REQUIRE(decode_cache(encode_cache(c, kRoot, "o", &skipped), kRoot, "o", back, why));
  CHECK((skipped == 1 && back.entries.empty()));
  c = one_entry();
  ParseCache moved;
  moved.entries["/elsewhere/deploy/Dockerfile"] = std::move(c.entries.begin()->second);  // abs does not match root + display
  REQUIRE(decode_cache(encode_cache(moved, kRoot, "o", &skipped), kRoot, "o", back, why));
  CHECK((skipped == 1 && back.entries.empty()));
}

TEST_CASE("facts cache: another version, root, options, a truncation or a flipped bit: ignored whole") {
  std::string bytes = encode_cache(one_entry(), kRoot, "o");
  ParseCache back;
  std::string why;
  CHECK_FALSE(decode_cache(bytes, "/other", "o", back, why));
  CHECK_FALSE(decode_cache(bytes, kRoot, "o+prefilter", back, why));
  CHECK_FALSE(decode_cache(bytes.substr(0, bytes.size() - 1), kRoot, "o", back, why));
  CHECK_FALSE(decode_cache(bytes + "x", kRoot, "o", back, why));
  CHECK_FALSE(decode_cache("", kRoot, "o", back, why));
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  CHECK_FALSE(decode_cache(flipped, kRoot, "o", back, why));
  CHECK(why == "checksum mismatch");
  std::string other_version = bytes;
  other_version[13] ^= 0x01;  // first character of the version string (magic 8, format 4 bytes, length 1)
  CHECK_FALSE(decode_cache(other_version, kRoot, "o", back, why));
  CHECK(back.entries.empty());
}

// Every single-byte change of the payload, resealed with a valid checksum: decoding either
// fails or yields entries that name only their own file, within the file's size.
TEST_CASE("facts cache: forged payloads are rejected or stay within their own file") {
  std::string bytes = encode_cache(one_entry(std::string(30, 'a')), kRoot, "o");
  // the payload lies before the trailer (entries, payload size, checksum: 8 bytes each)
  const size_t trailer = 24, end = bytes.size() - trailer;
  uint64_t size = 0;
  for (int i = 0; i < 8; ++i) size |= uint64_t(static_cast<unsigned char>(bytes[end + 8 + i])) << (8 * i);
  REQUIRE(size < end);
  const size_t head = end - size;
  size_t rejected = 0, accepted = 0;
  for (size_t i = head; i < end + 8; ++i) {  // the payload and the entry count
    for (unsigned char delta : {0x01, 0x40, 0x7f, 0x80, 0xff}) {
      std::string forged = bytes;
      forged[i] = static_cast<char>(static_cast<unsigned char>(forged[i]) ^ delta);
      uint64_t sum = cache_checksum(std::string_view(forged).substr(head, size));
      for (int k = 0; k < 8; ++k) forged[end + 16 + k] = static_cast<char>(sum >> (8 * k));
      ParseCache back;
      std::string why;
      if (!decode_cache(forged, kRoot, "o", back, why)) {
        CHECK(back.entries.empty());
        ++rejected;
        continue;
      }
      ++accepted;
      for (const auto& [abs, e] : back.entries) {
        CHECK(abs == kRoot + "/" + e.file->src.path());
        for (const Install& in : e.file->facts->installs) CHECK((in.loc.path.empty() || in.loc.path == e.file->src.path()));
        for (const Image& im : e.file->facts->images) CHECK(im.parent_stage < static_cast<int>(e.file->facts->images.size()));
        CHECK(e.file->src.line(1000000).empty());
      }
    }
  }
  CHECK(rejected > 0);
  INFO("accepted " << accepted);
}

TEST_CASE("facts cache: files on disk are written whole and never read through a link") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("sc-cache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "proj");
  std::string why;
  std::string cdir = cache_dir_for((dir / "proj").string(), "", why);
  CHECK(cdir == (dir / "proj" / ".sparkcheck_cache").string());
  // chosen, not made: a run with nothing to save creates nothing (cache.sh checks the made one)
  CHECK_FALSE(fs::exists(dir / "proj" / ".sparkcheck_cache"));
  fs::create_directory(cdir);
  std::string file = cache_file_in(cdir, "/proj", "o");
  std::ofstream(file) << "hello";
  std::string got;
  CHECK_FALSE(read_cache_file(file, got, why));  // not a cache file: rejected on its header
  CHECK(got.empty());
  std::ofstream(file) << cache_header() << "hello";
  REQUIRE(read_cache_file(file, got, why));
  CHECK(got == cache_header() + "hello");
  fs::remove(file);
  fs::create_symlink("/etc/passwd", file);
  CHECK_FALSE(read_cache_file(file, got, why));
  fs::remove(file);
  CHECK_FALSE(read_cache_file(file, got, why));
  CHECK(why.empty());  // missing: no complaint
  // a symlinked cache directory in the root is not used
  fs::create_directories(dir / "p2");
  fs::create_directory_symlink(dir / "proj", dir / "p2" / ".sparkcheck_cache");
  const char* old = std::getenv("XDG_CACHE_HOME");
  std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", (dir / "xdg").c_str(), 1);
  CHECK(cache_dir_for((dir / "p2").string(), "", why) == (dir / "xdg" / "sparkcheck").string());
  if (old) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else ::unsetenv("XDG_CACHE_HOME");
  fs::remove_all(dir);
}

TEST_CASE("facts cache: entries loaded from a buffer are saved again byte for byte") {
  std::string first = encode_cache(one_entry(), kRoot, "o");
  LoadedBytes loaded;
  ParseCache back = decoded_with_raw(first, loaded);
  std::string why;
  CacheEntry& e = back.entries.begin()->second;
  REQUIRE(e.loaded_len > 0);
  size_t asked = 0;
  LoadedBytes counted = [&](size_t at, size_t len) { return ++asked, loaded(at, len); };
  CHECK(encode_cache(back, kRoot, "o", nullptr, &counted) == first);
  CHECK(asked == 1);
  // the loaded bytes gone (the file changed in place): encoded anew, the same
  LoadedBytes gone = [](size_t, size_t) { return std::string_view(); };
  CHECK(encode_cache(back, kRoot, "o", nullptr, &gone) == first);
  e.disk.ctime_ns += 1;  // the stamp is written anew, the rest copied
  ParseCache again;
  REQUIRE(decode_cache(encode_cache(back, kRoot, "o", nullptr, &loaded), kRoot, "o", again, why));
  CHECK(again.entries.begin()->second.disk.ctime_ns == e.disk.ctime_ns);
  CHECK(again.entries.begin()->second.file->facts->locked.at("torch") == "2.9.1");
  // a file parsed anew makes a new entry, encoded anew
  auto fresh = std::make_shared<ParsedFile>(*e.file);
  fresh->facts.edit().locked["torch"] = "2.10.0";
  e = CacheEntry{fresh, std::move(e.notes), e.disk, e.key};
  REQUIRE(decode_cache(encode_cache(back, kRoot, "o", nullptr, &loaded), kRoot, "o", again, why));
  CHECK(again.entries.begin()->second.file->facts->locked.at("torch") == "2.10.0");
  // an entry whose file was swapped for other content: its loaded bytes are not copied
  ParseCache swapped = decoded_with_raw(first, loaded);
  CacheEntry& s = swapped.entries.begin()->second;
  auto other = std::make_shared<ParsedFile>(*s.file);
  other->content_hash.words[0] ^= 1;
  s.file = other;
  REQUIRE(decode_cache(encode_cache(swapped, kRoot, "o", nullptr, &loaded), kRoot, "o", again, why));
  CHECK(again.entries.begin()->second.file->content_hash == other->content_hash);
}

TEST_CASE("facts cache: a flagged-line memo that grew is saved anew; a forged one is rejected") {
  std::string first = encode_cache(one_entry(), kRoot, "o");
  LoadedBytes loaded;
  ParseCache back = decoded_with_raw(first, loaded);
  std::string why;
  LineMemo& memo = back.entries.begin()->second.file->memo();
  memo.lines.push_back({3, "z"});
  memo.grown = true;
  std::string grown = encode_cache(back, kRoot, "o", nullptr, &loaded);
  CHECK(grown != first);
  ParseCache again;
  REQUIRE(decode_cache(grown, kRoot, "o", again, why));
  CHECK(again.entries.begin()->second.file->line_memo->lines.size() == 3);
  // out of order, past the file's end, empty or too long: the whole cache is ignored
  for (std::pair<int, std::string> bad : {std::pair<int, std::string>{1, "dup"}, {1000, "far"}, {4, ""},
                                          {4, std::string(LineMemo::kMaxBytes + 1, 'l')}}) {
    ParseCache c = one_entry();
    c.entries.begin()->second.file->memo().lines.push_back(bad);
    CHECK_FALSE(decode_cache(encode_cache(c, kRoot, "o"), kRoot, "o", again, why));
  }
}

TEST_CASE("facts cache: entries stay sorted by path; a saved file out of order is rejected") {
  ParseCache c;
  auto entry = [](const std::string& display) {
    auto pf = std::make_shared<ParsedFile>();
    pf->abs_path = kRoot + "/" + display;
    pf->src = SourceFile(display, "x");
    pf->content_hash = content_hash("x");
    return CacheEntry{pf, nullptr, {}, static_cast<uint32_t>(FileKind::Shell)};
  };
  for (std::string d : {"b.sh", "a/c.sh", "a.sh", "a-b.sh"}) c.entries[kRoot + "/" + d] = entry(d);
  std::vector<std::string> order;
  for (const auto& [abs, e] : c.entries) order.push_back(abs);
  CHECK(std::is_sorted(order.begin(), order.end()));
  CHECK(c.entries.find(kRoot + "/a.sh")->second.file->src.path() == "a.sh");
  CHECK(c.entries.find(kRoot + "/zz.sh") == c.entries.end());
  // keep some, add others (one twice): sorted, one entry a path
  std::vector<bool> keep{true, false, true, false};
  std::vector<CacheEntries::Item> add;
  for (std::string d : {"0.sh", "c.sh", "0.sh"}) add.emplace_back(kRoot + "/" + d, entry(d));
  c.entries.keep_and_add(keep, std::move(add));
  order.clear();
  for (const auto& [abs, e] : c.entries) order.push_back(abs);
  CHECK(order == std::vector<std::string>{kRoot + "/0.sh", order[1], order[2], kRoot + "/c.sh"});
  CHECK(std::is_sorted(order.begin(), order.end()));
  // set aside and merged back
  CacheEntries aside = c.entries.split_off([](PathRef abs) { return abs.str() < kRoot + "/b"; });
  CHECK((aside.size() + c.entries.size() == 4 && !aside.empty()));
  c.entries.merge(aside);
  CHECK((aside.empty() && c.entries.size() == 4));
  ParseCache back;
  std::string why;
  REQUIRE(decode_cache(encode_cache(c, kRoot, "o"), kRoot, "o", back, why));
  CHECK(back.entries.size() == 4);
  CHECK(back.entries.begin()->second.key == static_cast<uint32_t>(FileKind::Shell));
  // the encoder writes in path order; a file with two entries swapped (resealed) is rejected
  auto payload = [](const ParseCache& p) {
    std::string b = encode_cache(p, kRoot, "o");
    uint64_t size = 0;
    for (int i = 0; i < 8; ++i) size |= uint64_t(static_cast<unsigned char>(b[b.size() - 16 + i])) << (8 * i);
    return std::pair{b, b.substr(b.size() - 24 - size, size)};
  };
  ParseCache one, two, none;
  one.entries[kRoot + "/a.sh"] = entry("a.sh");
  two.entries[kRoot + "/b.sh"] = entry("b.sh");
  size_t prefix = payload(none).second.size();
  std::string head = payload(none).first;
  std::string swapped = payload(two).second + payload(one).second.substr(prefix);
  std::string forged = head.substr(0, head.size() - 24 - prefix) + swapped;
  for (uint64_t v : {uint64_t(2), uint64_t(swapped.size()), cache_checksum(swapped)})
    for (int i = 0; i < 8; ++i) forged.push_back(static_cast<char>(v >> (8 * i)));
  CHECK_FALSE(decode_cache(forged, kRoot, "o", back, why));
  std::string ordered = payload(one).second + payload(two).second.substr(prefix);
  forged = head.substr(0, head.size() - 24 - prefix) + ordered;
  for (uint64_t v : {uint64_t(2), uint64_t(ordered.size()), cache_checksum(ordered)})
    for (int i = 0; i < 8; ++i) forged.push_back(static_cast<char>(v >> (8 * i)));
  CHECK(decode_cache(forged, kRoot, "o", back, why));  // the same splice in order is read
}

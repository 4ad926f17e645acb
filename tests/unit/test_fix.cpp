// SPDX-License-Identifier: Apache-2.0
// Autofix building blocks: byte offsets of a range, applying fixes without overlaps and
// only where the file still holds the old text, the unified diff, and the rules' edits.
#include <catch2/catch.hpp>

#include "engine/fix.h"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <unistd.h>

#include "output/diff.h"
#include "output/write_file.h"
#include "rule_check.h"

using namespace sc;

namespace {

// A result holding one file and findings with one fix each.
struct OneFile {
  LintResult r;
  explicit OneFile(const std::string& text) {
    auto pf = std::make_unique<ParsedFile>();
    pf->src = SourceFile("f.txt", text);
    pf->abs_path = "/nowhere/f.txt";
    r.project.files.push_back(std::move(pf));
  }
  void add(Range rg, std::string text, std::string old, bool safe = true) {
    Finding f;
    f.rule = "G7";
    f.loc = {"f.txt", rg};
    f.fixes.push_back({"t", safe, {{{"f.txt", rg}, std::move(text), std::move(old)}}});
    r.findings.push_back(f);
  }
};

}  // namespace

TEST_CASE("SourceFile::offsets: code-point columns to bytes", "[fix]") {
  SourceFile s("f", "ab\xC3\xA9" "c\r\nxyz");
  size_t b = 0, e = 0;
  REQUIRE(s.offsets({1, 3, 1, 5}, b, e));  // "éc"
  CHECK(s.text().substr(b, e - b) == "\xC3\xA9" "c");
  REQUIRE(s.offsets({2, 1, 2, 4}, b, e));
  CHECK(s.text().substr(b, e - b) == "xyz");
  CHECK_FALSE(s.offsets({2, 1, 2, 9}, b, e));  // past the end of the line
  CHECK_FALSE(s.offsets({3, 1, 3, 2}, b, e));  // no such line
}

TEST_CASE("plan_fixes: overlaps wait, stale old text and unsafe fixes are skipped", "[fix]") {
  OneFile o("ENV A=12.1 B=12.1\n");
  o.add({1, 7, 1, 11}, "12.1a", "12.1");
  o.add({1, 7, 1, 11}, "XX", "12.1");      // overlaps the first: next pass
  o.add({1, 14, 1, 18}, "12.1a", "12.0");  // the file does not say 12.0 there
  o.add({1, 1, 1, 4}, "RUN", "ENV", false);
  auto patches = plan_fixes(o.r, false);
  REQUIRE(patches.size() == 1);
  CHECK(patches[0].after == "ENV A=12.1a B=12.1\n");
  CHECK(patches[0].fixes == 1);
  CHECK(plan_fixes(o.r, true)[0].after == "RUN A=12.1a B=12.1\n");
  o.r.findings[0].suppressions.push_back({});
  CHECK(plan_fixes(o.r, false)[0].after == "ENV A=XX B=12.1\n");  // a suppressed finding is not fixed
}

// fuzz_fix (fuzz/corpus/fix/regress-self-overlapping-fix): one fix with two overlapping edits
// was applied, and apply_byte_edits copied the text between them twice.
TEST_CASE("plan_fixes: a fix whose own edits overlap is not applied", "[fix]") {
  OneFile o("abcdef\nghijkl\n");
  Finding f;
  f.rule = "G7";
  f.loc = {"f.txt", {1, 1, 1, 1}};
  f.fixes.push_back({"t", true, {{{"f.txt", {1, 2, 2, 2}}, "X", "bcdef\ng"}, {{"f.txt", {1, 4, 2, 4}}, "Y", "def\nghi"}}});
  o.r.findings.push_back(f);
  o.add({2, 5, 2, 6}, "Z", "k");
  auto patches = plan_fixes(o.r, false);
  REQUIRE(patches.size() == 1);
  CHECK(patches[0].after == "abcdef\nghijZl\n");
  CHECK(patches[0].fixes == 1);
}

TEST_CASE("unified_diff: hunks with context, line numbers, no newline at end", "[fix]") {
  std::string before;
  for (int i = 1; i <= 20; ++i) before += "line " + std::to_string(i) + "\n";
  before += "last";
  FilePatch p{"d/f", "/x", before, "", {}, 2};
  size_t l2 = before.find("line 2\n"), last = before.find("last");
  p.edits = {{l2 + 5, l2 + 6, "two\nand more"}, {last, last + 4, "LAST"}};
  p.after = apply_byte_edits(before, p.edits);
  std::string d = unified_diff(p);
  CHECK(d.find("--- a/d/f\n+++ b/d/f\n@@ -1,5 +1,6 @@\n line 1\n-line 2\n+line two\n+and more\n line 3\n") == 0);
  CHECK(d.find("@@ -18,4 +19,4 @@\n line 18\n line 19\n line 20\n-last\n\\ No newline at end of file\n+LAST\n"
               "\\ No newline at end of file\n") != std::string::npos);
}

TEST_CASE("rule fixes: G7 edits the list as written, also in a notebook's JSON", "[fix]") {
  test::MemProject mp({{"Dockerfile", "FROM x\nRUN nvcc -gencode arch=compute_121,code=sm_121 k.cu\n"
                                      "CMD [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n"}});
  auto out = mp.run("G7");
  REQUIRE(out.findings.size() == 1);
  REQUIRE(out.findings[0].fixes.size() == 1);
  const auto& edits = out.findings[0].fixes[0].edits;
  REQUIRE(edits.size() == 2);
  CHECK(edits[0].old == "121");
  CHECK(edits[0].loc.range == Range{2, 32, 2, 35});
  CHECK(edits[1].text == "121a");
  test::MemProject bw({{"Dockerfile", "FROM x\nENV TORCH_CUDA_ARCH_LIST=Blackwell\n"
                                      "CMD [\"vllm\", \"serve\", \"nvidia/Qwen3-8B-NVFP4\"]\n"}});
  auto none = bw.run("G7");
  REQUIRE(none.findings.size() == 1);
  CHECK(none.findings[0].fixes.empty());  // "Blackwell" takes no suffix
}

TEST_CASE("write_patch: keeps a byte-order mark, refuses a file that changed since it was read", "[fix]") {
  auto path = (std::filesystem::temp_directory_path() / "sc-test-fix.txt").string();
  auto put = [&](const std::string& t) { std::ofstream(path, std::ios::binary) << t; };
  auto get = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string err;
  put("\xEF\xBB\xBF" "A=12.1\r\n");
  CHECK(write_patch(path, "A=12.1\r\n", "A=12.1a\r\n", err) == PatchWrite::Written);
  CHECK(get() == "\xEF\xBB\xBF" "A=12.1a\r\n");
  CHECK(write_patch(path, "A=12.1\r\n", "A=12.1a\r\n", err) == PatchWrite::Changed);  // not what was read
  CHECK(get() == "\xEF\xBB\xBF" "A=12.1a\r\n");
  std::filesystem::remove(path);
  CHECK(write_patch(path, "", "x", err) == PatchWrite::Failed);
}

TEST_CASE("write_patch: never writes through a symbolic link at the file's name", "[fix]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("sc-test-fix-link-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tree");
  std::ofstream(dir / "outside.txt", std::ios::binary) << "A=12.1\n";
  fs::create_symlink(dir / "outside.txt", dir / "tree" / "Dockerfile");  // swapped in after the read
  std::string err;
  CHECK(write_patch((dir / "tree" / "Dockerfile").string(), "A=12.1\n", "A=12.1a\n", err) == PatchWrite::Failed);
  std::ifstream in(dir / "outside.txt", std::ios::binary);
  CHECK(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()) == "A=12.1\n");
  CHECK(fs::is_symlink(dir / "tree" / "Dockerfile"));
  size_t left = 0;
  for (auto& e : fs::directory_iterator(dir / "tree")) left += e.path().filename() != "Dockerfile";
  CHECK(left == 0);  // no temporary file left behind
  fs::remove_all(dir);
}

namespace {

// Up to three sorted, non-overlapping random edits of `text`.
std::vector<ByteEdit> random_edits(const std::string& text, std::mt19937& rng) {
  std::vector<size_t> cuts;
  for (int i = 0, n = static_cast<int>(rng() % 6); i < n; ++i) cuts.push_back(rng() % (text.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<ByteEdit> out;
  for (size_t i = 0; i + 1 < cuts.size(); i += 2) {
    if (!out.empty() && cuts[i] == out.back().begin) continue;  // plan_fixes never takes two at one place
    out.push_back({cuts[i], cuts[i + 1], std::string(rng() % 3, static_cast<char>('A' + rng() % 3)) + (rng() % 2 ? "\n" : "")});
  }
  return out;
}

}  // namespace

TEST_CASE("compose_patches: two fix passes as one patch on the original text", "[fix]") {
  FilePatch a{"f", "/f", "one\ntwo\nthree\n", "", {{4, 7, "TWO"}}, 1};
  a.after = apply_byte_edits(a.before, a.edits);
  // the second pass edits inside the first one's new text, and elsewhere
  FilePatch b{"f", "/f", a.after, "", {{5, 6, "w"}, {8, 13, "3"}}, 1};
  b.after = apply_byte_edits(b.before, b.edits);
  FilePatch c = compose_patches(a, b);
  CHECK(c.before == "one\ntwo\nthree\n");
  CHECK(c.after == "one\nTwO\n3\n");
  CHECK(c.fixes == 2);
  REQUIRE(c.edits.size() == 2);
  CHECK((c.edits[0].begin == 4 && c.edits[0].end == 7 && c.edits[0].text == "TwO"));
  CHECK((c.edits[1].begin == 8 && c.edits[1].end == 13 && c.edits[1].text == "3"));
  CHECK(unified_diff(c) == "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+TwO\n-three\n+3\n");

  std::mt19937 rng(13);
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    for (int k = 0, n = static_cast<int>(rng() % 12); k < n; ++k) text += static_cast<char>(rng() % 3 ? 'a' + rng() % 3 : '\n');
    FilePatch p{"f", "/f", text, "", random_edits(text, rng), 1};
    p.after = apply_byte_edits(p.before, p.edits);
    FilePatch q{"f", "/f", p.after, "", random_edits(p.after, rng), 1};
    q.after = apply_byte_edits(q.before, q.edits);
    FilePatch r = compose_patches(p, q);
    INFO("text '" << text << "' -> '" << p.after << "' -> '" << q.after << "'");
    REQUIRE(apply_byte_edits(r.before, r.edits) == q.after);
    for (size_t k = 1; k < r.edits.size(); ++k) REQUIRE(r.edits[k - 1].end < r.edits[k].begin);
  }
}

// SPDX-License-Identifier: Apache-2.0
// The knowledge tables (knowledge/*.yaml): every table loads, every entry has a source that names
// a public reference, patterns compile, and the accessors behave.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <string>

#include "knowledge/doc_tables.h"
#include "knowledge/knowledge.h"
#include "knowledge/versions.h"

using namespace sc;

TEST_CASE("knowledge tables load without errors", "[knowledge]") {
  for (const std::string& e : knowledge::load_errors()) FAIL(e);
  REQUIRE_FALSE(knowledge::all_tables().empty());
}

TEST_CASE("every knowledge entry names its source", "[knowledge]") {
  for (const knowledge::Table* t : knowledge::all_tables()) {
    INFO(t->file << ": " << t->name);
    CHECK_FALSE(t->about.empty());
    CHECK_FALSE(t->entries.empty());
    for (const knowledge::Entry& e : t->entries) CHECK_FALSE(e.source.empty());
  }
}

namespace {

// What is wrong with a `source:` value, or "" when nothing is. A source names a public reference a
// reader can open: an https:// address (an issue, a PR, a documentation page, an upstream file at a
// commit), or a file of this repository written "this repository: PATH" (PATH relative to the
// source tree). Notes kept outside the repository, and issue numbers of our own, open nothing.
std::string source_problem(const std::string& source) {
  for (const char* internal : {"shared/reference", "domain-facts", "sparkcheck issue"})
    if (source.find(internal) != std::string::npos)
      return std::string("cites ") + internal + ", which no reader can open";
  bool opens = source.find("https://") != std::string::npos;
  const std::string repo = "this repository: ";
  for (size_t at = source.find(repo); at != std::string::npos; at = source.find(repo, at + 1)) {
    size_t from = at + repo.size(), end = source.find_first_of(" \t", from);
    std::string path = source.substr(from, end - from);  // to the end when no blank follows
    while (!path.empty() && std::strchr(",;)", path.back())) path.pop_back();
    if (path.empty() || !std::filesystem::exists(std::filesystem::path(SC_SOURCE_DIR) / path))
      return "names '" + repo + path + "', which is not in the source tree";
    opens = true;
  }
  return opens ? "" : "names no https:// address and no 'this repository: PATH'";
}

}  // namespace

TEST_CASE("every knowledge source names a public reference", "[knowledge]") {
  CHECK(source_problem("https://github.com/sgl-project/sglang/issues/18203 (libcudart.so.12)") == "");
  CHECK(source_problem("this repository: docs/cluster.md (what is compared)") == "");
  CHECK_FALSE(source_problem("shared/reference/domain-facts.md G7.1").empty());
  CHECK_FALSE(source_problem("https://x.org; domain-facts.md G7.1").empty());
  CHECK_FALSE(source_problem("sparkcheck issue 23 (eval F)").empty());
  CHECK_FALSE(source_problem("NVIDIA/nccl makefiles/common.mk").empty());
  CHECK_FALSE(source_problem("this repository: no/such/file.cpp").empty());
  for (const knowledge::Table* t : knowledge::all_tables()) {
    INFO(t->file << ": " << t->name);
    if (!t->source.empty()) {
      INFO("table source: " << t->source);
      CHECK(source_problem(t->source) == "");
    }
    for (const knowledge::Entry& e : t->entries) {  // its own source, else the table's
      INFO("entry " << e.get("name") << ": " << e.source);
      CHECK(source_problem(e.source) == "");
    }
  }
}

TEST_CASE("knowledge lookups", "[knowledge]") {
  CHECK(knowledge::in("ngc-framework-repos", "pytorch"));
  CHECK_FALSE(knowledge::in("ngc-framework-repos", "pytorch-lightning"));
  CHECK_THROWS_AS(knowledge::table("no-such-table"), std::logic_error);
  const auto& t = knowledge::table("ngc-framework-repos");
  CHECK(t.values().size() == t.entries.size());
  CHECK(t.match("anything") == nullptr);  // no pattern entries
}

namespace {

// Texts to try every table's patterns on: every value in the tables, as written, upper-cased
// and inside other text, and some written for the patterns.
std::vector<std::string> sample_texts() {
  std::vector<std::string> v = {"", "nvidia/Llama-3.1-8B-FP4", "NVIDIA/x-fp4-v2", "-arch=sm_121a", "X_DIR",
                                "a/b.tar.gz", "git+https://x", "~/src", ".", "QuantAlgo.NVFP4", "self-hosted"};
  for (const knowledge::Table* t : knowledge::all_tables())
    for (const knowledge::Entry& e : t->entries) {
      for (const auto& [k, x] : e.fields) v.push_back(x);
      for (const auto& [k, xs] : e.lists) v.insert(v.end(), xs.begin(), xs.end());
    }
  for (size_t i = 0, n = v.size(); i < n; ++i) {
    std::string up = v[i];
    for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    v.push_back(up);
    v.push_back("x " + v[i] + " y");
  }
  return v;
}

}  // namespace

TEST_CASE("Table::matches finds what each pattern matches on its own", "[knowledge]") {
  std::vector<std::string> texts = sample_texts();
  for (const knowledge::Table* t : knowledge::all_tables())
    for (const std::string& text : texts) {
      std::vector<const knowledge::Entry*> one_by_one;
      for (const knowledge::Entry& e : t->entries)
        if (e.re && RE2::PartialMatch(text, *e.re)) one_by_one.push_back(&e);
      INFO(t->name << ": " << text);
      CHECK(t->matches(text) == one_by_one);
    }
}

TEST_CASE("version ranges name a release series", "[knowledge]") {
  const auto* e = knowledge::table("broken-combinations").find("unsloth-with-transformers-5.5");
  REQUIRE(e);
  CHECK(knowledge::version_in_range(*e, "5.5.0"));
  CHECK(knowledge::version_in_range(*e, "5.5.2.post1"));
  CHECK(knowledge::version_in_range(*e, "5.5.0rc1"));   // the 5.5 code before release
  CHECK(knowledge::version_in_range(*e, "5.5.0.dev0"));
  CHECK_FALSE(knowledge::version_in_range(*e, "5.6.0rc1"));  // PEP 440: `<5.6.0` excludes 5.6 pre-releases
  CHECK_FALSE(knowledge::version_in_range(*e, "5.6.0.dev3"));
  CHECK_FALSE(knowledge::version_in_range(*e, "5.4.9"));
  CHECK_FALSE(knowledge::version_in_range(*e, "5.4.0rc1"));
  CHECK_FALSE(knowledge::version_in_range(*e, "5.6.0"));
}

TEST_CASE("specifier_allows reads PEP 440 clauses", "[knowledge]") {
  using knowledge::specifier_allows;
  CHECK(specifier_allows(">=2.1", "2.9.1"));
  CHECK_FALSE(specifier_allows("<2.9", "2.9.1"));
  CHECK(specifier_allows(">=2.1,<3", "2.9.1"));
  CHECK_FALSE(specifier_allows(">=2.1, <2.5", "2.9.1"));
  CHECK(specifier_allows("==2.9.*", "2.9.1"));
  CHECK_FALSE(specifier_allows("==2.8.*", "2.9.1"));
  CHECK(specifier_allows("~=2.9.0", "2.9.1"));
  CHECK_FALSE(specifier_allows("~=2.9.0", "2.10.0"));
  CHECK(specifier_allows("!=2.9.0", "2.9.1"));
  CHECK(specifier_allows("", "2.9.1"));
  CHECK(specifier_allows("==2.9.1", "2.9.1"));  // the local part is ignored by compare_versions
}

TEST_CASE("rule docs' knowledge tables are written from the data", "[knowledge]") {
  std::string error;
  std::string md =
      "intro\n<!-- knowledge-table tp-flags: Flags=code:flags; Launcher=launcher; Use=use; Kind=launcher?one:any -->\n"
      "| stale |\n<!-- /knowledge-table -->\nafter\n";
  std::string out = knowledge::render_doc_tables(md, error);
  CHECK(error.empty());
  CHECK(out.find("| stale |") == std::string::npos);
  CHECK(out.find("| Flags | Launcher | Use | Kind |\n|---|---|---|---|\n") != std::string::npos);
  CHECK(out.find("| `--tensor-parallel-size`, `--tensor_parallel_size`, `-tp` | vllm | inference | one |") != std::string::npos);
  CHECK(out.find("| `--tensor-model-parallel-size`, `--tensor_model_parallel_size` |  | training | any |") != std::string::npos);
  CHECK(out.rfind("<!-- /knowledge-table -->\nafter\n") != std::string::npos);
  CHECK(knowledge::render_doc_tables(out, error) == out);  // stable
  // one row per entry
  size_t rows = 0;
  for (size_t k = out.find("\n| `"); k != std::string::npos; k = out.find("\n| `", k + 1)) ++rows;
  CHECK(rows == knowledge::table("tp-flags").entries.size());
  // a cell never breaks the table
  CHECK(knowledge::render_doc_tables("<!-- knowledge-table broken-combinations: R=report -->\n<!-- /knowledge-table -->\n", error)
            .find("| NVIDIA/dgx-spark-playbooks#57 |") != std::string::npos);
  for (const char* bad : {"<!-- knowledge-table no-such-table: A=name -->\n<!-- /knowledge-table -->\n",
                          "<!-- knowledge-table tp-flags: A -->\n<!-- /knowledge-table -->\n",
                          "<!-- knowledge-table tp-flags: A=name -->\nrows but no end\n"}) {
    error.clear();
    CHECK(knowledge::render_doc_tables(bad, error).empty());
    CHECK_FALSE(error.empty());
  }
}

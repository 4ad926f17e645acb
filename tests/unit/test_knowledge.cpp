// The knowledge tables (knowledge/*.yaml): every table loads, every entry has a source,
// patterns compile, and the accessors behave.
#include <catch2/catch.hpp>

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

TEST_CASE("knowledge lookups", "[knowledge]") {
  CHECK(knowledge::in("ngc-framework-repos", "pytorch"));
  CHECK_FALSE(knowledge::in("ngc-framework-repos", "pytorch-lightning"));
  CHECK_THROWS_AS(knowledge::table("no-such-table"), std::logic_error);
  const auto& t = knowledge::table("ngc-framework-repos");
  CHECK(t.values().size() == t.entries.size());
  CHECK(t.match("anything") == nullptr);  // no pattern entries
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

// SPDX-License-Identifier: Apache-2.0
// Unit tests for inline suppressions (core/suppress.*), the engine's policy
// pass (severity, per-file-ignores, unused suppressions) and baselines.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/baseline.h"
#include "engine/engine.h"
#include "core/registry.h"
#include "core/suppress.h"

using namespace sc;
namespace fs = std::filesystem;

namespace {

// A test-only rule: flags every line of every file that contains "FLAGME".
class FlagRule : public Rule {
 public:
  std::string_view id() const override { return "X1"; }
  void check(const Project& p, Reporter& out) const override {
    for (const auto& pf : p.files)
      for (int l = 1; l <= pf->src.line_count(); ++l) {
        std::string_view line = pf->src.line(l);
        size_t at = line.find("FLAGME");
        if (at == std::string_view::npos) continue;
        Finding f;
        f.rule = "X1";
        f.level = Level::Warning;
        f.loc = {pf->src.path(), {l, static_cast<int>(at) + 1, l, static_cast<int>(at) + 7}};
        f.message = "flagged";
        out.report(f);
      }
  }
};
SPARKCHECK_RULE(FlagRule);

std::vector<SuppressDirective> parse(const std::string& text, std::vector<Notification>& problems,
                                     bool allow_reasonless = false, const std::string& path = "run.sh") {
  SourceFile src(path, text);
  return parse_suppressions(src, allow_reasonless, problems);
}

Finding finding(const std::string& rule, int line, const std::string& path = "run.sh") {
  Finding f;
  f.rule = rule;
  f.loc = {path, {line, 1, line, 2}};
  return f;
}

struct TempProject {
  fs::path dir;
  explicit TempProject(const std::string& name) : dir(fs::temp_directory_path() / name) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempProject() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) const { std::ofstream(dir / rel) << text; }
  LintResult lint(LintOptions o = {}) const {
    o.paths = {dir.string()};
    o.root = dir.string();
    o.no_ignore = true;
    o.select = {"X1", kUnusedSuppression};
    return run_lint(o);
  }
};

size_t unsuppressed(const LintResult& r, const std::string& rule) {
  size_t n = 0;
  for (auto& f : r.findings) n += f.rule == rule && f.suppressions.empty();
  return n;
}

}  // namespace

TEST_CASE("suppression comments: scope, ids and reasons", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse(
      "pip install torch  # sparkcheck: ignore[G1, g9] -- tested wheel\n"
      "# sparkcheck: ignore[G2] -- next line\n"
      "pip install x \\\n"
      "  y\n"
      "#sparkcheck:file-ignore[G7]--whole file\n",
      problems);
  REQUIRE(problems.empty());
  REQUIRE(d.size() == 3);
  CHECK(!d[0].file_scope);
  CHECK(d[0].first_line == 1);
  CHECK(d[0].last_line == 1);  // trailing comment: its own line only
  REQUIRE(d[0].ids.size() == 2);
  CHECK(d[0].ids[0].rule == "G1");
  CHECK(d[0].ids[1].rule == "G9");  // canonical spelling
  CHECK(d[0].ids[1].range.col == 45);
  CHECK(d[0].reason == "tested wheel");
  CHECK(d[1].first_line == 2);
  CHECK(d[1].last_line == 4);  // the next line and its backslash continuation
  CHECK(d[2].file_scope);
  CHECK(d[2].reason == "whole file");
  CHECK(d[2].covers(100));
}

TEST_CASE("stacked stand-alone comments all cover the code line below", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse("# sparkcheck: ignore[G1] -- a\n# sparkcheck: ignore[G9] -- b\ncode\n", problems);
  REQUIRE(d.size() == 2);
  CHECK(d[0].covers(3));
  CHECK(d[1].covers(3));
  CHECK(!d[0].covers(4));
}

TEST_CASE("bad suppression comments are errors with a line and column", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse(
      "x # sparkcheck: ignore[G42] -- typo\n"
      "x # sparkcheck: ignore[G1]\n"
      "x # sparkcheck: ignore G1 -- no brackets\n"
      "x # sparkcheck: disable[G1] -- wrong word\n"
      "x # sparkcheck: ignore[G1] because\n"
      "x # sparkcheck: ignore[] -- empty\n"
      "x # sparkcheck: ignore[unused-suppression] -- meta\n",
      problems);
  CHECK(d.empty());
  REQUIRE(problems.size() == 7);
  for (auto& p : problems) {
    CHECK(p.level == Level::Error);
    CHECK(p.path == "run.sh");
  }
  CHECK(problems[0].id == "suppression-unknown-rule");
  CHECK(problems[0].range.line == 1);
  CHECK(problems[0].range.col == 24);
  CHECK(problems[0].message.find("G42") != std::string::npos);
  CHECK(problems[0].message.find("G10") != std::string::npos);  // lists the valid ids
  CHECK(problems[1].id == "suppression-missing-reason");
  CHECK(problems[1].range.line == 2);
  CHECK(problems[2].id == "suppression-malformed");
  CHECK(problems[3].id == "suppression-malformed");
  CHECK(problems[3].message.find("disable") != std::string::npos);
  CHECK(problems[4].id == "suppression-malformed");
  CHECK(problems[5].id == "suppression-malformed");
  CHECK(problems[6].id == "suppression-unknown-rule");
}

TEST_CASE("reasonless suppressions when the configuration allows them", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse("x # sparkcheck: ignore[G1]\n", problems, true);
  CHECK(problems.empty());
  REQUIRE(d.size() == 1);
  std::vector<Finding> f = {finding("G1", 1)};
  CHECK(apply_suppressions(d, f) == 1);
  CHECK(f[0].suppressions[0].justification == "(no reason given)");
}

TEST_CASE("text that merely mentions sparkcheck is not a directive", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse("# run sparkcheck: it is good\necho sparkcheck:ignore[G1]\n", problems);
  CHECK(d.empty());
  CHECK(problems.empty());
}

TEST_CASE("notebook cells: the comment inside a JSON string covers the next source line", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse(
      "{\"cells\": [{\"source\": [\n"
      "    \"# sparkcheck: ignore[G9] -- pinned on purpose\\n\",\n"
      "    \"!pip install torch\\n\"\n"
      "]}]}\n",
      problems, false, "nb.ipynb");
  REQUIRE(problems.empty());
  REQUIRE(d.size() == 1);
  CHECK(d[0].reason == "pinned on purpose");
  CHECK(d[0].covers(3));
}

TEST_CASE("apply and unused: line scope beats file scope, other files untouched", "[suppress]") {
  std::vector<Notification> problems;
  auto d = parse(
      "# sparkcheck: file-ignore[G1] -- all of them\n"
      "a  # sparkcheck: ignore[G1,G9] -- just here\n"
      "b\n",
      problems);
  REQUIRE(problems.empty());
  std::vector<Finding> f = {finding("G1", 2), finding("G1", 3), finding("G1", 3, "other.sh"), finding("G2", 2)};
  CHECK(apply_suppressions(d, f) == 2);
  CHECK(f[0].suppressions.at(0).justification == "just here");
  CHECK(f[1].suppressions.at(0).justification == "all of them");
  CHECK(f[2].suppressions.empty());
  CHECK(f[3].suppressions.empty());
  auto unused = unused_suppressions(d, [](const std::string&) { return true; });
  REQUIRE(unused.size() == 1);  // G9 on line 2
  CHECK(unused[0].rule == kUnusedSuppression);
  CHECK(unused[0].loc.range.line == 2);
  CHECK(unused[0].message.find("G9") != std::string::npos);
  // a rule that did not run cannot make its suppression unused
  CHECK(unused_suppressions(d, [](const std::string& r) { return r != "G9"; }).empty());
}

TEST_CASE("rule ids: canonical spelling and the known list", "[suppress]") {
  CHECK(canonical_rule_id("g10") == "G10");
  CHECK(canonical_rule_id("G99").empty());
  CHECK(canonical_rule_id("X1") == "X1");  // registered rules count
  CHECK(canonical_rule_id("UNUSED-SUPPRESSION") == kUnusedSuppression);
  auto ids = known_rule_ids();
  REQUIRE(ids.size() >= 11);
  CHECK(ids[0] == "G1");
  CHECK(ids[9] == "G10");
  CHECK(ids.back() == kUnusedSuppression);
}

TEST_CASE("engine: inline suppressions, unused ones, --no-inline-ignore", "[suppress][engine]") {
  TempProject p("sc-suppress-engine");
  p.write("run.sh",
          "echo FLAGME  # sparkcheck: ignore[X1] -- known\n"
          "# sparkcheck: ignore[X1] -- nothing below\n"
          "echo fine\n"
          "echo FLAGME\n");
  LintResult r = p.lint();
  CHECK(!r.input_error);
  CHECK(unsuppressed(r, "X1") == 1);
  REQUIRE(unsuppressed(r, kUnusedSuppression) == 1);
  for (auto& f : r.findings)
    if (f.rule == kUnusedSuppression) {
      CHECK(f.loc.range.line == 2);
      CHECK(!f.fingerprint.empty());
    }
  LintOptions audit;
  audit.inline_ignore = false;
  LintResult a = p.lint(audit);
  CHECK(unsuppressed(a, "X1") == 2);
  CHECK(unsuppressed(a, kUnusedSuppression) == 0);
  LintOptions louder;
  louder.severity[kUnusedSuppression] = Level::Error;
  for (auto& f : p.lint(louder).findings)
    if (f.rule == kUnusedSuppression) CHECK(f.level == Level::Error);
  LintOptions quiet;
  quiet.ignore = {kUnusedSuppression};
  CHECK(unsuppressed(p.lint(quiet), kUnusedSuppression) == 0);
}

TEST_CASE("engine: a bad suppression is an input error with file and line", "[suppress][engine]") {
  TempProject p("sc-suppress-bad");
  p.write("run.sh", "echo hi\necho FLAGME  # sparkcheck: ignore[G99] -- typo\n");
  LintResult r = p.lint();
  CHECK(r.input_error);
  bool seen = false;
  for (auto& n : r.notifications)
    if (n.id == "suppression-unknown-rule") {
      seen = true;
      CHECK(n.path == "run.sh");
      CHECK(n.range.line == 2);
    }
  CHECK(seen);
  CHECK(unsuppressed(r, "X1") == 1);  // the finding is still reported
}

TEST_CASE("engine: severity overrides, per-file-ignores and config excludes", "[suppress][engine]") {
  TempProject p("sc-suppress-policy");
  fs::create_directories(p.dir / "tests");
  fs::create_directories(p.dir / "data");
  p.write("run.sh", "echo FLAGME\n");
  p.write("tests/t.sh", "echo FLAGME\n");
  p.write("data/d.sh", "echo FLAGME\n");
  LintOptions o;
  o.severity["X1"] = Level::Error;
  o.per_file_ignores.push_back({{"tests/**", p.dir.string()}, {"X1"}, ".sparkcheck.yaml:3"});
  o.exclude_scoped.push_back({"data/", p.dir.string()});
  LintResult r = p.lint(o);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].loc.path == "run.sh");
  CHECK(r.findings[0].level == Level::Error);
  CHECK(r.findings[1].loc.path == "tests/t.sh");
  REQUIRE(r.findings[1].suppressions.size() == 1);
  CHECK(r.findings[1].suppressions[0].kind == "external");
  CHECK(r.findings[1].suppressions[0].justification.find(".sparkcheck.yaml:3") != std::string::npos);
}

TEST_CASE("scoped globs are relative to the config directory", "[config]") {
  ScopedGlob g{"sub/*.sh", "/repo"};
  CHECK(g.matches("/repo/sub/a.sh", "a.sh"));
  CHECK(!g.matches("/other/sub/a.sh", "sub/a.sh"));
  ScopedGlob base_name{"*.ipynb", "/repo"};
  CHECK(base_name.matches("/repo/x/y/n.ipynb", "y/n.ipynb"));
  ScopedGlob display{"sub/*.sh", ""};
  CHECK(display.matches("/anything", "sub/a.sh"));
}

TEST_CASE("fingerprints survive moved lines, so baselines do too", "[baseline][engine]") {
  TempProject p("sc-baseline-move");
  p.write("run.sh", "echo one\necho FLAGME here\n");
  LintResult before = p.lint();
  REQUIRE(before.findings.size() == 1);
  std::ostringstream os;
  write_baseline(before, os, "");
  Baseline bl;
  std::string err;
  REQUIRE(parse_baseline(os.str(), "b.json", bl, err));
  CHECK(bl.fingerprints.count(before.findings[0].fingerprint));

  // insert lines above and re-indent: same fingerprint, different line
  p.write("run.sh", "# new header\n\necho zero\necho one\n   echo  FLAGME   here\n");
  LintResult moved = p.lint();
  REQUIRE(moved.findings.size() == 1);
  CHECK(moved.findings[0].loc.range.line == 5);
  CHECK(moved.findings[0].fingerprint == before.findings[0].fingerprint);

  LintOptions o;
  o.baseline = bl.fingerprints;
  LintResult filtered = p.lint(o);
  CHECK(filtered.findings.empty());
  CHECK(filtered.baselined == 1);

  // a new finding (different text) is reported; the old one stays hidden
  p.write("run.sh", "echo one\necho FLAGME here\necho FLAGME there\n");
  LintResult fresh = p.lint(o);
  REQUIRE(fresh.findings.size() == 1);
  CHECK(fresh.findings[0].loc.range.line == 3);
  CHECK(fresh.baselined == 1);
}

TEST_CASE("malformed baselines: clear errors with a position", "[baseline]") {
  Baseline bl;
  std::string err;
  CHECK(!parse_baseline("{\n  \"findings\": [\n    {\"fingerprint\": }\n", "base.json", bl, err));
  CHECK(err.rfind("base.json:3:", 0) == 0);
  CHECK(!parse_baseline("[1, 2]", "base.json", bl, err));
  CHECK(err.find("\"findings\"") != std::string::npos);
  CHECK(!parse_baseline("{\"findings\": [{\"rule\": \"G1\"}]}", "base.json", bl, err));
  CHECK(err.find("findings[0]") != std::string::npos);
  CHECK(!parse_baseline("{\"version\": 7, \"findings\": []}", "base.json", bl, err));
  CHECK(err.find("version") != std::string::npos);
  CHECK(parse_baseline("{\"version\": 1, \"findings\": []}", "base.json", bl, err));
  CHECK(!load_baseline("/nonexistent/base.json", bl, err));
  CHECK(err.find("/nonexistent/base.json") != std::string::npos);
}

// SPDX-License-Identifier: Apache-2.0
// Git repositories side by side: which files make a unit (engine/units.h).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "analysis/project.h"
#include "engine/units.h"

using namespace sc;
namespace fs = std::filesystem;

namespace {

// A folder in /tmp (in no work tree) that goes with the test.
struct Workspace {
  fs::path root = fs::temp_directory_path() / ("sc-units-" + std::to_string(::getpid()));
  Workspace() {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Workspace() { fs::remove_all(root); }
  void dir(const std::string& d) { fs::create_directories(root / d); }
  void file(const std::string& f) {
    fs::create_directories((root / f).parent_path());
    std::ofstream(root / f) << "x\n";
  }
  WalkedFile walked(const std::string& display) const {
    return {(root / display).generic_string(), display};
  }
};

std::vector<std::string> dirs(const std::vector<LintUnit>& units) {
  std::vector<std::string> out;
  for (const auto& u : units) out.push_back(u.dir);
  return out;
}

std::vector<std::string> displays(const LintUnit& u) {
  std::vector<std::string> out;
  for (const auto& wf : u.files) out.push_back(wf.display);
  return out;
}

}  // namespace

TEST_CASE("units: each outermost repository, and the files in none first") {
  Workspace ws;
  ws.dir("b/.git");
  ws.file("a/.git");  // a .git file (a submodule's or a worktree's) marks a repository too
  ws.dir("b/vendor/lib/.git");  // inside b: stays with b
  std::vector<WalkedFile> files = {ws.walked("b/train.py"), ws.walked("notes.md"),
                                   ws.walked("b/vendor/lib/setup.py"), ws.walked("a/x/Dockerfile"),
                                   ws.walked("loose/requirements.txt")};
  auto units = split_into_units(files, ws.root.generic_string());
  REQUIRE(dirs(units) == std::vector<std::string>{".", "a", "b"});
  CHECK(displays(units[0]) == std::vector<std::string>{"notes.md", "loose/requirements.txt"});
  CHECK(displays(units[1]) == std::vector<std::string>{"a/x/Dockerfile"});
  CHECK(displays(units[2]) == std::vector<std::string>{"b/train.py", "b/vendor/lib/setup.py"});
}

TEST_CASE("units: one repository, or none, is one unit with every file") {
  Workspace ws;
  ws.dir("only/.git");
  std::vector<WalkedFile> files = {ws.walked("only/a.py"), ws.walked("only/b/c.py")};
  auto units = split_into_units(files, ws.root.generic_string());
  REQUIRE(units.size() == 1);
  CHECK(units[0].files.size() == 2);
  auto none = split_into_units({ws.walked("x.py"), ws.walked("d/y.py")}, ws.root.generic_string());
  REQUIRE(none.size() == 1);
  CHECK(none[0].files.size() == 2);
}

TEST_CASE("units: a folder named like a repository's but holding no .git is no repository") {
  Workspace ws;
  ws.dir("r/.git");
  ws.dir("r2");
  auto units = split_into_units({ws.walked("r2/a.py"), ws.walked("r/a.py")}, ws.root.generic_string());
  REQUIRE(dirs(units) == std::vector<std::string>{".", "r"});
  CHECK(displays(units[0]) == std::vector<std::string>{"r2/a.py"});
}

TEST_CASE("units: in_git_work_tree looks at the folder and those above it") {
  Workspace ws;
  ws.dir("repo/.git");
  ws.dir("repo/sub/deeper");
  CHECK(in_git_work_tree((ws.root / "repo").generic_string()));
  CHECK(in_git_work_tree((ws.root / "repo/sub/deeper").generic_string()));
  CHECK_FALSE(in_git_work_tree(ws.root.generic_string()));
}

TEST_CASE("units: a path interned in a scope goes with it; one made before stays") {
  PathRef before("units-test/before-the-scope.py");
  std::string seen;
  {
    PathRef::Scope scope;
    CHECK_THROWS(PathRef::Scope());  // one at a time
    PathRef again("units-test/before-the-scope.py");
    CHECK(again == before);  // known before the scope: the lasting string
    PathRef scoped("units-test/only-in-scope.py");
    CHECK(PathRef("units-test/only-in-scope.py") == scoped);
    seen = scoped.str();
  }
  CHECK(before.str() == "units-test/before-the-scope.py");
  PathRef after(seen);  // interned anew, in the lasting pool
  CHECK(after.str() == "units-test/only-in-scope.py");
  CHECK(PathRef("units-test/only-in-scope.py") == after);
}

TEST_CASE("units: a spilled unit comes back whole, its texts shared") {
  LintResult unit;
  unit.project.root = "/r";
  auto pf = std::make_shared<ParsedFile>();
  pf->src = SourceFile(PathRef("a/Dockerfile"), "FROM x\nRUN pip install torch\n");
  pf->abs_path = PathRef("/r/a/Dockerfile");
  pf->content_hash = content_hash("42");
  pf->memo().lines.emplace_back(2, "RUN pip install torch");
  unit.project.files.push_back(pf);
  Finding f;
  f.rule = "G1";
  f.level = Level::Error;
  f.loc = {PathRef("a/Dockerfile"), {2, 5, 2, 9}};
  f.message = "torch from the default index";
  f.fix = "use cu130";
  f.fixes.push_back({"Use cu130", false, {{{PathRef("a/Dockerfile"), {2, 1, 2, 4}}, "new", "RUN"}}});
  f.related.push_back({{PathRef("a/Dockerfile"), {1, 1, 1, 7}}, "the base image"});
  f.fingerprint = "0123456789abcdef";
  f.suppressions.push_back({"known", {PathRef("a/Dockerfile"), {1, 1, 0, 0}}, "external"});
  unit.findings = {f, f};
  unit.findings[1].loc.range.line = 1;
  unit.notifications.push_back({Level::Warning, "a/Dockerfile", {3, 1, 0, 0}, "odd", "parse-error"});
  unit.linted = {PathRef("a/Dockerfile")};

  UnitSpill spill;
  spill.put(unit, true);
  spill.put(unit, false);
  LintResult back;
  spill.take(back);
  REQUIRE(back.findings.size() == 4);
  const Finding& g = back.findings[0];
  CHECK(g.rule == "G1");
  CHECK(g.level == Level::Error);
  CHECK(g.loc.path == f.loc.path);
  CHECK(g.loc.range == f.loc.range);
  CHECK(g.message == f.message);
  CHECK(g.fix == f.fix);
  REQUIRE(g.fixes.size() == 1);
  CHECK(g.fixes[0].title == "Use cu130");
  CHECK_FALSE(g.fixes[0].safe);
  REQUIRE(g.fixes[0].edits.size() == 1);
  CHECK(g.fixes[0].edits[0].text == "new");
  CHECK(g.fixes[0].edits[0].old == "RUN");
  CHECK(g.fixes[0].edits[0].loc.range == Range{2, 1, 2, 4});
  REQUIRE(g.related.size() == 1);
  CHECK(g.related[0].message == "the base image");
  CHECK(g.fingerprint == "0123456789abcdef");
  REQUIRE(g.suppressions.size() == 1);
  CHECK(g.suppressions[0].kind == "external");
  CHECK(back.findings[1].loc.range.line == 1);
  CHECK(back.findings[3].message.shared() == g.message.shared());  // one string for equal texts
  REQUIRE(back.notifications.size() == 2);
  CHECK(back.notifications[0].id == "parse-error");
  CHECK(back.notifications[0].range.line == 3);
  CHECK(back.linted.size() == 1);  // the second unit's list was not kept
  REQUIRE(back.project.files.size() == 2);
  const ParsedFile& file = *back.project.files[0];
  CHECK(file.src.path() == "a/Dockerfile");
  CHECK(file.abs_path == "/r/a/Dockerfile");
  CHECK(file.content_hash == content_hash("42"));
  CHECK(file.src.line(2) == "RUN pip install torch");  // not released: the text came along
  REQUIRE(file.line_memo);
  CHECK(file.line_memo->lines.at(0).second == "RUN pip install torch");
}

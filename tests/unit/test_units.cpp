// Git repositories side by side: which files make a unit (engine/units.h).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

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

TEST_CASE("units: a path interned in a scope is taken out with lasting(); one made before stays") {
  PathRef before("units-test/lasting-before.py");
  std::string made_in_scope;
  PathRef kept;
  {
    PathRef::Scope scope;
    CHECK_THROWS(PathRef::Scope());  // one at a time
    PathRef again("units-test/lasting-before.py");
    CHECK(again == before);  // known before the scope: the lasting string
    PathRef scoped("units-test/only-in-scope.py");
    CHECK(PathRef("units-test/only-in-scope.py") == scoped);
    kept = PathRef::lasting(scoped);
    CHECK(kept.str() == scoped.str());
    CHECK(PathRef::lasting(before) == before);
  }
  CHECK(kept.str() == "units-test/only-in-scope.py");
  CHECK(PathRef("units-test/only-in-scope.py") == kept);  // after the scope: the lasting one
  CHECK(PathRef::lasting(kept) == kept);  // no scope: itself
}

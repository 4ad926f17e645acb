// SPDX-License-Identifier: Apache-2.0
// A warm run (LintOptions::reuse: unchanged files keep their facts from the last run) must
// give exactly the findings and notifications of a cold run, across edits and cross-file links.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/engine.h"

using namespace sc;
namespace fs = std::filesystem;

namespace {

// Everything a run reports, one line per finding or notification.
std::vector<std::string> reported(const LintResult& r) {
  std::vector<std::string> out;
  auto at = [](const Location& l) {
    return l.path + ":" + std::to_string(l.range.line) + ":" + std::to_string(l.range.col) + "-" +
           std::to_string(l.range.end_line) + ":" + std::to_string(l.range.end_col);
  };
  for (const Finding& f : r.findings) {
    std::ostringstream s;
    s << f.rule << ' ' << static_cast<int>(f.level) << ' ' << at(f.loc) << ' ' << f.message << " | " << f.fix
      << " | " << f.fingerprint << " | " << f.suppressions.size();
    for (const Related& rel : f.related) s << " | " << at(rel.loc) << ' ' << rel.message;
    for (const Fix& fx : f.fixes) s << " | fix " << fx.title << ' ' << fx.edits.size();
    out.push_back(s.str());
  }
  for (const Notification& n : r.notifications)
    out.push_back("note " + n.id + ' ' + n.path + ':' + std::to_string(n.range.line) + ' ' + n.message);
  out.insert(out.end(), r.linted.begin(), r.linted.end());
  return out;
}

LintOptions options(const fs::path& dir, ParseCache* cache) {
  LintOptions o;
  o.paths = {dir.string()};
  o.root = dir.string();
  o.no_ignore = true;
  o.reuse = cache;
  return o;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A project with a Dockerfile installing a requirements file, and compose services whose
// build args and environment make link() add to a Dockerfile's and a script's facts.
fs::path project() {
  fs::path dir = fs::temp_directory_path() / "sc-reuse-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path src(SC_SOURCE_DIR);
  fs::copy(src / "tests/lsp/project", dir / "app", fs::copy_options::recursive);
  fs::copy(src / "fixtures/surfaces/compose-build-args", dir / "builds", fs::copy_options::recursive);
  fs::copy(src / "fixtures/surfaces/compose-script-env", dir / "scripts", fs::copy_options::recursive);
  write(dir / "app/notes.md", "```bash\npip install torch  # sparkcheck: ignore[G9] -- pinned elsewhere\n```\n");
  return dir;
}

}  // namespace

TEST_CASE("a warm re-run gives exactly the findings of a cold run", "[reuse]") {
  fs::path dir = project();
  ParseCache cache;
  auto warm = [&] { return reported(run_lint(options(dir, &cache))); };
  auto cold = [&] { return reported(run_lint(options(dir, nullptr))); };
  std::vector<std::string> first = cold();
  REQUIRE(first.size() > 5);
  CHECK(warm() == first);
  CHECK(cache.misses > 0);
  CHECK(warm() == first);  // every file reused, the links made again
  CHECK(cache.misses == 0);
  CHECK(warm() == first);

  // an edit to requirements.txt changes the finding in the Dockerfile that installs it
  write(dir / "app/requirements.txt", "-r requirements-base.txt\ntorch==2.9.1+cu130\n");
  std::vector<std::string> edited = cold();
  CHECK(edited != first);
  CHECK(warm() == edited);
  CHECK(cache.misses == 1);
  CHECK(warm() == edited);

  // so does an edit to a compose file that builds a Dockerfile and runs a script
  write(dir / "scripts/docker-compose.yml", "services:\n  one:\n    build: ./vllm\n    environment:\n      TP: \"1\"\n");
  write(dir / "builds/docker-compose.yml", "services:\n  old:\n    build:\n      context: ./docker\n      args:\n"
                                          "        CUDA_TAG: cu126\n");
  edited = cold();
  CHECK(warm() == edited);
  CHECK(warm() == edited);
  fs::remove_all(dir);
}

// Not a test: a driver for profiling warm runs (callgrind --toggle-collect='*warm_runs*').
// SC_REUSE_DIR names the tree, SC_REUSE_RUNS the number of warm runs after the first.
[[gnu::noinline]] size_t warm_runs(const LintOptions& o, int n) {
  size_t found = 0;
  for (int i = 0; i < n; ++i) found += run_lint(o).findings.size();
  return found;
}

TEST_CASE("warm runs over a tree (profiling driver)", "[.reuse-profile]") {
  const char* dir = std::getenv("SC_REUSE_DIR");
  const char* runs = std::getenv("SC_REUSE_RUNS");
  REQUIRE(dir);
  ParseCache cache;
  LintOptions o = options(dir, &cache);
  o.no_ignore = false;
  o.ignore = {"X1"};  // the test rule of test_suppress.cpp reads every line
  size_t cold = run_lint(o).findings.size();
  int n = runs ? std::atoi(runs) : 5;
  CHECK(warm_runs(o, n) == cold * static_cast<size_t>(n));
}

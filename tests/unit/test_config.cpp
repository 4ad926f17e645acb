// SPDX-License-Identifier: Apache-2.0
// Unit tests for the configuration (linter/config): keys, values, errors with
// file and line, discovery, origins, and mapping onto lint options.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "config/config.h"
#include "core/suppress.h"

using namespace sc;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& text, const std::string& file = "/proj/.sparkcheck.yaml") {
  try {
    parse_config(text, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("YAML configuration: every key", "[config]") {
  Config c = parse_config(
      "select: [G1, g9, G2]\n"
      "ignore:\n"
      "  - G2\n"
      "severity:\n"
      "  G9: error\n"
      "  G2: note\n"
      "exclude: [\"data/**\", legacy/]\n"
      "per-file-ignores:\n"
      "  \"tests/**\": [G1]\n"
      "fail-on: warning\n"
      "baseline: ci/baseline.json\n"
      "allow-reasonless-suppressions: true\n"
      "inline-ignore: false\n"
      "respect-gitignore: false\n"
      "max-file-size: 2.5\n",
      "/proj/.sparkcheck.yaml");
  CHECK(c.select.value == std::vector<std::string>{"G1", "G9", "G2"});
  CHECK(c.select.from.line == 1);
  CHECK(c.ignore.value == std::vector<std::string>{"G2"});
  REQUIRE(c.severity.count("G9"));
  CHECK(c.severity["G9"].value == Level::Error);
  CHECK(c.severity["G9"].from.line == 5);
  CHECK(c.severity["G2"].value == Level::Note);
  CHECK(c.exclude.value == std::vector<std::string>{"data/**", "legacy/"});
  REQUIRE(c.per_file_ignores.size() == 1);
  CHECK(c.per_file_ignores[0].glob == "tests/**");
  CHECK(c.per_file_ignores[0].rules == std::vector<std::string>{"G1"});
  CHECK(c.per_file_ignores[0].from.line == 9);
  CHECK(c.fail_on.value == "warning");
  CHECK(c.fail_on.from.str() == "/proj/.sparkcheck.yaml:10");
  CHECK(c.baseline.value == "/proj/ci/baseline.json");  // relative to the config file
  CHECK(c.allow_reasonless_suppressions.value);
  CHECK(!c.inline_ignore.value);
  CHECK(!c.respect_gitignore.value);
  CHECK(c.max_file_size.value == 2.5);
  CHECK(c.base_dir == "/proj");

  LintOptions o;
  apply_config(c, o);
  CHECK(o.select.count("G9"));
  CHECK(o.ignore.count("G2"));
  CHECK(o.severity.at("G9") == Level::Error);
  REQUIRE(o.exclude_scoped.size() == 2);
  CHECK(o.exclude_scoped[0].base == "/proj");
  REQUIRE(o.per_file_ignores.size() == 1);
  CHECK(o.per_file_ignores[0].origin == "/proj/.sparkcheck.yaml:9");
  CHECK(!o.inline_ignore);
  CHECK(o.allow_reasonless_suppressions);
  CHECK(o.no_ignore);
  CHECK(o.max_file_bytes == 2500000);
}

TEST_CASE("defaults: empty file, no file", "[config]") {
  Config c = parse_config("", "/p/.sparkcheck.yaml");
  CHECK(c.select.value.empty());
  CHECK(c.fail_on.value == "note");
  CHECK(c.fail_on.from.str() == "default");
  CHECK(c.inline_ignore.value);
  CHECK(c.respect_gitignore.value);
  CHECK(!c.allow_reasonless_suppressions.value);
  CHECK(parse_config("# only a comment\n", "/p/.sparkcheck.yaml").select.value.empty());
}

TEST_CASE("errors name the file, the line and the valid choices", "[config]") {
  std::string e = error_of("select: [G1]\nfail_on: warning\n");
  CHECK(has(e, "/proj/.sparkcheck.yaml:2:"));
  CHECK(has(e, "unknown key 'fail_on'"));
  CHECK(has(e, "did you mean 'fail-on'"));
  CHECK(has(e, "valid keys: select, ignore"));

  e = error_of("\nfail-on: warnings\n");
  CHECK(has(e, ":2:"));
  CHECK(has(e, "'warnings'"));
  CHECK(has(e, "valid choices: error, warning, note, none"));

  e = error_of("select: [G1, G42]\n");
  CHECK(has(e, ":1:"));
  CHECK(has(e, "unknown rule 'G42'"));
  CHECK(has(e, "G10"));

  e = error_of("severity:\n  G9: fatal\n");
  CHECK(has(e, ":2:"));
  CHECK(has(e, "valid choices: error, warning, note"));

  e = error_of("severity:\n  G77: error\n");
  CHECK(has(e, ":2:"));
  CHECK(has(e, "G77"));

  CHECK(has(error_of("select: G1\n"), "must be a list"));
  CHECK(has(error_of("inline-ignore: yes\n"), "valid choices: true, false"));
  CHECK(has(error_of("max-file-size: -3\n"), "positive number"));
  CHECK(has(error_of("per-file-ignores: [G1]\n"), "must map globs"));
  CHECK(has(error_of("per-file-ignores:\n  \"a/**\": [nope]\n"), ":2:"));
  CHECK(has(error_of("- G1\n"), "must be a mapping"));
  CHECK(has(error_of("select: [G1\n"), "invalid YAML"));
  CHECK(has(error_of("fail-on: error\nfail-on: note\n"), "duplicate key 'fail-on'"));
}

// Found by fuzz_config: a glob with invalid UTF-8 made `sparkcheck config` throw
// from the JSON quoting of its value (std::terminate). It is a configuration error now.
TEST_CASE("configuration text that is not UTF-8 is a configuration error", "[config]") {
  std::string e = error_of("select: [G1]\nper-file-ignores:\n  \"te\xff\xffsts/**\": [G1]\n");
  CHECK(has(e, "/proj/.sparkcheck.yaml:3:"));
  CHECK(has(e, "not valid UTF-8"));
  CHECK_THROWS_AS(parse_config("[tool.sparkcheck]\nexclude = [\"\xc3\"]\n", "/proj/pyproject.toml"), ConfigError);
  CHECK_NOTHROW(render_config_text(parse_config("exclude: [\"caf\xc3\xa9/**\"]\n", "/proj/.sparkcheck.yaml")));
}

TEST_CASE("pyproject.toml [tool.sparkcheck]", "[config]") {
  Config c = parse_config(
      "[project]\nname = \"x\"\n\n"
      "[tool.sparkcheck]\n"
      "select = [\"G1\", \"G9\"]\n"
      "fail-on = \"error\"\n"
      "inline-ignore = true\n"
      "max-file-size = 3\n"
      "\n[tool.sparkcheck.severity]\nG9 = \"note\"\n"
      "\n[tool.sparkcheck.per-file-ignores]\n\"tests/**\" = [\"G1\"]\n",
      "/proj/pyproject.toml");
  CHECK(c.select.value == std::vector<std::string>{"G1", "G9"});
  CHECK(c.select.from.line == 5);
  CHECK(c.fail_on.value == "error");
  CHECK(c.fail_on.from.line == 6);
  CHECK(c.max_file_size.value == 3);
  CHECK(c.severity.at("G9").value == Level::Note);
  REQUIRE(c.per_file_ignores.size() == 1);
  CHECK(c.per_file_ignores[0].from.line == 14);

  std::string e = error_of("[tool.sparkcheck]\nselect = [\"G1\"]\nfail-on = 3\n", "/proj/pyproject.toml");
  CHECK(has(e, "pyproject.toml:3:"));
  e = error_of("[tool.sparkcheck]\nbogus = 1\n", "/proj/pyproject.toml");
  CHECK(has(e, "pyproject.toml:2:"));
  CHECK(has(e, "unknown key 'bogus'"));
  CHECK(has(error_of("[project]\nname = \"x\"\n", "/proj/pyproject.toml"), "no [tool.sparkcheck] table"));
  CHECK(has(error_of("[tool.sparkcheck\n", "/proj/pyproject.toml"), "invalid TOML"));
}

TEST_CASE("discovery walks up from the linted path, .sparkcheck.yaml before pyproject", "[config]") {
  fs::path d = fs::temp_directory_path() / "sc-config-find";
  fs::remove_all(d);
  fs::create_directories(d / "a" / "b");
  std::ofstream(d / "pyproject.toml") << "[tool.sparkcheck]\nfail-on = \"error\"\n";
  std::ofstream(d / "a" / "pyproject.toml") << "# mentions tool.sparkcheck in a comment only\n[project]\nname = \"x\"\n";
  std::ofstream(d / "a" / "b" / "train.py") << "print(1)\n";
  CHECK(find_config((d / "a" / "b" / "train.py").string()) == (d / "pyproject.toml").generic_string());
  CHECK(find_config((d / "a" / "b").string()) == (d / "pyproject.toml").generic_string());
  std::ofstream(d / "a" / ".sparkcheck.yaml") << "fail-on: warning\n";
  CHECK(find_config((d / "a" / "b").string()) == (d / "a" / ".sparkcheck.yaml").generic_string());
  Config c = load_config(find_config((d / "a" / "b").string()));
  CHECK(c.fail_on.value == "warning");
  CHECK(c.base_dir == (d / "a").generic_string());
  fs::remove_all(d);
}

TEST_CASE("rendering shows values and their origins", "[config]") {
  Config c = parse_config("fail-on: error\nselect: [G1]\n", "/proj/.sparkcheck.yaml");
  c.ignore = {{"G2"}, Origin::cli("--ignore")};
  std::string t = render_config_text(c);
  CHECK(has(t, "fail-on: error"));
  CHECK(has(t, "# /proj/.sparkcheck.yaml:1"));
  CHECK(has(t, "select: [G1]"));
  CHECK(has(t, "# command line (--ignore)"));
  CHECK(has(t, "inline-ignore: true"));
  CHECK(has(t, "# default"));
  std::string j = render_config_json(c);
  CHECK(has(j, "\"from\": \"/proj/.sparkcheck.yaml:2\""));
}

TEST_CASE("fail-on thresholds", "[config]") {
  CHECK(fails("note", Level::Note));
  CHECK(!fails("warning", Level::Note));
  CHECK(fails("warning", Level::Warning));
  CHECK(!fails("error", Level::Warning));
  CHECK(fails("error", Level::Error));
  CHECK(!fails("none", Level::Error));
}

TEST_CASE("target.sparks and include-tests: values, errors, lint options", "[config]") {
  Config d = parse_config("", "/proj/.sparkcheck.yaml");
  CHECK(d.sparks.value == 2);
  CHECK_FALSE(d.include_tests.value);
  Config c = parse_config("target:\n  sparks: 3\ninclude-tests: true\n", "/proj/.sparkcheck.yaml");
  CHECK(c.sparks.value == 3);
  CHECK(c.sparks.from.line == 2);
  CHECK(c.include_tests.value);
  LintOptions opt;
  apply_config(c, opt);
  CHECK(opt.target.sparks == 3);
  CHECK(opt.target.include_tests);
  CHECK(has(render_config_text(c), "target: {sparks: 3}"));
  CHECK(has(render_config_json(c), "\"include-tests\""));
  Config t = parse_config("[tool.sparkcheck.target]\nsparks = 4\n", "/proj/pyproject.toml");
  CHECK(t.sparks.value == 4);
  for (const char* bad : {"0", "-1", "2.5", "abc", "99999999999", "4097", "\"\""})
    CHECK(has(error_of(std::string("target: {sparks: ") + bad + "}\n"), "'target.sparks'"));
  CHECK(has(error_of("target: 2\n"), "must be a mapping"));
  CHECK(has(error_of("target: {gpus: 2}\n"), "unknown key 'target.gpus'"));
  CHECK(has(error_of("include-tests: maybe\n"), "valid choices: true, false"));
  int n = 0;
  CHECK(parse_sparks("4096", n));
  CHECK(n == 4096);
  CHECK_FALSE(parse_sparks("", n));
  CHECK_FALSE(parse_sparks("1e3", n));
}

TEST_CASE("cache-dir: relative to the configuration file, shown with its origin", "[config]") {
  Config d = parse_config("", "/proj/.sparkcheck.yaml");
  CHECK(d.cache_dir.value.empty());
  CHECK(has(render_config_text(d), "cache-dir: null"));
  Config c = parse_config("cache-dir: ../shared/cache\n", "/proj/sub/.sparkcheck.yaml");
  CHECK(c.cache_dir.value == "/proj/shared/cache");
  CHECK(c.cache_dir.from.line == 1);
  LintOptions opt;
  apply_config(c, opt);
  CHECK(opt.cache_dir == "/proj/shared/cache");
  CHECK(has(render_config_json(c), "\"cache-dir\""));
  CHECK(has(error_of("cache-dir: [a]\n"), "'cache-dir' must be a directory path"));
  CHECK(Origin::cli("$SPARKCHECK_CACHE_DIR").str() == "environment ($SPARKCHECK_CACHE_DIR)");
}

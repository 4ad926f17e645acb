// SPDX-License-Identifier: Apache-2.0
// Unit tests for the concise, github and junit writers on synthetic results.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/json_stream.h"
#include "output/output.h"
#include "output/write_file.h"

using namespace sc;

namespace {

LintResult results(int errors, int warnings, int notes) {
  LintResult r;
  auto add = [&](Level l, int n) {
    for (int i = 0; i < n; ++i) {
      Finding f;
      f.rule = "G10";
      f.level = l;
      f.loc = {"dir/f" + std::to_string(i) + ".yaml", {i + 1, 3, i + 1, 8}};
      f.message = "msg " + std::to_string(i);
      r.findings.push_back(f);
    }
  };
  add(Level::Note, notes);
  add(Level::Warning, warnings);
  add(Level::Error, errors);
  r.linted = {"dir/f0.yaml"};
  return r;
}

std::string render(const char* fmt, const LintResult& r, OutputOptions o = {}) {
  std::ostringstream os;
  output_writers().at(fmt)(r, os, o);
  return os.str();
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("github workflow-command escaping", "[output]") {
  CHECK(gh_escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b");
  CHECK(gh_escape_property("a,b%c:d\ne") == "a%2Cb%25c%3Ad%0Ae");
}

TEST_CASE("github: annotation caps per level, overflow to the job summary", "[output]") {
  LintResult r = results(13, 2, 11);
  std::string path = (std::filesystem::temp_directory_path() / "sc-summary-test.md").string();
  std::remove(path.c_str());
  OutputOptions o;
  o.summary_file = path;
  std::string out = render("github", r, o);
  CHECK(count(out, "::error ") == 10);
  CHECK(count(out, "::warning ") == 2);
  CHECK(count(out, "::notice ") == 10);
  CHECK(out.find("::error file=dir/f0.yaml,line=1,col=3,endLine=1,endColumn=8,title=G10") != std::string::npos);
  // errors come first
  CHECK(out.find("::error ") < out.find("::warning "));
  std::ifstream in(path);
  std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(md.find("Found 26 findings (13 errors, 2 warnings, 11 notes)") != std::string::npos);
  CHECK(count(md, "| error | G10") == 3);
  CHECK(count(md, "| note | G10") == 1);
  std::remove(path.c_str());

  // without a summary file, one notice says how many were left out
  std::string plain = render("github", r);
  CHECK(plain.find("4 more results were not annotated") != std::string::npos);
}

TEST_CASE("github and concise skip suppressed findings", "[output]") {
  LintResult r = results(1, 0, 0);
  r.findings[0].suppressions.push_back({"ok", {}, "inSource"});
  CHECK(render("github", r).find("::error") == std::string::npos);
  CHECK(render("concise", r).empty());
  OutputOptions o;
  o.show_suppressed = true;
  CHECK(render("concise", r, o) == "dir/f0.yaml:1:3: error: [G10] msg 0 (suppressed: ok)\n");
}

TEST_CASE("junit: escaping and counts", "[output]") {
  LintResult r = results(1, 1, 0);
  r.findings[0].message = "a <b> & \"c\"\x01";
  r.findings[1].suppressions.push_back({"because", {}, "inSource"});
  r.linted = {"dir/f0.yaml", "dir/f1.yaml", "clean.py"};
  std::string x = render("junit", r);
  CHECK(x.find("<testsuites name=\"sparkcheck\" tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\">") != std::string::npos);
  CHECK(x.find("a &lt;b&gt; &amp; &quot;c&quot;") != std::string::npos);
  CHECK(x.find('\x01') == std::string::npos);
  CHECK(x.find("<skipped message=\"suppressed: because\"/>") != std::string::npos);
  CHECK(x.find("<testcase classname=\"clean.py\" name=\"sparkcheck\" file=\"clean.py\"/>") != std::string::npos);
}

TEST_CASE("JsonStream lays a document out as nlohmann's dump does", "[output]") {
  using oj = nlohmann::ordered_json;
  oj item = {{"a", 1}, {"b", oj::array()}, {"c", {{"d", "x\xff"}, {"e", oj::object()}}}, {"f", {1, 2}}};
  oj doc = {{"v", "1"}, {"empty", oj::array()}, {"list", {item, item}}, {"runs", {{{"inner", {item}}, {"n", oj::object()}}}}};
  std::ostringstream s;
  JsonStream w(s);
  w.begin_object();
  w.member("v", "1");
  w.key("empty");
  w.begin_array();
  w.end();
  w.key("list");
  w.begin_array();
  w.value(item);
  w.value(item);
  w.end();
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("inner");
  w.begin_array();
  w.value(item);
  w.end();
  w.member("n", oj::object());
  w.end();
  w.end();
  w.end();
  CHECK(s.str() == json_dump(doc));
}

TEST_CASE("json writer: a streamed report parses, findings in order", "[output]") {
  LintResult r = results(2, 1, 0);
  std::ostringstream s;
  output_writers()["json"](r, s, OutputOptions{});
  auto j = nlohmann::json::parse(s.str());
  REQUIRE(j["findings"].size() == 3);
  CHECK(j["findings"][0]["message"] == "msg 0");
  CHECK(j["findings"][0]["level"] == "warning");
  CHECK(j["notifications"].empty());
  CHECK(s.str().back() == '\n');
}

TEST_CASE("write_report streams a report larger than its buffer, and checks the writes", "[output]") {
  std::string line(1000, 'x');
  auto render = [&](std::ostream& o) {
    for (int i = 0; i < 300; ++i) o << line << i << '\n';
  };
  std::ostringstream want;
  render(want);
  std::string path = (std::filesystem::temp_directory_path() / "sparkcheck-unit-report.txt").string();
  std::string why;
  REQUIRE(write_report(path, render, why));
  std::ifstream in(path, std::ios::binary);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == want.str());
  std::remove(path.c_str());
  CHECK_FALSE(write_report("/dev/full", render, why));
  CHECK(why.find("/dev/full") != std::string::npos);
}

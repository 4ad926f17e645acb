// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "core/gitignore.h"

using namespace sc;

namespace {
bool ign(const char* text, const std::string& path, bool dir = false, std::string base = "") {
  IgnoreStack s;
  s.push(parse_ignore(text, std::move(base)));
  return s.ignored(path, dir);
}
}  // namespace

TEST_CASE("gitignore: names, anchors, directories", "[gitignore]") {
  CHECK(ign("*.log\n", "a/b/x.log"));
  CHECK_FALSE(ign("*.log\n", "a/b/x.logs"));
  CHECK(ign("/top.py\n", "top.py"));
  CHECK_FALSE(ign("/top.py\n", "sub/top.py"));
  CHECK(ign("a/b\n", "a/b"));
  CHECK_FALSE(ign("a/b\n", "x/a/b"));
  CHECK(ign("build/\n", "x/build", true));
  CHECK_FALSE(ign("build/\n", "x/build", false));
  CHECK_FALSE(ign("*.py\n", "a/b.py", false, "sub"));  // a sub/.gitignore only governs sub/
  CHECK(ign("*.py\n", "sub/b.py", false, "sub"));
  CHECK(ign("/b.py\n", "sub/b.py", false, "sub"));
}

TEST_CASE("gitignore: negation, comments, escapes, trailing spaces", "[gitignore]") {
  CHECK_FALSE(ign("*.py\n!keep.py\n", "keep.py"));
  CHECK(ign("!keep.py\n*.py\n", "keep.py"));  // last match wins
  CHECK_FALSE(ign("# x.py\n\n", "# x.py"));
  CHECK(ign("\\#x.py\n", "#x.py"));
  CHECK(ign("\\!x.py\n", "!x.py"));
  CHECK(ign("x.py   \n", "x.py"));
  CHECK(ign("x.py\\ \n", "x.py "));
  CHECK(ign("x.py\r\n", "x.py"));
}

TEST_CASE("gitignore: double star", "[gitignore]") {
  CHECK(ign("**/foo\n", "foo"));
  CHECK(ign("**/foo\n", "a/b/foo"));
  CHECK(ign("a/**/b\n", "a/b"));
  CHECK(ign("a/**/b\n", "a/x/y/b"));
  CHECK_FALSE(ign("a/**/b\n", "x/a/b"));
  CHECK(ign("a/**\n", "a/x/y"));
  CHECK_FALSE(ign("a/*\n", "a/x/y"));
  CHECK(ign("a/*\n", "a/x"));
}

TEST_CASE("gitignore: hostile patterns stay cheap", "[gitignore]") {
  std::string pat, path;
  for (int i = 0; i < 200; ++i) pat += "**/";
  pat += "z\n";
  for (int i = 0; i < 200; ++i) path += "a/";
  path += "y";
  CHECK_FALSE(ign(pat.c_str(), path));  // no exponential backtracking
  std::string many;
  for (int i = 0; i < 50000; ++i) many += "p" + std::to_string(i) + "\n";
  CHECK(parse_ignore(many, "").patterns.size() == 10000);
}

TEST_CASE("gitignore: stacked files, deeper wins", "[gitignore]") {
  IgnoreStack s;
  s.push(parse_ignore("*.py\n", ""));
  s.push(parse_ignore("!keep.py\n", "sub"));
  CHECK(s.ignored("x.py", false));
  CHECK(s.ignored("keep.py", false));
  CHECK_FALSE(s.ignored("sub/keep.py", false));
  s.pop();
  CHECK(s.ignored("sub/keep.py", false));
}

TEST_CASE("gitignore: runs of ** match as one, and a hostile file stays bounded", "[gitignore]") {
  CHECK(ign("a/**/**/**/b\n", "a/b"));
  CHECK(ign("a/**/**/**/b\n", "a/x/y/b"));
  CHECK_FALSE(ign("a/**/**/**/b\n", "a/x/y/c"));
  CHECK(ign("**/**/**/*.log\n", "x/y/z.log"));
  CHECK_FALSE(ign("a/b/c/d\n", "a/b"));  // more fixed segments than the path: no match
  // 5,000 patterns of 40 segments each: past the file's segment budget the rest are dropped
  std::string text;
  for (int i = 0; i < 5000; ++i) {
    for (int k = 0; k < 20; ++k) text += "**/a/";
    text += "x" + std::to_string(i) + "\n";
  }
  IgnoreFile f = parse_ignore(text, "");
  CHECK(f.dropped > 0);
  size_t segs = 0;
  for (const IgnorePattern& p : f.patterns) segs += p.segments.size();
  CHECK(segs <= 20000);
  std::string deep;
  for (int k = 0; k < 60; ++k) deep += "a/";
  IgnoreStack s;
  s.push(std::move(f));
  CHECK(s.ignored(deep + "x0", false));
  CHECK_FALSE(s.ignored(deep + "y", false));
}

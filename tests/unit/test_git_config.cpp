// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "core/git_config.h"

using namespace sc;

namespace {
std::string excludes(const std::string& text) {
  return git_config_value(text, "core", "excludesFile").value_or("<unset>");
}
}  // namespace

TEST_CASE("git config: sections and names are case-insensitive, the last value wins", "[gitignore]") {
  CHECK(excludes("[core]\n\texcludesfile = a\n") == "a");
  CHECK(excludes("[CORE]\nExcludesFile=b\n") == "b");
  CHECK(excludes("[core]\nexcludesFile = a\n[user]\nname = x\n[core]\nexcludesFile = c\n") == "c");
  CHECK(excludes("[core] excludesFile = same-line\n") == "same-line");
  CHECK(excludes("[user]\nexcludesFile = a\n") == "<unset>");
  CHECK(excludes("[core \"sub\"]\nexcludesFile = a\n") == "<unset>");
  CHECK(excludes("[core.sub]\nexcludesFile = a\n") == "<unset>");
  CHECK(excludes("excludesFile = before-any-section\n") == "<unset>");
  CHECK(excludes("[core]\nexcludesFile\n") == "<unset>");  // a bare boolean is no path
  CHECK(excludes("[core]\nexcludesFile =\n") == "");
}

TEST_CASE("git config: values (quotes, escapes, comments, continuation)", "[gitignore]") {
  CHECK(excludes("[core]\nexcludesFile =   ~/ig   # comment\n") == "~/ig");
  CHECK(excludes("[core]\nexcludesFile = a b ; comment\n") == "a b");
  CHECK(excludes("[core]\nexcludesFile = \" spaced # kept \"\n") == " spaced # kept ");
  CHECK(excludes("[core]\nexcludesFile = a\\\\b\\\"c\n") == "a\\b\"c");
  CHECK(excludes("[core]\nexcludesFile = first\\\nsecond\n") == "firstsecond");
  CHECK(excludes("[core]\r\nexcludesFile = crlf\r\n") == "crlf");
  CHECK(excludes("# [core]\n; excludesFile = x\n[core]\n") == "<unset>");
}

TEST_CASE("git config: hostile text ends cleanly", "[gitignore]") {
  CHECK(excludes("[core") == "<unset>");
  CHECK(excludes("[core]\nexcludesFile = \"unterminated") == "unterminated");
  CHECK(excludes("[core]\nexcludesFile = trailing\\") == "trailing");
  CHECK(excludes(std::string(100000, '[')) == "<unset>");
  CHECK(excludes("[core]\n" + std::string(100000, '=')) == "<unset>");
}

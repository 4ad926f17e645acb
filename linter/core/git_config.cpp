// SPDX-License-Identifier: Apache-2.0
#include "core/git_config.h"

#include <sys/stat.h>

#include <cstdlib>

#include "core/git_index.h"
#include "core/read_file.h"
#include "core/source.h"

namespace sc {
namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

void skip_line(std::string_view t, size_t& i) {
  while (i < t.size() && t[i] != '\n') ++i;
}

char unescape(char e) { return e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e; }

// A value from t[i] to the end of its line: outer whitespace dropped, "..."
// quoting, '#'/';' comments outside quotes, '\' escapes and line continuation.
std::string read_value(std::string_view t, size_t& i) {
  std::string v;
  size_t keep = 0;  // length without trailing unquoted whitespace
  bool quoted = false;
  while (i < t.size() && t[i] != '\n') {
    char c = t[i++];
    if (!quoted && (c == '#' || c == ';')) {
      skip_line(t, i);
    } else if (c == '"') {
      quoted = !quoted;
      keep = v.size();
    } else if (c == '\\') {  // at the very end: dropped
      if (i < t.size() && t[i] != '\n') v += unescape(t[i]);
      if (i < t.size()) ++i;  // an escaped newline continues the value on the next line
      keep = v.size();
    } else if (quoted || !blank(c) || !v.empty()) {
      v += c;
      if (quoted || !blank(c)) keep = v.size();
    }
  }
  v.resize(keep);
  return v;
}

// "[name]" or "[name \"sub\"]" at t[i]: is it exactly `section`? Leaves i after ']'.
bool section_header(std::string_view t, size_t& i, std::string_view section) {
  size_t start = ++i;
  while (i < t.size() && t[i] != ']' && t[i] != '\n') ++i;
  std::string name = lower(trim(t.substr(start, i - start)));
  if (i < t.size() && t[i] == ']') ++i;
  return name == lower(section);
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

std::string expand_path(const std::string& v, const std::string& top) {
  const char* home = std::getenv("HOME");
  if ((v == "~" || starts_with(v, "~/")) && home && *home) return home + v.substr(1);
  return !v.empty() && v[0] == '/' ? v : top + "/" + v;
}

// The directory holding the config: a worktree's git dir names it in `commondir`.
std::string common_dir(const std::string& git) {
  std::string text, why;
  if (!read_regular_file(git + "/commondir", text, why, 4096, false)) return git;
  std::string dir = trim(text);
  return dir.empty() ? git : dir[0] == '/' ? dir : git + "/" + dir;
}

}  // namespace

std::optional<std::string> git_config_value(std::string_view t, std::string_view section, std::string_view key) {
  std::optional<std::string> found;
  bool in_section = false;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && blank(t[i])) ++i;
    if (i >= t.size()) break;
    if (t[i] == '\n') { ++i; continue; }
    if (t[i] == '[') { in_section = section_header(t, i, section); continue; }
    size_t start = i;
    while (i < t.size() && name_char(t[i])) ++i;
    std::string name = lower(t.substr(start, i - start));
    while (i < t.size() && blank(t[i])) ++i;
    if (name.empty() || i >= t.size() || t[i] != '=') {  // a comment, a bare boolean, or junk
      skip_line(t, i);
      continue;
    }
    std::string value = read_value(t, ++i);
    if (in_section && name == lower(key)) found = std::move(value);
  }
  return found;
}

std::string excludes_file(const std::string& top) {
  struct stat st;
  if (lstat((top + "/.git").c_str(), &st) != 0) return "";  // not a repository: git reads no ignore file
  std::string git = git_dir(top), text, why;
  std::optional<std::string> v;
  if (!git.empty() && read_regular_file(common_dir(git) + "/config", text, why, 1u << 20, false))
    v = git_config_value(text, "core", "excludesFile");
  if (v) return v->empty() ? std::string() : expand_path(*v, top);
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/git/ignore";
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.config/git/ignore" : std::string();
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Unit tests for the language server's conversions (linter/server): positions in UTF-16,
// file URIs, fixes and suppression comments as LSP edits, framing of JSON-RPC messages.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "core/suppress.h"
#include "server/client.h"
#include "server/convert.h"
#include "server/jsonrpc.h"
#include "server/lsp_text.h"

using namespace sc;
using namespace sc::lsp;

namespace {

Project project_with(const std::string& display, const std::string& text, FileKind kind) {
  Project p;
  p.root = "/proj";
  auto pf = std::make_unique<ParsedFile>();
  pf->abs_path = "/proj/" + display;
  pf->src = SourceFile(display, text);
  pf->facts.edit().kind = kind;
  p.files.push_back(std::move(pf));
  return p;
}

Finding finding_at(const std::string& path, Range r) {
  Finding f;
  f.rule = "G1";
  f.level = Level::Error;
  f.loc = {path, r};
  f.message = "m";
  return f;
}

// Applies one LSP TextEdit (as the client would) to `text`.
std::string apply_edit(std::string text, const json& edit) {
  const json& r = edit["range"];
  replace_range(text, {r["start"]["line"], r["start"]["character"]}, {r["end"]["line"], r["end"]["character"]},
                edit["newText"].get<std::string>());
  return text;
}

}  // namespace

TEST_CASE("columns in code points become UTF-16 units and back", "[lsp]") {
  std::string line = "a\xF0\x9F\x98\x80" "b\xC3\xA9" "c";  // a 😀 b é c
  CHECK(utf16_of_cols(line, 0) == 0);
  CHECK(utf16_of_cols(line, 1) == 1);
  CHECK(utf16_of_cols(line, 2) == 3);  // the emoji is a surrogate pair
  CHECK(utf16_of_cols(line, 4) == 5);  // é is one unit
  CHECK(utf16_of_cols(line, 5) == 6);  // the whole line
  CHECK(utf16_of_cols(line, 6) == 7);  // one past the end
  CHECK(cols_of_utf16(line, 3) == 2);
  CHECK(cols_of_utf16(line, 2) == 1);  // inside the pair: its start
  CHECK(bytes_of_utf16(line, 3) == 5);
  CHECK(bytes_of_utf16(line, 99) == line.size());
  SourceFile src("f", "x\n" + line + "\n");
  Position p = to_lsp(src, 2, 3);
  CHECK(p.line == 1);
  CHECK(p.character == 3);
  int l = 0, c = 0;
  from_lsp(src, p, l, c);
  CHECK(l == 2);
  CHECK(c == 3);
}

TEST_CASE("file URIs are percent-encoded and decoded", "[lsp]") {
  CHECK(path_to_uri("/tmp/a b/c%d#.txt") == "file:///tmp/a%20b/c%25d%23.txt");
  CHECK(uri_to_path("file:///tmp/a%20b/c%25d%23.txt") == "/tmp/a b/c%d#.txt");
  CHECK(uri_to_path("file://localhost/etc/x") == "/etc/x");
  CHECK(uri_to_path("untitled:Untitled-1").empty());
  CHECK(uri_to_path("file:///a%00b").empty());
  CHECK(uri_to_path("file:///bad%zz") == "/bad%zz");
}

TEST_CASE("ranged changes edit the right bytes", "[lsp]") {
  std::string t = "ab\n\xF0\x9F\x98\x80x\nz";
  replace_range(t, {1, 2}, {1, 3}, "Y");  // after the emoji (2 units)
  CHECK(t == "ab\n\xF0\x9F\x98\x80Y\nz");
  replace_range(t, {5, 0}, {9, 9}, "!");  // past the end: appended
  CHECK(t == "ab\n\xF0\x9F\x98\x80Y\nz!");
  replace_range(t, {0, 1}, {1, 0}, "");
  CHECK(t == "a\xF0\x9F\x98\x80Y\nz!");
}

TEST_CASE("a finding's fixes become a workspace edit in UTF-16 positions", "[lsp]") {
  // ENV with an emoji before the flagged value: code-point column 15 is UTF-16 character 15
  std::string text = "FROM x\nENV A=\xF0\x9F\x98\x80 ARCH=\"12.1\"\n";
  Project p = project_with("Dockerfile", text, FileKind::Dockerfile);
  Finding f = finding_at("Dockerfile", {2, 15, 2, 19});
  auto edit = [](Range r, const std::string& text) {
    Edit e;
    e.loc = {"Dockerfile", r};
    e.text = text;
    return e;
  };
  f.fixes.push_back({"Use 12.1a", true, {edit({2, 15, 2, 19}, "12.1a")}});
  f.fixes.push_back({"Pin an image", false, {edit({1, 6, 1, 7}, "y")}});
  json diag = to_diagnostic(p, f);
  CHECK(diag["range"]["start"]["character"] == 15);  // 14 code points before, one of them 2 units
  std::vector<json> actions = code_actions(p, f, diag);
  REQUIRE(actions.size() == 3);
  CHECK(actions[0]["title"] == "Use 12.1a");
  CHECK(actions[0]["isPreferred"] == true);
  CHECK(actions[1]["title"] == "Pin an image (unsafe fix)");
  const json& edits = actions[0]["edit"]["changes"]["file:///proj/Dockerfile"];
  REQUIRE(edits.size() == 1);
  CHECK(apply_edit(text, edits[0]) == "FROM x\nENV A=\xF0\x9F\x98\x80 ARCH=\"12.1a\"\n");
  CHECK(actions[2]["title"].get<std::string>().find("Suppress G1") == 0);
}

TEST_CASE("the suppression edit inserts a comment the parser accepts", "[lsp]") {
  std::string text = "FROM x\nRUN a \\\n    && pip install torch \\\n    && b\n";
  Project p = project_with("Dockerfile", text, FileKind::Dockerfile);
  Finding f = finding_at("Dockerfile", {3, 16, 3, 21});
  auto edit = suppression_edit(*p.files[0], f);
  REQUIRE(edit);
  CHECK((*edit)["range"]["start"]["line"] == 1);  // above the RUN, not inside its continuation
  std::string fixed = apply_edit(text, *edit);
  CHECK(fixed.find("\n# sparkcheck: ignore[G1] -- ") != std::string::npos);
  std::vector<Notification> problems;
  auto dirs = parse_suppressions(SourceFile("Dockerfile", fixed), false, problems);
  CHECK(problems.empty());
  REQUIRE(dirs.size() == 1);
  CHECK(dirs[0].covers(4));  // the finding's line, one lower now
}

TEST_CASE("suppression edits follow each file kind's comments", "[lsp]") {
  Finding f = finding_at("x", {2, 3, 2, 4});
  Project json_file = project_with("x", "{\n  \"a\": 1\n}\n", FileKind::Json);
  CHECK_FALSE(suppression_edit(*json_file.files[0], f));
  Project md = project_with("x", "# t\ntext\n", FileKind::Markdown);
  CHECK_FALSE(suppression_edit(*md.files[0], f));
  Project crlf = project_with("x", "a\r\n  b\r\n", FileKind::Yaml);
  auto e = suppression_edit(*crlf.files[0], f);
  REQUIRE(e);
  CHECK((*e)["newText"].get<std::string>().find("  # sparkcheck: ignore[G1]") == 0);
  CHECK(ends_with((*e)["newText"].get<std::string>(), "\r\n"));
  std::string nb = "{\"cells\": [{\"source\": [\n    \"import torch\\n\",\n    \"x = 1\"\n]}]}\n";
  Project notebook = project_with("x.ipynb", nb, FileKind::Notebook);
  auto n = suppression_edit(*notebook.files[0], f);
  REQUIRE(n);
  CHECK((*n)["newText"] == "    \"# sparkcheck: ignore[G1] -- TODO: why this is safe\\n\",\n");
  std::vector<Notification> problems;
  auto dirs = parse_suppressions(SourceFile("x.ipynb", apply_edit(nb, *n)), false, problems);
  CHECK(problems.empty());
  CHECK(dirs.size() == 1);
}

TEST_CASE("diagnostics carry level, rule link and related places", "[lsp]") {
  Project p = project_with("Dockerfile", "FROM x\n", FileKind::Dockerfile);
  Finding f = finding_at("Dockerfile", {1, 1, 1, 5});
  f.fix = "do y";
  f.related.push_back({{"requirements.txt", {3, 1, 3, 6}}, "installed here"});
  json d = to_diagnostic(p, f);
  CHECK(d["severity"] == 1);
  CHECK(d["code"] == "G1");
  CHECK(d["source"] == "sparkcheck");
  CHECK(d["codeDescription"]["href"].get<std::string>().find("/docs/rules/G1.md") != std::string::npos);
  CHECK(d["relatedInformation"][0]["location"]["uri"] == "file:///proj/requirements.txt");
  CHECK(d["relatedInformation"][0]["location"]["range"]["start"]["line"] == 2);
  CHECK(hover_markdown(f, true).find("cuda-major-mismatch") != std::string::npos);
}

TEST_CASE("framing: bodies by Content-Length, bad headers answered, oversize dropped", "[lsp]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::string big = "Content-Length: " + std::to_string(Channel::kMaxBody + 1) + "\r\n\r\n";
  std::string in = "Content-Length: 2\r\ncontent-type: x\r\n\r\n{}" "X-Other: 1\r\n\r\n" + big +
                   "Content-Length: 3\r\n\r\n[1]";
  REQUIRE(write(fds[1], in.data(), in.size()) == static_cast<ssize_t>(in.size()));
  close(fds[1]);
  Channel ch(fds[0], -1);
  std::string body, why;
  CHECK(ch.read(body, why) == Channel::Got::Message);
  CHECK(body == "{}");
  CHECK(ch.read(body, why) == Channel::Got::Bad);
  CHECK(why == "no valid Content-Length header");
  CHECK(ch.read(body, why) == Channel::Got::Bad);
  CHECK(why.find("over the") != std::string::npos);
  CHECK(ch.read(body, why) == Channel::Got::Message);  // read on from the next header, not the promised bytes
  CHECK(body == "[1]");
  CHECK(ch.read(body, why) == Channel::Got::End);
  close(fds[0]);
}

TEST_CASE("an unused suppression is removed: the id, or the whole comment", "[lsp]") {
  auto removed = [](const std::string& text, Range id) {
    Project p = project_with("req.txt", text, FileKind::Requirements);
    Finding f = finding_at("req.txt", id);
    f.rule = kUnusedSuppression;
    auto e = removal_edit(*p.files[0], f);
    return e ? apply_edit(text, *e) : std::string("(none)");
  };
  // the only id of a comment on its own line: the line goes
  CHECK(removed("a\n# sparkcheck: ignore[G9] -- r\nb\n", {2, 22, 2, 24}) == "a\nb\n");
  // the last line, without a line break
  CHECK(removed("a\n# sparkcheck: ignore[G9] -- r", {2, 22, 2, 24}) == "a");
  // a trailing comment: the code stays
  CHECK(removed("torch==2.9  # sparkcheck: ignore[G9] -- r\r\n", {1, 34, 1, 36}) == "torch==2.9\r\n");
  // one of two ids: only it (and its separator) goes
  CHECK(removed("x  # sparkcheck: ignore[G1, G9] -- r\n", {1, 25, 1, 27}) == "x  # sparkcheck: ignore[G9] -- r\n");
  CHECK(removed("x  # sparkcheck: ignore[G1, G9] -- r\n", {1, 29, 1, 31}) == "x  # sparkcheck: ignore[G1] -- r\n");
  // other rules' findings get no removal
  Project p = project_with("req.txt", "a\n", FileKind::Requirements);
  CHECK_FALSE(removal_edit(*p.files[0], finding_at("req.txt", {1, 1, 1, 2})));
}

TEST_CASE("no suppression comment above a shebang", "[lsp]") {
  Project p = project_with("run.sh", "#!/bin/bash\npip install torch\n", FileKind::Shell);
  CHECK_FALSE(suppression_edit(*p.files[0], finding_at("run.sh", {1, 3, 1, 6})));
  CHECK(suppression_edit(*p.files[0], finding_at("run.sh", {2, 1, 2, 4})));
}

TEST_CASE("server options and watcher registration read hostile client input safely", "[lsp]") {
  ServerOptions o;
  read_options(json::parse(R"({"debounceMs": 40})"), o);
  CHECK(o.debounce_ms == 40);
  read_options(json::parse(R"({"sparkcheck": {"debounceMs": 1e300}})"), o);
  CHECK(o.debounce_ms == ServerOptions::kMaxDebounceMs);
  read_options(json::parse(R"({"debounceMs": -7})"), o);
  CHECK(o.debounce_ms == 0);
  for (const char* bad : {R"({"debounceMs": "9"})", "[1]", "null", R"({"sparkcheck": 3})"}) {
    o.debounce_ms = 150;
    read_options(json::parse(bad), o);
    CHECK(o.debounce_ms == 150);
  }
  CHECK(can_watch(json::parse(R"({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}})")));
  CHECK_FALSE(can_watch(json::parse(R"({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": 1}}})")));
  CHECK_FALSE(can_watch(json::parse(R"({"workspace": []})")));
  CHECK_FALSE(can_watch(json::parse("7")));
  json reg = watcher_registration()["registrations"][0];
  CHECK(reg["method"] == "workspace/didChangeWatchedFiles");
  CHECK(reg["registerOptions"]["watchers"].size() == watch_globs().size());
  json changes = json::parse(R"({"changes": [{"uri": "file:///a/b/../c%20d.txt", "type": 2}, {"uri": 5},
                                 {"uri": "untitled:1"}, 7]})");
  CHECK(changed_paths(changes) == std::vector<std::string>{"/a/c d.txt"});
  CHECK(changed_paths(json::parse("[]")).empty());
}

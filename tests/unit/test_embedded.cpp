// SPDX-License-Identifier: Apache-2.0
// Unit tests for text embedded in other files: Markdown code blocks and
// compose commands (linter/parsers/markdown.cpp, compose.cpp, embedded.*).
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>

#include "core/registry.h"

using namespace sc;

namespace {

struct Parsed {
  FileFacts facts;
  ParseDiag diag;
};

Parsed parse(const std::string& name, const std::string& text) {
  Parsed p;
  const Parser* parser = parser_for(FileInfo{name, name, {}});
  REQUIRE(parser != nullptr);
  SourceFile src(name, text);
  p.facts.kind = parser->kind();
  parser->parse(src, p.facts, p.diag);
  for (PostParsePass pass : post_parse_passes()) pass(p.facts);
  return p;
}

const Command* find_cmd(const FileFacts& f, const std::string& prog) {
  for (auto& c : f.commands)
    if (!c.argv.empty() && c.argv[0].text == prog) return &c;
  return nullptr;
}

// Line and column where the first command named `prog` starts (0, 0 when none).
std::pair<int, int> starts_at(const FileFacts& f, const std::string& prog) {
  const Command* c = find_cmd(f, prog);
  return c ? std::make_pair(c->loc.range.line, c->loc.range.col) : std::make_pair(0, 0);
}

}  // namespace

TEST_CASE("markdown: a block in a list item maps to the .md line and column", "[embedded]") {
  auto p = parse("README.md",
                 "# t\n"
                 "\n"
                 "1. step\n"
                 "\n"
                 "   ```bash\n"
                 "   pip install torch\n"
                 "   ```\n");
  const Command* c = find_cmd(p.facts, "pip");
  REQUIRE(c != nullptr);
  CHECK(c->loc.range.line == 6);
  CHECK(c->loc.range.col == 4);
  CHECK(c->argv[2].loc.range.col == 16);
  CHECK(c->argv[2].loc.range.end_col == 21);
}

TEST_CASE("markdown: block quotes, console prompts and output lines", "[embedded]") {
  auto p = parse("README.md",
                 "> ```console\n"
                 "> user@spark:~$ docker pull nvcr.io/nvidia/pytorch:25.11-py3\n"
                 "> pip install torch\n"
                 "> ```\n");
  REQUIRE(find_cmd(p.facts, "pip") == nullptr);  // an output line
  REQUIRE(p.facts.images.size() == 1);
  CHECK(p.facts.images[0].ref == "nvcr.io/nvidia/pytorch:25.11-py3");
  CHECK(p.facts.images[0].loc.range.line == 2);
  CHECK(p.facts.images[0].loc.range.col == 29);
}

TEST_CASE("markdown: variables flow from one shell block to the next; prose and text blocks are not read",
          "[embedded]") {
  auto p = parse("README.md",
                 "Run pip install torch first.\n"
                 "```sh\nexport TP=2\n```\n"
                 "```text\npip install flash-attn\n```\n"
                 "```\nvllm serve m --tensor-parallel-size $TP\n```\n");
  CHECK(find_cmd(p.facts, "pip") == nullptr);
  const Command* v = find_cmd(p.facts, "vllm");
  REQUIRE(v != nullptr);
  CHECK(v->argv.back().text == "2");
  CHECK(v->loc.range.line == 9);
}

TEST_CASE("markdown: Dockerfile blocks keep their stages apart", "[embedded]") {
  auto p = parse("README.md",
                 "```dockerfile\nFROM a:1 AS one\n```\n"
                 "```Dockerfile\nFROM b:2\nFROM one\n```\n");
  REQUIRE(p.facts.images.size() == 3);
  CHECK(p.facts.images[1].stage == 1);
  CHECK(p.facts.images[1].loc.range.line == 5);
  CHECK(p.diag.notes.empty());
}

TEST_CASE("compose: string and list commands, environment as variables, image", "[embedded]") {
  auto p = parse("docker-compose.yml",
                 "services:\n"
                 "  a:\n"
                 "    image: nvcr.io/nvidia/pytorch:${TAG:-25.11}-py3\n"
                 "    environment:\n"
                 "      - TP=4\n"
                 "    command: torchrun --nproc-per-node $TP train.py\n"
                 "  b:\n"
                 "    command: [\"bash\", \"-c\", \"pip install vllm\"]\n");
  REQUIRE(p.facts.images.size() == 1);
  CHECK(p.facts.images[0].ref == "nvcr.io/nvidia/pytorch:25.11-py3");
  CHECK(starts_at(p.facts, "torchrun") == std::make_pair(6, 14));
  CHECK(find_cmd(p.facts, "torchrun")->argv[2].text == "4");
  CHECK(starts_at(p.facts, "pip") == std::make_pair(8, 30));
}

TEST_CASE("image commands: docker run options, enroot, srun, IMAGE=", "[embedded]") {
  auto p = parse("run.sh",
                 "docker run -it --rm -v /a:/b --name x --gpus=all img/a:1 python t.py\n"
                 "enroot import docker://nvcr.io#nvidia/pytorch:25.11-py3\n"
                 "srun --container-image nvcr.io/nvidia/pytorch:25.09-py3 python t.py\n"
                 "BASE_IMAGE=nvcr.io/nvidia/vllm:25.11-py3\n"
                 "docker exec ctr bash -c 'pip install x'\n");
  REQUIRE(p.facts.images.size() == 4);
  std::vector<std::string> refs;
  for (auto& im : p.facts.images) refs.push_back(im.ref);
  CHECK(std::count(refs.begin(), refs.end(), "img/a:1") == 1);
  CHECK(std::count(refs.begin(), refs.end(), "nvcr.io/nvidia/pytorch:25.11-py3") == 1);
  CHECK(std::count(refs.begin(), refs.end(), "nvcr.io/nvidia/pytorch:25.09-py3") == 1);
  CHECK(std::count(refs.begin(), refs.end(), "nvcr.io/nvidia/vllm:25.11-py3") == 1);
  CHECK(starts_at(p.facts, "pip") == std::make_pair(5, 26));
}

TEST_CASE("compose: a folded command keeps each word on its own line", "[embedded]") {
  auto p = parse("compose.yaml",
                 "services:\n"
                 "  vllm:\n"
                 "    command: >\n"
                 "      vllm serve m\n"
                 "      --tensor-parallel-size 2\n");
  const Command* v = find_cmd(p.facts, "vllm");
  REQUIRE(v != nullptr);
  REQUIRE(v->argv.size() == 5);
  CHECK(v->argv[4].text == "2");
  CHECK(v->argv[4].loc.range.line == 5);
  CHECK(v->argv[4].loc.range.col == 30);
}

TEST_CASE("shell heredocs: an expanded Python body's syntax is the shell's; a function's heredoc is read once",
          "[embedded]") {
  auto syntax_notes = [](const ParseDiag& d) {
    return std::count_if(d.notes.begin(), d.notes.end(), [](const Notification& n) { return n.id == "python-syntax"; });
  };
  // `${TOKEN:+...}` is rewritten by the shell before Python reads the text
  Parsed expanded = parse("get.sh", "fetch() {\n  python3 <<EOF\n${TOKEN:+os.environ['T'] = '$TOKEN'}\nimport os\nEOF\n}\nfetch\n");
  CHECK(syntax_notes(expanded.diag) == 0);
  // a quoted delimiter keeps the text as written: its syntax error is Python's, reported once
  Parsed quoted = parse("get.sh", "fetch() {\n  python3 <<'EOF'\nif x\nEOF\n}\nfetch\nfetch\n");
  CHECK(syntax_notes(quoted.diag) == 1);
}

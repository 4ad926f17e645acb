// SPDX-License-Identifier: Apache-2.0
// python_statements_only: which lines a partial parse reads, when the splitter gives up, and
// that a file parsed around its trigger lines yields, after trim, the facts of a whole parse.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/source.h"
#include "engine/prefilter.h"
#include "parsers/python.h"

using namespace sc;

namespace {

// The part's text with every byte outside its ranges shown as '.', newlines kept.
std::string shown(const std::string& text, const std::vector<int>& lines) {
  auto part = python_statements_only(text, lines);
  if (!part) return "UNSURE";
  std::string out(text.size(), '.');
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') out[i] = '\n';
  for (const auto& r : part->ranges)
    for (uint32_t b = r.begin; b < r.end; ++b) out[b] = part->text[b];
  return out;
}

// Facts of a parse, whole (lines off) or around the prefilter's lines, after trim.
std::string facts(const std::string& text, bool in_part) {
  SourceFile src("lib.py", text);
  FileFacts f;
  f.kind = FileKind::Python;
  ParseDiag d;
  Prefilter filter(true);
  if (in_part) d.python_lines = [&](std::string_view t) { return filter.python_lines(t); };
  parse_python(src, f.python, d);
  filter.trim(src, f);
  std::string s;
  for (const auto& i : f.python.imports) s += "import " + i.module + "." + i.name + "\n";
  for (const auto& c : f.python.calls)
    s += "call " + c.resolved + " @" + std::to_string(c.loc.range.line) + ":" + std::to_string(c.loc.range.col) + "\n";
  for (const auto& a : f.python.assigns)
    s += "assign " + a.resolved + "=" + a.value + " depth " + std::to_string(a.scope_depth) + "\n";
  for (const auto& p : f.python.strings) s += "string " + p.first + " @" + std::to_string(p.second.range.line) + "\n";
  return s;
}

}  // namespace

TEST_CASE("python part: a statement in a method keeps its headers, imports and nothing else") {
  std::string text =
      "import os\n"
      "class Trainer:\n"
      "    def setup(self):\n"
      "        x = 1\n"
      "        init(tp_size=2)\n"
      "    def other(self):\n"
      "        y = 2\n";
  CHECK(shown(text, {5}) ==
        "import os\n"
        "class Trainer:\n"
        "    def setup(self):\n"
        ".............\n"
        "        init(tp_size=2)\n"
        "....................\n"
        ".............\n");
}

TEST_CASE("python part: an else clause keeps its if, whose block becomes pass") {
  std::string text =
      "if cuda:\n"
      "    a = 1\n"
      "else:\n"
      "    b = run(tp_size=1)\n";
  CHECK(shown(text, {4}) ==
        "if cuda:\n"
        "    pass \n"
        "else:\n"
        "    b = run(tp_size=1)\n");
}

TEST_CASE("python part: a kept try keeps its handlers; a kept decorator keeps its definition") {
  std::string text =
      "try:\n"
      "    import flash_attn\n"
      "except ImportError:\n"
      "    flash_attn = None\n"
      "@patch(tp_size=2)\n"
      "def f():\n"
      "    return 1\n";
  CHECK(shown(text, {5}) ==
        "try:\n"
        "    import flash_attn\n"
        "except ImportError:\n"
        "    pass             \n"
        "@patch(tp_size=2)\n"
        "def f():\n"
        "    pass    \n");
}

TEST_CASE("python part: a statement over several lines is kept whole") {
  std::string text =
      "cfg = dict(\n"
      "    a='''x\n"
      "y''',\n"
      "    tp_size=2)  # (\n"
      "z = 1\n";
  CHECK(shown(text, {4}) ==
        "cfg = dict(\n"
        "    a='''x\n"
        "y''',\n"
        "    tp_size=2)  # (\n"
        ".....\n");
}

TEST_CASE("python part: the splitter gives up where it is unsure") {
  CHECK(shown("if x:\n\ty = 1\n", {2}) == "UNSURE");           // a tab in an indentation
  CHECK(shown("s = 'open\n", {1}) == "UNSURE");                // an unterminated string
  CHECK(shown("f(a,\n", {1}) == "UNSURE");                     // an unclosed bracket
  CHECK(shown("x = 1\n  y = 2\n", {2}) == "UNSURE");           // an unexpected indent
  CHECK(shown("a = 1\rb = 2\n", {1}) == "UNSURE");             // a lone carriage return
  CHECK(shown("else:\n    x = 1\n", {2}) == "UNSURE");         // a clause with no opener
  CHECK(shown("if x:\n  a\n", {1}) == "UNSURE");               // no room for `pass`
}

TEST_CASE("python part: facts after trim equal those of a whole parse") {
  std::string text =
      "from unsloth import FastLanguageModel as FLM\n"
      "import os\n"
      "def load(tp_size=1):\n"
      "    other = compute()\n"
      "    for i in range(3):\n"
      "        if i:\n"
      "            continue\n"
      "        else:\n"
      "            os.environ['TP_SIZE'] = '2'\n"
      "    model = FLM.from_pretrained('m', attn_implementation='sdpa')\n"
      "    lam = lambda: launch(tensor_parallel_size=2)\n"
      "    return model\n"
      "class A:\n"
      "    '''doc'''\n"
      "    @staticmethod\n"
      "    def g():\n"
      "        s = \"fp4 kernels\"\n"
      "while True:\n"
      "    break\n";
  CHECK(facts(text, true) == facts(text, false));
  CHECK(facts(text, true).find("from_pretrained") != std::string::npos);
  CHECK(facts(text, true).find("assign os.environ[TP_SIZE]=2 depth 1") != std::string::npos);  // inside load()
}

TEST_CASE("python part: a text the splitter misreads is parsed whole") {
  // an f-string that nests its own quotes (Python 3.12): a split error makes a parse error,
  // and the whole text is parsed instead
  std::string text = "x = f\"{d[\"k\"]}\"\ninit(tp_size=2)\n";
  CHECK(facts(text, true) == facts(text, false));
}

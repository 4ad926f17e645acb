// SPDX-License-Identifier: Apache-2.0
// Unit tests for the Python and notebook layers.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <tree_sitter/api.h>

#include "core/registry.h"
#include "engine/prefilter.h"
#include "parsers/json_quick.h"
#include "parsers/python.h"

extern "C" const TSLanguage* tree_sitter_python(void);

using namespace sc;

namespace {

PythonFacts py(const std::string& text, ParseDiag* diag = nullptr) {
  PythonFacts f;
  ParseDiag d;
  SourceFile src("train.py", text);
  parse_python(src, f, diag ? *diag : d);
  return f;
}

const PyCall* find_call(const PythonFacts& f, const std::string& callee) {
  for (auto& c : f.calls)
    if (c.callee == callee) return &c;
  return nullptr;
}

const PyArg* kw(const PyCall& c, const std::string& k) {
  for (auto& a : c.args)
    if (a.keyword == k) return &a;
  return nullptr;
}

FileFacts lint_as(const std::string& name, const std::string& text, ParseDiag& d) {
  FileInfo info{name, name, text};
  const Parser* p = parser_for(info);
  FileFacts f;
  if (!p) return f;
  SourceFile src(name, text);
  p->parse(src, f, d);
  return f;
}

}  // namespace

TEST_CASE("python grammar loads in this tree-sitter", "[python]") {
  TSParser* p = ts_parser_new();
  REQUIRE(ts_parser_set_language(p, tree_sitter_python()));
  ts_parser_delete(p);
}

TEST_CASE("imports with aliases", "[python]") {
  auto f = py(
      "import unsloth.models._utils as u, os\n"
      "import torch.distributed\n"
      "from unsloth import FastLanguageModel as FLM, FastModel\n"
      "from .mod import (a as b, c)\n"
      "from pkg import *\n");
  REQUIRE(f.imports.size() == 8);
  CHECK(f.imports[0].module == "unsloth.models._utils");
  CHECK(f.imports[0].alias == "u");
  CHECK(f.imports[0].name.empty());
  CHECK(f.imports[2].module == "torch.distributed");
  CHECK(f.imports[2].alias == "torch");
  CHECK(f.imports[3].module == "unsloth");
  CHECK(f.imports[3].name == "FastLanguageModel");
  CHECK(f.imports[3].alias == "FLM");
  CHECK(f.imports[4].alias == "FastModel");
  CHECK(f.imports[5].module == ".mod");
  CHECK(f.imports[5].alias == "b");
  CHECK(f.imports[7].name == "*");
  CHECK(f.imports[3].loc.range == Range{3, 21, 3, 45});
}

TEST_CASE("calls: callee, import resolution, keyword literals, multi-line", "[python]") {
  auto f = py(
      "from unsloth import FastLanguageModel as FLM\n"
      "import torch.distributed.device_mesh as dm\n"
      "model, tok = FLM.from_pretrained(\n"
      "    \"unsloth/Llama-3.2-3B-Instruct\",\n"
      "    load_in_4bit = True,\n"
      "    attn_implementation=\"sdpa\",  # comment\n"
      "    n=-2, f=1.5, z=None, k=v, s='a' 'b', r=r'\\d', fs=f\"{x}\",\n"
      "    **kw)\n"
      "mesh = dm.init_device_mesh(\"cuda\", (1, 2), mesh_dim_names=(\"dp\", \"tp\"))\n"
      "a.b().c(1)\n");
  const PyCall* c = find_call(f, "FLM.from_pretrained");
  REQUIRE(c);
  CHECK(c->resolved == "unsloth.FastLanguageModel.from_pretrained");
  REQUIRE(c->args.size() == 11);
  CHECK(c->args[0].keyword.empty());
  CHECK(c->args[0].literal == "unsloth/Llama-3.2-3B-Instruct");
  CHECK(kw(*c, "load_in_4bit")->kind == "true");
  const PyArg* attn = kw(*c, "attn_implementation");
  REQUIRE(attn);
  CHECK(attn->literal == "sdpa");
  CHECK(attn->is_literal);
  CHECK(attn->loc.range == Range{6, 5, 6, 31});
  CHECK(kw(*c, "n")->literal == "-2");
  CHECK(kw(*c, "f")->kind == "float");
  CHECK(kw(*c, "z")->kind == "none");
  CHECK_FALSE(kw(*c, "k")->is_literal);
  CHECK(kw(*c, "s")->literal == "ab");
  CHECK(kw(*c, "r")->literal == "\\d");
  CHECK_FALSE(kw(*c, "fs")->is_literal);
  CHECK(c->args.back().keyword == "**");
  const PyCall* m = find_call(f, "dm.init_device_mesh");
  REQUIRE(m);
  CHECK(m->resolved == "torch.distributed.device_mesh.init_device_mesh");
  CHECK(m->args[1].kind == "tuple");
  CHECK(m->args[1].items == std::vector<std::string>{"1", "2"});
  CHECK(kw(*m, "mesh_dim_names")->items == std::vector<std::string>{"dp", "tp"});
  CHECK(find_call(f, "a.b().c"));
}

TEST_CASE("scope depth and enclosing function; defined functions", "[python]") {
  auto f = py(
      "def build(tensor_parallel_size=2, *, y: int = 3):\n"
      "    return LLM(model='m', tensor_parallel_size=tensor_parallel_size)\n"
      "class C:\n"
      "    x = setup(1)\n"
      "    async def g(self):\n"
      "        await self.h(x=1)\n"
      "LLM('m', tensor_parallel_size=2)\n");
  REQUIRE(f.calls.size() == 4);
  CHECK(f.calls[0].callee == "LLM");
  CHECK_FALSE(kw(f.calls[0], "tensor_parallel_size")->is_literal);
  CHECK(kw(f.calls[3], "tensor_parallel_size")->literal == "2");
}

TEST_CASE("assignments to imported attributes and setattr, in source order", "[python]") {
  auto f = py(
      "import unsloth.models._utils as u\n"
      "from unsloth.utils import attention_dispatch as ad\n"
      "u.HAS_FLASH_ATTENTION = False\n"
      "setattr(ad, \"HAS_FLASH_ATTENTION\", False)\n"
      "x = y = 3\n"
      "def f():\n"
      "    u.HAS_FLASH_ATTENTION = True\n");
  REQUIRE(f.assigns.size() == 5);  // x = y = 3 is two
  CHECK(f.assigns[0].target == "u.HAS_FLASH_ATTENTION");
  CHECK(f.assigns[0].resolved == "unsloth.models._utils.HAS_FLASH_ATTENTION");
  CHECK(f.assigns[0].value == "False");
  CHECK(f.assigns[0].is_literal);
  CHECK(f.assigns[1].resolved == "unsloth.utils.attention_dispatch.HAS_FLASH_ATTENTION");
  CHECK(f.assigns[1].value == "False");
  CHECK(f.assigns[2].target == "x");
  CHECK(f.assigns[2].value == "3");
  CHECK(f.assigns[3].target == "y");
  CHECK(f.assigns[4].scope_depth == 1);
  CHECK(f.assigns[0].loc.range.line == 3);
  CHECK(f.assigns[1].loc.range.line == 4);
}

TEST_CASE("string literals with locations", "[python]") {
  auto f = py("m = 'nvidia/Qwen3-8B-NVFP4'\ns = \"a\\tb\"\n");
  REQUIRE(f.strings.size() == 2);
  CHECK(f.strings[0].first == "nvidia/Qwen3-8B-NVFP4");
  CHECK(f.strings[0].second.range == Range{1, 5, 1, 28});
  CHECK(f.strings[1].first == "a\tb");
}

TEST_CASE("python syntax errors warn and keep facts", "[python]") {
  ParseDiag d;
  auto f = py("import os\ndef f(:\n    pass\nLLM('m', tensor_parallel_size=2)\n", &d);
  CHECK(d.notes.size() == 1);
  CHECK(find_call(f, "LLM"));
}

TEST_CASE("python files by name and shebang", "[python]") {
  CHECK(python_shebang("#!/usr/bin/env python3\n"));
  CHECK_FALSE(python_shebang("#!/bin/bash\n"));
  FileInfo a{"x/train.py", "train.py", ""};
  FileInfo b{"bin/run", "run", "#!/usr/bin/python3 -u\nprint(1)"};
  REQUIRE(parser_for(a));
  CHECK(parser_for(a)->kind() == FileKind::Python);
  REQUIRE(parser_for(b));
  CHECK(parser_for(b)->kind() == FileKind::Python);
}

TEST_CASE("notebooks: cells as python and shell with .ipynb positions", "[notebook]") {
  std::string nb =
      "{\n"
      " \"cells\": [\n"
      "  {\"cell_type\": \"markdown\", \"source\": [\"!pip install nope\\n\"]},\n"
      "  {\n"
      "   \"cell_type\": \"code\",\n"
      "   \"metadata\": {},\n"
      "   \"source\": [\n"
      "    \"!pip install flash-attn --no-build-isolation\\n\",\n"
      "    \"%pip install \\\"unsloth\\\"\\n\",\n"
      "    \"%matplotlib inline\\n\",\n"
      "    \"from unsloth import FastLanguageModel as FLM\"\n"
      "   ]\n"
      "  },\n"
      "  {\"cell_type\": \"code\", \"source\": \"m = FLM.from_pretrained('x',\\n    attn_implementation='sdpa')\"},\n"
      "  {\"cell_type\": \"code\", \"source\": [\"%%bash\\n\", \"vllm serve m --tensor-parallel-size 2\\n\"]},\n"
      "  {\"cell_type\": \"code\", \"source\": [\"%%capture\\n\", \"!uv pip install x \\\\\\n\", \"    y\\n\", \"import os\"]}\n"
      " ],\n"
      " \"metadata\": {\"kernelspec\": {\"language\": \"python\"}},\n"
      " \"nbformat\": 4\n"
      "}\n";
  ParseDiag d;
  FileFacts f = lint_as("nb/train.ipynb", nb, d);
  CHECK(f.kind == FileKind::Notebook);
  CHECK(d.notes.empty());
  for (auto& n : d.notes) INFO(n.message);
  REQUIRE(f.commands.size() == 4);
  CHECK(f.commands[3].argv[0].text == "uv");
  CHECK(f.commands[3].argv[0].loc.range.line == 16);
  REQUIRE(f.commands[3].argv.size() == 5);
  CHECK(f.commands[3].argv[4].text == "y");
  CHECK(f.commands[0].argv[0].text == "pip");
  CHECK(f.commands[0].context == CommandContext::Notebook);
  CHECK(f.commands[0].argv[0].loc.path == "nb/train.ipynb");
  CHECK(f.commands[0].argv[0].loc.range == Range{8, 7, 8, 10});
  CHECK(f.commands[0].argv[2].loc.range == Range{8, 19, 8, 29});
  CHECK(f.commands[1].argv[0].loc.range == Range{9, 7, 9, 10});
  CHECK(f.commands[1].argv[2].text == "unsloth");
  CHECK(f.commands[2].argv[0].text == "vllm");
  CHECK(f.commands[2].argv[0].loc.range.line == 15);
  REQUIRE(f.python.imports.size() == 2);
  CHECK(f.python.imports[0].loc.range.line == 11);
  REQUIRE(f.python.calls.size() == 1);
  const PyCall& c = f.python.calls[0];
  CHECK(c.resolved == "unsloth.FastLanguageModel.from_pretrained");
  CHECK(c.loc.range.line == 14);
  const PyArg* attn = kw(c, "attn_implementation");
  REQUIRE(attn);
  CHECK(attn->loc.range.line == 14);
  CHECK(attn->loc.range.col == 70);
}

TEST_CASE("malformed notebooks give a clear notification", "[notebook]") {
  ParseDiag d;
  lint_as("bad.ipynb", "{\"cells\": [ {\"cell_type\": \"code\", ]}", d);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].level == Level::Error);
  CHECK(d.notes[0].id == "parse-error");
  CHECK(d.notes[0].message.find("not valid JSON") != std::string::npos);
  ParseDiag d2;
  lint_as("old.ipynb", "{\"worksheets\": []}", d2);
  REQUIRE(d2.notes.size() == 1);
}

TEST_CASE("subscript assignments with a literal key", "[python]") {
  auto f = py("import os\nos.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"12.1\"\nd[k] = 1\n");
  REQUIRE(f.assigns.size() == 1);
  CHECK(f.assigns[0].target == "os.environ[TORCH_CUDA_ARCH_LIST]");
  CHECK(f.assigns[0].resolved == "os.environ[TORCH_CUDA_ARCH_LIST]");
  CHECK(f.assigns[0].value == "12.1");
}

TEST_CASE("...Config(...) keyword literals become config entries", "[python]") {
  ParseDiag d;
  FileFacts f = lint_as("train.py",
                        "job = JobConfig(parallelism=Parallelism(tensor_parallel_degree=2), seed=7)\n"
                        "g = GRPOConfig(vllm_tensor_parallel_size=2, use_vllm=True, lr=lr)\n"
                        "m = build(tensor_parallel_degree=2)\n",
                        d);
  f.kind = FileKind::Python;
  for (PostParsePass pass : post_parse_passes()) pass(f);
  std::vector<std::string> got;
  for (const ConfigEntry& e : f.config) got.push_back(e.dotted() + "=" + e.value);
  CHECK(got == std::vector<std::string>{"job.seed=7", "job.parallelism.tensor_parallel_degree=2",
                                        "grpo.vllm_tensor_parallel_size=2", "grpo.use_vllm=true"});
}

namespace {

// Records the SAX events a JSON reader sends, to compare json_quick with nlohmann.
struct EventLog : nlohmann::json_sax<nlohmann::json> {
  std::string log;
  bool null() override { log += 'v'; return true; }
  bool boolean(bool) override { return null(); }
  bool number_integer(number_integer_t) override { return null(); }
  bool number_unsigned(number_unsigned_t) override { return null(); }
  bool number_float(number_float_t, const string_t&) override { return null(); }
  bool string(string_t& s) override { log += "s(" + s + ")"; return true; }
  bool binary(binary_t&) override { return null(); }
  bool start_object(std::size_t) override { log += '{'; return true; }
  bool key(string_t& k) override { log += "k(" + k + ")"; return true; }
  bool end_object() override { log += '}'; return true; }
  bool start_array(std::size_t) override { log += '['; return true; }
  bool end_array() override { log += ']'; return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
  bool wants_string() const { return true; }
};

}  // namespace

TEST_CASE("json_quick accepts only what nlohmann accepts, with the same events", "[notebook]") {
  const std::vector<std::string> ok = {
      "{}", " [ ] ", "{\"a\": [1, -2.5e+10, true, false, null, \"x\"]}", "\"\\u00e9\\ud83d\\ude00\\n\\/\"",
      "{\"k\\u0065y\": {\"a\": {}}, \"b\": [[], [{}]]}", "0", "-0.0", "123456789012345678901234567890",
      "{\"cells\": [{\"source\": \"caf\xc3\xa9\"}]}"};
  for (const std::string& s : ok) {
    INFO(s);
    EventLog quick, full;
    CHECK(json_quick::check(s, quick));
    CHECK(nlohmann::json::sax_parse(s, &full));
    CHECK(quick.log == full.log);
  }
  // invalid, or valid but left to nlohmann (a number it may find out of range)
  const std::vector<std::string> refused = {
      "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "-", "+1", "tru", "truex", "[1 2]",
      "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\x41\"", "\"a\tb\"", "\"abc", "1e400", "1e99999",
      "{} {}", "{'a': 1}", "[1] x"};
  for (const std::string& s : refused) {
    INFO(s);
    EventLog quick;
    CHECK_FALSE(json_quick::check(s, quick));
  }
}

TEST_CASE("json_quick: strings with long runs and stops at every offset", "[notebook]") {
  for (size_t pad = 0; pad < 20; ++pad) {
    std::string body(pad, 'A');
    EventLog a, b;
    std::string s = "[\"" + body + "\\\"" + body + "\"]";
    CHECK(json_quick::check(s, a));
    CHECK(nlohmann::json::sax_parse(s, &b));
    CHECK(a.log == b.log);
    std::string bad = "[\"" + body + "\x01" + body + "\"]";
    CHECK_FALSE(json_quick::check(bad, a));
  }
}

TEST_CASE("prefilter: string escapes count only when the decoded text holds a word", "[prefilter]") {
  Prefilter on(true), off(false);
  CHECK_FALSE(on.wanted(FileKind::Python, "x = 1\n"));
  CHECK(on.wanted(FileKind::Python, "flags = ['-gencode', 'arch=compute_121a']\n"));
  CHECK(on.wanted(FileKind::Python, "s = '\\x6evcc'\n"));            // \x6e: n
  CHECK(on.wanted(FileKind::Python, "s = 'AR\\u0043H_LIST'\n"));      // \u0043: C
  CHECK(on.wanted(FileKind::Python, "s = 'f\\U00000070\\x34'\n"));    // fp4
  CHECK(on.wanted(FileKind::Python, "s = 'nv\\\nc\\x63'\n"));       // decoded, the lines join: nvcc
  CHECK_FALSE(on.wanted(FileKind::Python, "table = '\\x41\\x42\\u0043'  # ABC\n"));
  CHECK_FALSE(on.wanted(FileKind::Python, "s = '\\\\x41RCH'\n"));    // an escaped backslash: \x41RCH
  CHECK(off.wanted(FileKind::Python, "x = 1\n"));
  CHECK(on.wanted(FileKind::Shell, "echo hi\n"));
}

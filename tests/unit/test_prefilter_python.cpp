// SPDX-License-Identifier: Apache-2.0
// Prefilter::trim: a parsed Python file keeps the calls, assignments and string literals a rule
// may read (a line holding a python-triggers word, such a word in a literal, a python-fact-names
// name) and all its imports; the rest goes. With the filter off, nothing goes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "core/source.h"
#include "engine/prefilter.h"
#include "parsers/python.h"

using namespace sc;

namespace {

FileFacts trimmed(const std::string& text, bool on = true) {
  SourceFile src("train.py", text);
  FileFacts f;
  f.kind = FileKind::Python;
  ParseDiag d;
  parse_python(src, f.python, d);
  Prefilter(on).trim(src, f);
  return f;
}

bool has_call(const FileFacts& f, const std::string& callee) {
  return std::any_of(f.python.calls.begin(), f.python.calls.end(), [&](const PyCall& c) { return c.callee == callee; });
}

bool has_assign(const FileFacts& f, const std::string& target) {
  return std::any_of(f.python.assigns.begin(), f.python.assigns.end(), [&](const PyAssign& a) { return a.target == target; });
}

bool has_string(const FileFacts& f, const std::string& s) {
  return std::any_of(f.python.strings.begin(), f.python.strings.end(), [&](const auto& p) { return p.first == s; });
}

const char* kMixed =
    "import os\n"
    "from vllm import LLM\n"
    "x = compute(1, 2)\n"
    "name = \"plain\"\n"
    "llm = LLM(\n"
    "    model=\"m\",\n"
    "    tensor_parallel_size=2,\n"
    ")\n"
    "log(\"done\")\n";

}  // namespace

TEST_CASE("trim keeps a call with a trigger word on any of its lines", "[prefilter]") {
  FileFacts f = trimmed(kMixed);
  CHECK(has_call(f, "LLM"));
  CHECK_FALSE(has_call(f, "compute"));
  CHECK_FALSE(has_call(f, "log"));
  CHECK_FALSE(has_assign(f, "x"));
  CHECK_FALSE(has_assign(f, "name"));
  CHECK_FALSE(has_string(f, "plain"));
  CHECK_FALSE(has_string(f, "m"));  // a string is judged on its own line, not its call's
  CHECK(f.python.imports.size() == 2);  // imports all stay
}

TEST_CASE("trim keeps nothing less with the filter off", "[prefilter]") {
  FileFacts f = trimmed(kMixed, false);
  CHECK(has_call(f, "compute"));
  CHECK(has_call(f, "log"));
  CHECK(has_assign(f, "x"));
  CHECK(has_string(f, "plain"));
}

TEST_CASE("trim keeps a python-fact-names call without a trigger word", "[prefilter]") {
  FileFacts f = trimmed(
      "from unsloth import FastLanguageModel\n"
      "model = FastLanguageModel.from_pretrained(\"unsloth/llama-3-8b\")\n"
      "other = helper()\n"
      "import unsloth.models._utils as u\n"
      "u.HAS_FLASH_ATTENTION = False\n");
  CHECK(has_call(f, "FastLanguageModel.from_pretrained"));
  CHECK_FALSE(has_call(f, "helper"));
  CHECK(has_assign(f, "u.HAS_FLASH_ATTENTION"));
}

TEST_CASE("trim reads literals escape-decoded", "[prefilter]") {
  // "\x66p4" is "fp4": no line spells the word, the literal holds it
  FileFacts f = trimmed(
      "q = \"nv\\x66p4\"\n"
      "quantize(model, \"nv\\x66p4\")\n"
      "setup(\"x\")\n");
  CHECK(has_assign(f, "q"));
  CHECK(has_call(f, "quantize"));
  CHECK(has_string(f, "nvfp4"));
  CHECK_FALSE(has_call(f, "setup"));
}

TEST_CASE("trim keeps a multi-line string with the word on an inner line", "[prefilter]") {
  FileFacts f = trimmed(
      "doc = \"\"\"first\n"
      "uses NVFP4 here\n"
      "last\"\"\"\n"
      "other = \"x\"\n");
  CHECK(f.python.strings.size() == 1);
  CHECK(has_assign(f, "doc"));
  CHECK_FALSE(has_assign(f, "other"));
}

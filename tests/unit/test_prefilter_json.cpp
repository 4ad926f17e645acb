// SPDX-License-Identifier: Apache-2.0
// The JSON prefilter (knowledge/triggers.yaml json-triggers): a JSON file is skipped only when
// no config reader could find a key or value in it, and never when parsing it gives a note.
#include <catch2/catch.hpp>

#include <cctype>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/source.h"
#include "engine/prefilter.h"
#include "knowledge/knowledge.h"
#include "parsers/config.h"

using namespace sc;

namespace {

// {"a": {"b": VALUE}} for the dotted name "a.b".
std::string nested(const std::string& dotted, const std::string& value) {
  std::string open, close;
  size_t start = 0;
  for (size_t dot; (dot = dotted.find('.', start)) != std::string::npos; start = dot + 1) {
    open += "{\"" + dotted.substr(start, dot - start) + "\": ";
    close += "}";
  }
  return open + "{\"" + dotted.substr(start) + "\": " + value + "}" + close + "\n";
}

// Does the pattern hold `word` (lower case) outside any group, with no alternation outside groups?
bool holds_word(std::string pattern, const std::string& word) {
  for (char& c : pattern) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int depth = 0;
  bool found = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') { ++i; continue; }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == '|' && depth == 0) return false;
    if (depth == 0 && pattern.compare(i, word.size(), word) == 0) {
      char after = i + word.size() < pattern.size() ? pattern[i + word.size()] : ' ';
      found = found || (after != '?' && after != '*' && after != '{');
    }
  }
  return found;
}

// Does parsing `json` give an entry whose key or value holds `word`?
bool parsed_holds(const std::string& json, const std::string& word) {
  SourceFile src("x.json", json);
  std::vector<ConfigEntry> es;
  ParseDiag d;
  json_entries(src, es, d);
  for (const auto& e : es)
    if (e.key().find(word) != std::string::npos || e.value.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("prefilter: JSON without a config reader's word is not parsed, unless it is not plain JSON", "[prefilter]") {
  Prefilter on(true), off(false);
  const std::string golden = R"({"lm loss": {"start_step": 1, "values": {"1": 10.84, "2": 10.85}}})" "\n";
  CHECK_FALSE(on.wanted(FileKind::Json, golden));
  CHECK(off.wanted(FileKind::Json, golden));
  CHECK(on.wanted(FileKind::Json, R"({"tensor_parallel": {"autotp_size": 2}})"));
  CHECK(on.wanted(FileKind::Json, R"({"quant_algo": "NVFP4"})"));
  // parsing gives a note: NaN, an exponent tree-sitter-json rejects, nesting past the limit, no JSON
  CHECK(on.wanted(FileKind::Json, R"({"loss": NaN})"));
  CHECK(on.wanted(FileKind::Json, R"({"loss": 1e+20})"));
  CHECK(on.wanted(FileKind::Json, R"({"loss": [1, 2.5E+3]})"));
  CHECK_FALSE(on.wanted(FileKind::Json, R"({"text": "4.67E+2 and 1e+20 in prose"})"));
  CHECK(on.wanted(FileKind::Json, std::string(1001, '[') + std::string(1001, ']')));
  CHECK(on.wanted(FileKind::Json, R"({"a": 1} trailing)"));
  CHECK(on.wanted(FileKind::Json, "{\"a\": \"tab\there\"}"));
  CHECK_FALSE(on.wanted(FileKind::Json, R"({"a": [1, 2.5e-3, true, null, "x"], "b": {}})"));
}

TEST_CASE("prefilter: JSON escapes count as json_entries decodes them", "[prefilter]") {
  Prefilter on(true);
  // \f reads as 'f' (nv\fp4 -> nvfp4); \u escapes as '?': whatever the parser makes of them, the
  // prefilter parses the file exactly when the parsed keys or values hold the word
  for (std::string body : {R"(nv\fp4)", R"(nv\u0066p4)", R"(\/fp4)", R"(nv\\fp4)", R"(n\tfp4)"}) {
    std::string json = "{\"quant_algo\": \"" + body + "\"}";
    INFO(json);
    CHECK(on.wanted(FileKind::Json, json) == parsed_holds(json, "fp4"));
  }
  CHECK(on.wanted(FileKind::Json, R"({"flash\u005fattn": "fa2"})") == parsed_holds(R"({"flash\u005fattn": "fa2"})", "flash_attn"));
}

TEST_CASE("prefilter: every key and value the config readers look up keeps a JSON file", "[prefilter]") {
  Prefilter on(true);
  auto wanted = [&](const std::string& json) {
    INFO(json);
    CHECK(on.wanted(FileKind::Json, json));
  };
  // key tables (G7 evidence.cpp config(), G10 surfaces.cpp configs(), query/layout.cpp config_layout())
  for (const char* t : {"arch-list-variables", "nvfp4-env", "tp-config-keys", "layout-keys"})
    for (const std::string& name : knowledge::table(t).values()) wanted(nested(name, "2"));
  // "VAR=..." in a list (G7 config()), values (G7 nvfp4_word())
  for (const std::string& name : knowledge::table("arch-list-variables").values())
    wanted(R"({"env": [")" + name + R"(=12.1"]})");
  for (const std::string& v : knowledge::table("nvfp4-quant-values").values()) wanted(R"({"quantization": ")" + v + "\"}");
  wanted(R"({"model": "nvidia/Llama-3.1-8B-Instruct-FP4"})");
  wanted(R"({"model": "org/qwen3-8b-NVFP4"})");
  // keys the readers spell in code (G2 fa2_in_config() / llamafactory_unsloth(), G10 gpu_sharing())
  for (const char* k : {"attn_implementation", "_attn_implementation", "flash_attention", "flash_attn"})
    wanted(std::string("{\"") + k + "\": \"flash_attention_2\"}");
  wanted(R"({"sharing": {"timeSlicing": {"resources": []}}})");
  // pattern tables: every pattern holds its json-triggers word (it cannot match without it)
  for (const auto& e : knowledge::table("json-triggers").entries) {
    if (e.get("covers").empty()) continue;
    for (const auto& p : knowledge::table(e.get("covers")).entries) {
      INFO(e.get("covers") << ": " << p.get("pattern") << " must hold " << e.get("name"));
      CHECK(holds_word(p.get("pattern"), e.get("name")));
    }
  }
}

TEST_CASE("prefilter: a key word of letters only counts as a name, not as a word of prose", "[prefilter]") {
  Prefilter on(true);
  // dataset files: prose that holds sharing / devices / replicas
  CHECK_FALSE(on.wanted(FileKind::Json, R"([{"text": "GPU sharing across devices and replicas"}])"));
  CHECK_FALSE(on.wanted(FileKind::Json, R"([{"text": "profit-sharing, multi-devices, over-replicas"}])"));
  CHECK(on.wanted(FileKind::Json, R"({"cmd": "run -devices 2"})"));
  CHECK(on.wanted(FileKind::Json, R"(["-sharing"])"));
  CHECK_FALSE(on.wanted(FileKind::Json, R"([{"text": "she said \"Sharing is caring\""}])"));
  // the same words as keys, a dotted key's part, a flag or an override in a command string
  CHECK(on.wanted(FileKind::Json, R"({"sharing": {"mps": {}}})"));
  CHECK(on.wanted(FileKind::Json, R"({"cmd": "python train.py trainer.devices=2"})"));
  CHECK(on.wanted(FileKind::Json, R"({"cmd": "torchrun --nnodes 2 train.py"})"));
  // words with _ or - count anywhere (a flag inside a command string)
  CHECK(on.wanted(FileKind::Json, R"({"launch": "vllm serve m --tensor-parallel-size 2"})"));
}

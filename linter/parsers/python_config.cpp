// SPDX-License-Identifier: Apache-2.0
// Python configs as config entries: a call to a `...Config` (or `Owner.Config`) class with literal keyword
// values (TrainingConfig(...), GRPOConfig(...), ParallelismConfig(...)), and a call given
// as a keyword value of one (JobConfig(parallelism=Parallelism(...))), yield the entries a
// YAML file of the same settings would:
//   ParallelismConfig(tensor_parallel_degree=2)             -> parallelism.tensor_parallel_degree = 2
//   JobConfig(parallelism=Parallelism(data_parallel_shard_degree=4)) -> job.parallelism.data_parallel_shard_degree = 4
// The section is the class name without "Config", in snake case. Values that are not
// literals (variables, calls, dicts) give no entry.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "core/registry.h"

namespace sc {
namespace {

// The class a call builds: "a.b.GRPOConfig" -> "GRPOConfig"; the nested-class style
// "Controller.Config" -> "ControllerConfig" (torchtitan's configs).
std::string last_name(const std::string& callee) {
  size_t dot = callee.rfind('.');
  if (dot == std::string::npos) return callee;
  std::string last = callee.substr(dot + 1);
  if (last != "Config" || dot == 0) return last;
  size_t prev = callee.rfind('.', dot - 1);
  std::string owner = callee.substr(prev == std::string::npos ? 0 : prev + 1, dot - (prev == std::string::npos ? 0 : prev + 1));
  return owner + last;
}

bool config_class(const std::string& name) {
  return name.size() > 6 && ends_with(name, "Config") && std::isupper(static_cast<unsigned char>(name[0]));
}

// "GRPOConfig" -> "grpo", "ParallelismConfig" -> "parallelism", "LoRAConfig" -> "lora".
std::string section_of(const std::string& cls) {
  std::string base = cls.substr(0, cls.size() - 6), out;
  for (size_t i = 0; i < base.size(); ++i) {
    char c = base[i];
    bool upper = std::isupper(static_cast<unsigned char>(c));
    auto low = [&](size_t k) { return k < base.size() && std::islower(static_cast<unsigned char>(base[k])); };
    bool word_start = upper && i > 0 && (low(i - 1) || (!low(i - 1) && low(i + 1)));
    if (word_start) out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool before(const Range& a, const Range& b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

std::string scalar_text(const PyArg& a) {
  if (a.kind == "true") return "true";
  if (a.kind == "false") return "false";
  return a.literal;
}

bool scalar_kind(const PyArg& a) {
  return a.is_literal && !a.keyword.empty() && a.keyword[0] != '*' &&
         (a.kind == "string" || a.kind == "integer" || a.kind == "float" || a.kind == "true" || a.kind == "false");
}

// The section path of every config call: its own class name, or the path of the config call
// whose keyword argument it is the value of, plus that keyword. Calls are taken in source
// order, so an enclosing call always comes first; a value is found by where it ends.
std::vector<std::optional<std::vector<std::string>>> config_paths(const std::vector<PyCall>& calls) {
  std::map<std::pair<int, int>, std::vector<size_t>> by_end;
  std::vector<size_t> order(calls.size());
  for (size_t i = 0; i < calls.size(); ++i) {
    by_end[{calls[i].loc.range.end_line, calls[i].loc.range.end_col}].push_back(i);
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return before(calls[x].loc.range, calls[y].loc.range); });
  std::vector<std::optional<std::vector<std::string>>> paths(calls.size());
  for (size_t i : order) {
    std::string cls = last_name(calls[i].callee);
    if (!paths[i] && config_class(cls)) paths[i] = std::vector<std::string>{section_of(cls)};
    if (!paths[i] || paths[i]->size() > 8) continue;
    for (const PyArg& a : calls[i].args) {
      if (a.keyword.empty() || a.keyword[0] == '*' || a.is_literal) continue;
      auto it = by_end.find({a.loc.range.end_line, a.loc.range.end_col});
      if (it == by_end.end()) continue;
      for (size_t j : it->second)
        if (j != i && before(a.loc.range, calls[j].loc.range)) {
          paths[j] = *paths[i];
          paths[j]->push_back(a.keyword);
        }
    }
  }
  return paths;
}

void emit(const PyCall& c, const std::vector<std::string>& path, std::vector<ConfigEntry>& out) {
  for (const PyArg& a : c.args) {
    if (!scalar_kind(a)) continue;
    ConfigEntry e;
    KeyPath::Parts parts = path;
    parts.push_back(a.keyword);
    e.path = parts;
    e.value = scalar_text(a);
    e.key_loc = a.loc;
    e.value_loc = a.loc;
    out.push_back(std::move(e));
  }
}

void python_configs(FileFacts& f) {
  if ((f.kind != FileKind::Python && f.kind != FileKind::Notebook) || f.python.calls.empty()) return;
  auto paths = config_paths(f.python.calls);
  for (size_t i = 0; i < paths.size(); ++i)
    if (paths[i]) emit(f.python.calls[i], *paths[i], f.config.edit());
}

}  // namespace

SPARKCHECK_POST_PARSE(python_configs);

}  // namespace sc

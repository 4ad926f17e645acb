// Python configs as config entries: a call to a `...Config` class with literal keyword
// values (TrainingConfig(...), GRPOConfig(...), ParallelismConfig(...)), and a call given
// as a keyword value of one (JobConfig(parallelism=Parallelism(...))), yield the entries a
// YAML file of the same settings would:
//   ParallelismConfig(tensor_parallel_degree=2)             -> parallelism.tensor_parallel_degree = 2
//   JobConfig(parallelism=Parallelism(data_parallel_shard_degree=4)) -> job.parallelism.data_parallel_shard_degree = 4
// The section is the class name without "Config", in snake case. Values that are not
// literals (variables, calls, dicts) give no entry.
#include <cctype>

#include "core/registry.h"

namespace sc {
namespace {

std::string last_name(const std::string& callee) {
  size_t dot = callee.rfind('.');
  return dot == std::string::npos ? callee : callee.substr(dot + 1);
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

bool inside(const Range& in, const Range& out) {
  auto le = [](int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
  return le(out.line, out.col, in.line, in.col) && le(in.end_line, in.end_col, out.end_line, out.end_col);
}

std::string scalar_text(const PyArg& a) {
  if (a.kind == "true") return "true";
  if (a.kind == "false") return "false";
  return a.literal;
}

bool scalar_kind(const PyArg& a) {
  return a.is_literal && !a.keyword.empty() && a.keyword[0] != '*' &&
         (a.kind == "string" || a.kind == "integer" || a.kind == "float" || a.kind == "true" || a.kind == "false");
}

class ConfigCalls {
 public:
  explicit ConfigCalls(const std::vector<PyCall>& calls) : calls_(calls), paths_(calls.size()), done_(calls.size()) {}

  void emit(std::vector<ConfigEntry>& out) {
    for (size_t i = 0; i < calls_.size(); ++i) {
      const std::vector<std::string>* path = path_of(i, 0);
      if (!path) continue;
      for (const PyArg& a : calls_[i].args) {
        if (!scalar_kind(a)) continue;
        ConfigEntry e;
        e.path = *path;
        e.path.push_back(a.keyword);
        e.value = scalar_text(a);
        e.key_loc = a.loc;
        e.value_loc = a.loc;
        out.push_back(std::move(e));
      }
    }
  }

 private:
  const std::vector<PyCall>& calls_;
  std::vector<std::vector<std::string>> paths_;
  std::vector<int> done_;  // 0 not yet, 1 a config, 2 not a config

  // The section path of call `i` when it is a config (its own class, or the keyword value
  // of a config call), else null.
  const std::vector<std::string>* path_of(size_t i, int depth) {
    if (done_[i]) return done_[i] == 1 ? &paths_[i] : nullptr;
    done_[i] = 2;
    std::vector<std::string> path;
    if (depth < 8) path = enclosing(i, depth);
    std::string cls = last_name(calls_[i].callee);
    if (path.empty() && !config_class(cls)) return nullptr;
    if (path.empty()) path.push_back(section_of(cls));
    paths_[i] = std::move(path);
    done_[i] = 1;
    return &paths_[i];
  }

  // The path of the config call whose keyword argument holds call `i`, plus that keyword.
  std::vector<std::string> enclosing(size_t i, int depth) {
    const Location& at = calls_[i].loc;
    for (size_t j = 0; j < calls_.size(); ++j) {
      if (j == i || calls_[j].loc.path != at.path) continue;
      for (const PyArg& a : calls_[j].args) {
        if (a.keyword.empty() || a.keyword[0] == '*' || a.is_literal || !inside(at.range, a.loc.range)) continue;
        const std::vector<std::string>* outer = path_of(j, depth + 1);
        if (!outer) return {};
        std::vector<std::string> p = *outer;
        p.push_back(a.keyword);
        return p;
      }
    }
    return {};
  }
};

void python_configs(FileFacts& f) {
  if ((f.kind != FileKind::Python && f.kind != FileKind::Notebook) || f.python.calls.empty()) return;
  ConfigCalls(f.python.calls).emit(f.config);
}

}  // namespace

SPARKCHECK_POST_PARSE(python_configs);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Workload YAML read as more than config, recognised by content: SkyPilot task files
// (top-level `run:`/`setup:` beside `resources:`/`num_nodes:`/`envs:`...), whose shell
// blocks become Command facts with `envs:` known, `image_id: docker:IMAGE` an Image and
// `resources.accelerators` the labels of a CiJob spanning the file (the machine it asks for); Kubernetes manifests (`apiVersion:` and
// `kind:`), whose containers' `image:` becomes an Image fact and `command:` + `args:` a
// Command (`sh -c BODY` read as a script) with the container's `env:` known; launch recipes
// (spark-vllm-docker, sparkrun: top-level `command:` with `{key}` placeholders filled from
// `defaults:`, run inside the image `container:` names).
#include <cctype>
#include <map>
#include <set>

#include "parsers/config.h"
#include "parsers/embedded.h"

namespace sc {
namespace {

using Vars = std::map<std::string, std::string>;

void skypilot(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  static const std::set<std::string> task_keys = {"resources", "num_nodes", "envs", "workdir", "file_mounts"};
  bool task = false;
  std::vector<const ConfigEntry*> blocks;
  const ConfigEntry* image = nullptr;  // resources.image_id: docker:IMAGE
  CiJob job{"skypilot", "task", 1, src.line_count(), {}, true};
  Vars vars;
  for (const ConfigEntry& e : out.config) {
    if (e.document != 0 || e.path.empty()) continue;
    if (e.path.size() == 1 && task_keys.count(e.path[0])) task = true;
    if (e.path.size() == 1 && e.scalar && (e.path[0] == "setup" || e.path[0] == "run")) blocks.push_back(&e);
    if (e.path.size() == 2 && e.path[0] == "envs" && e.scalar) vars[e.path[1]] = e.value;
    if (e.path.size() == 2 && e.path[0] == "resources" && e.path[1] == "image_id" && starts_with(e.value, "docker:"))
      image = &e;
    if (e.path.size() >= 2 && e.path[0] == "resources" && e.path[1] == "accelerators" && e.scalar)
      job.labels.push_back(e.value);
  }
  if (!task) return;
  // the machine the task asks for, read like a CI runner (none named: any cloud GPU)
  if (!job.labels.empty()) out.ci_jobs.push_back(job);
  if (image) yaml_image(*image, image->value.substr(7), out);
  for (const ConfigEntry* b : blocks) embed_shell(src, b->value, yaml_scalar_map(src, *b), vars, CommandContext::Skypilot, out, diag);
}

struct Container {
  const ConfigEntry* image = nullptr;
  bool resources = false;  // `resources:` states limits or requests
  bool gpu = false;        // ... and they name a GPU (`nvidia.com/gpu: 1`)
  std::vector<const ConfigEntry*> command, args;
  std::map<std::string, std::string> env_names;  // "[i]" -> name
  std::map<std::string, std::string> env_values;  // "[i]" -> value
};

// The container a path belongs to: everything up to and including "containers", "[i]".
size_t container_end(const std::vector<std::string>& p) {
  for (size_t i = 0; i + 1 < p.size(); ++i)
    if ((p[i] == "containers" || p[i] == "initContainers") && starts_with(p[i + 1], "[")) return i + 2;
  return 0;
}

void container_entry(Container& c, const ConfigEntry& e, const std::vector<std::string>& rest) {
  if (!e.scalar || rest.empty()) return;
  const std::string& k = rest[0];
  if (k == "resources") {
    c.resources = true;
    for (const std::string& part : rest)
      if (part.find("gpu") != std::string::npos) c.gpu = true;
  }
  if (k == "image" && rest.size() == 1) c.image = &e;
  else if ((k == "command" || k == "args") && rest.size() == 2) (k == "command" ? c.command : c.args).push_back(&e);
  else if (k == "env" && rest.size() == 3 && rest[2] == "name") c.env_names[rest[1]] = e.value;
  else if (k == "env" && rest.size() == 3 && rest[2] == "value") c.env_values[rest[1]] = e.value;
}

// A container's image is a stage of its own (its index), and its command runs in it, as a
// compose service's does. A container whose resources name no GPU, in a pod without the
// NVIDIA runtime class, gets no GPU and runs no CUDA code (`no_gpu`).
void container(const SourceFile& src, const Container& c, bool gpu_runtime, FileFacts& out, ParseDiag& diag) {
  int stage = -1;
  if (c.image) {
    size_t n = out.images.size();
    yaml_image(*c.image, c.image->value, out);
    if (out.images.size() > n) {
      stage = static_cast<int>(n);
      out.images.edit().back().stage = stage;
      out.images.edit().back().no_gpu = c.resources && !c.gpu && !gpu_runtime;
    }
  }
  std::vector<const ConfigEntry*> items = c.command;
  items.insert(items.end(), c.args.begin(), c.args.end());
  if (items.empty() || (c.command.empty() && starts_with(items[0]->value, "-"))) return;
  Vars vars;
  for (const auto& [i, name] : c.env_names) vars[name] = c.env_values.count(i) ? c.env_values.at(i) : "";
  size_t first = out.commands.size();
  if (const ConfigEntry* body = yaml_argv(items, CommandContext::Kubernetes, out))
    embed_shell(src, body->value, yaml_scalar_map(src, *body), vars, CommandContext::Kubernetes, out, diag);
  for (size_t i = first; stage >= 0 && i < out.commands.size(); ++i) out.commands.edit()[i].stage = stage;
}

void kubernetes(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  std::set<int> manifests;
  std::map<std::string, Container> containers;  // "doc/path" -> container
  for (const ConfigEntry& e : out.config)
    if (e.path.size() == 1 && e.path[0] == "apiVersion") manifests.insert(e.document);
  for (const ConfigEntry& e : out.config) {
    size_t end = manifests.count(e.document) ? container_end(e.path) : 0;
    if (!end) continue;
    std::string key = std::to_string(e.document);
    for (size_t i = 0; i < end; ++i) key += "/" + e.path[i];
    container_entry(containers[key], e, std::vector<std::string>(e.path.begin() + static_cast<long>(end), e.path.end()));
  }
  std::set<int> gpu_runtime;  // documents with `runtimeClassName: nvidia`
  for (const ConfigEntry& e : out.config)
    if (!e.path.empty() && e.path.back() == "runtimeClassName" && e.value.find("nvidia") != std::string::npos)
      gpu_runtime.insert(e.document);
  for (auto& [key, c] : containers) container(src, c, gpu_runtime.count(std::stoi(key)) > 0, out, diag);
}

// `{key}` placeholders of a recipe word filled from `defaults:` (`{{` / `}}` are literal
// braces, as Python's str.format reads them). A word that is one placeholder moves to the
// default's value, the command's word related; a partly filled word stays in the command.
void fill_placeholders(Word& w, const std::map<std::string, const ConfigEntry*>& defaults, FileFacts& out) {
  if (w.text.find('{') == std::string::npos) return;
  std::string text;
  const ConfigEntry* alone = nullptr;
  std::set<const ConfigEntry*> related;  // one related place per default, however often used
  for (size_t i = 0; i < w.text.size(); ++i) {
    char c = w.text[i];
    if ((c == '{' || c == '}') && i + 1 < w.text.size() && w.text[i + 1] == c) {
      text += c, ++i;
      continue;
    }
    size_t close = i + 1;  // `{name}`: a name of letters, digits and `_` (linear on hostile words)
    while (c == '{' && close < w.text.size() && (std::isalnum(static_cast<unsigned char>(w.text[close])) || w.text[close] == '_')) ++close;
    bool named = c == '{' && close > i + 1 && close < w.text.size() && w.text[close] == '}';
    auto it = named ? defaults.find(w.text.substr(i + 1, close - i - 1)) : defaults.end();
    if (it == defaults.end()) {
      text += c;
      continue;
    }
    text += it->second->value;
    if (i == 0 && close + 1 == w.text.size()) alone = it->second;
    else if (related.insert(it->second).second) out.expansions.edit().push_back({w.loc, it->second->value_loc, "set in defaults (" + it->first + ": " + it->second->value + ")"});
    i = close;
  }
  w.text = text;
  if (!alone) return;
  out.expansions.edit().push_back({alone->value_loc, w.loc, "used here ({" + alone->path.parts().back() + "})"});
  w.loc = alone->value_loc;
}

struct Recipe {
  const ConfigEntry* command = nullptr;
  const ConfigEntry* container = nullptr;  // `container: IMAGE`: the command runs in it
  std::map<std::string, const ConfigEntry*> defaults;
  Vars env;
  bool solo = false;
};

// The keys of a launch recipe (its first document).
Recipe recipe_keys(const FileFacts& f) {
  Recipe r;
  for (const ConfigEntry& e : f.config) {
    if (e.document != 0 || !e.scalar || e.path.empty() || e.path.size() > 2) continue;
    const std::string& top = e.path[0];
    if (e.path.size() == 1 && top == "command") r.command = &e;
    else if (e.path.size() == 1 && top == "container") r.container = &e;
    else if (e.path.size() == 1 && top == "solo_only") r.solo = lower(e.value) == "true";
    else if (e.path.size() == 2 && top == "defaults" && !starts_with(e.path[1], "[")) r.defaults[e.path[1]] = &e;  // not Hydra's list
    else if (e.path.size() == 2 && top == "env") r.env[e.path[1]] = e.value;
  }
  return r;
}

void launch_recipe(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  Recipe r = recipe_keys(out);
  if (!r.command || r.defaults.empty() || !out.commands.empty()) return;
  if (r.solo) r.defaults.erase("tensor_parallel");  // one node: the runner sets tensor_parallel to 1
  std::string text = r.command->value;  // the runner appends its own flags after a last `\`
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (!text.empty() && text.back() == '\\') text.pop_back();
  int stage = -1;  // the recipe's container is a stage of its own, as a compose service's image
  if (r.container) {
    size_t n = out.images.size();
    yaml_image(*r.container, r.container->value, out);
    if (out.images.size() > n) out.images.edit().back().stage = stage = static_cast<int>(n);
  }
  embed_shell(src, text, yaml_scalar_map(src, *r.command), r.env, CommandContext::Script, out, diag);
  for (Command& c : out.commands.edit()) {
    for (Word& w : c.argv) fill_placeholders(w, r.defaults, out);
    if (stage >= 0) c.stage = stage;
  }
}

}  // namespace

void yaml_workloads(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  skypilot(src, out, diag);
  kubernetes(src, out, diag);
  launch_recipe(src, out, diag);
}

}  // namespace sc

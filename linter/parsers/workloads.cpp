// SPDX-License-Identifier: Apache-2.0
// Workload YAML read as more than config, recognised by content: SkyPilot task files
// (top-level `run:`/`setup:` beside `resources:`/`num_nodes:`/`envs:`...), whose shell
// blocks become Command facts with `envs:` known, `image_id: docker:IMAGE` an Image and
// `resources.accelerators` the labels of a CiJob spanning the file (the machine it asks for); Kubernetes manifests (`apiVersion:` and
// `kind:`), whose containers' `image:` becomes an Image fact and `command:` + `args:` a
// Command (`sh -c BODY` read as a script) with the container's `env:` known.
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
  if (k == "image" && rest.size() == 1) c.image = &e;
  else if ((k == "command" || k == "args") && rest.size() == 2) (k == "command" ? c.command : c.args).push_back(&e);
  else if (k == "env" && rest.size() == 3 && rest[2] == "name") c.env_names[rest[1]] = e.value;
  else if (k == "env" && rest.size() == 3 && rest[2] == "value") c.env_values[rest[1]] = e.value;
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
  for (auto& [key, c] : containers) {
    if (c.image) yaml_image(*c.image, c.image->value, out);
    std::vector<const ConfigEntry*> items = c.command;
    items.insert(items.end(), c.args.begin(), c.args.end());
    if (items.empty() || (c.command.empty() && starts_with(items[0]->value, "-"))) continue;
    Vars vars;
    for (const auto& [i, name] : c.env_names) vars[name] = c.env_values[i];
    if (const ConfigEntry* body = yaml_argv(items, CommandContext::Kubernetes, out))
      embed_shell(src, body->value, yaml_scalar_map(src, *body), vars, CommandContext::Kubernetes, out, diag);
  }
}

}  // namespace

void yaml_workloads(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  skypilot(src, out, diag);
  kubernetes(src, out, diag);
}

}  // namespace sc

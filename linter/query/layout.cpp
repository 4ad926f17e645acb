#include "query/layout.h"

#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/config.h"

namespace sc::query {
namespace {

using knowledge::Entry;

// A count: "2", or "1:2" (elastic torchrun: the maximum); nullopt when unknown.
std::optional<IntAt> count_flag(const Command& c, const Entry& e) {
  auto w = flag_word(c, e.list("flags"));
  if (!w || !w->resolved) return std::nullopt;
  std::string t = w->text;
  if (size_t k = t.find(':'); k != std::string::npos) t = t.substr(k + 1);
  auto v = int_literal(t);
  if (!v) return std::nullopt;
  return IntAt{*v, w->loc};
}

// #SBATCH --gres=gpu:N or gpu:type:N
std::optional<IntAt> gres_gpus(const Command& c, const Entry& e) {
  auto w = flag_word(c, e.list("flags"));
  if (!w || !starts_with(w->text, "gpu:")) return std::nullopt;
  auto v = int_literal(w->text.substr(w->text.rfind(':') + 1));
  if (!v) return std::nullopt;
  return IntAt{*v, w->loc};
}

// accelerate: processes are the total over all machines (one machine when unstated).
void set_accelerate(Layout& l, const std::optional<IntAt>& machines, const std::optional<IntAt>& procs) {
  if (machines) l.set_nodes(machines->value, machines->loc);
  if (!procs || procs->value <= 0) return;
  long m = machines ? machines->value : 0;
  l.set_per_node(m > 0 ? procs->value / m : procs->value, procs->loc);
}

// One launcher's flags (in table order), applied to the layout.
void launcher_flags(const Command& c, std::string_view launcher, Layout& l) {
  std::optional<IntAt> machines, procs;
  for (const Entry& e : knowledge::table("layout-flags").entries) {
    if (e.get("launcher") != launcher) continue;
    const std::string& role = e.get("role");
    auto v = role == "single_node" ? std::nullopt : count_flag(c, e);
    if (role == "single_node" && l.nodes < 0 && has_any_flag(c, e.list("flags"))) l.nodes = 1;
    if (!v) continue;
    if (role == "nodes" && launcher == "accelerate") machines = v;
    else if (role == "processes") procs = v;
    else if (role == "nodes") l.set_nodes(v->value, v->loc);
    else if (role == "per_node") l.set_per_node(v->value, v->loc);
  }
  if (launcher == "accelerate") set_accelerate(l, machines, procs);
}

// Hydra overrides trainer.num_nodes=2 / trainer.devices=1 on any command.
void override_keys(const Command& c, Layout& l) {
  for (const Entry& e : knowledge::table("layout-keys").entries) {
    const std::string& role = e.get("role");
    if (role != "nodes" && role != "per_node") continue;
    for (const auto& [key, w] : overrides(c, e.get("name"))) {
      auto v = int_literal(w->text.substr(w->text.find('=') + 1));
      if (!v) continue;
      if (role == "nodes") l.set_nodes(*v, w->loc);
      else l.set_per_node(*v, w->loc);
      break;
    }
  }
}

std::vector<std::string> keys_for(std::string_view role) {
  std::vector<std::string> keys;
  for (const Entry& e : knowledge::table("layout-keys").entries)
    if (e.get("role") == role) keys.push_back(e.get("name"));
  return keys;
}

}  // namespace

Layout command_layout(const Command& c) {
  Layout l;
  for (const char* launcher : {"torchrun", "accelerate", "deepspeed"})
    if (runs(c, launcher)) launcher_flags(c, launcher, l);
  override_keys(c, l);
  return l;
}

Layout sbatch_layout(const std::vector<Command>& sbatch) {
  Layout l;
  const auto& flags = knowledge::table("layout-flags");
  for (const auto& c : sbatch)
    for (const char* name : {"sbatch-nodes", "sbatch-gpus-per-node", "sbatch-gres"}) {
      const Entry* e = flags.find(name);
      auto v = e->get("role") == "gres" ? gres_gpus(c, *e) : count_flag(c, *e);
      if (!v) continue;
      if (e->get("role") == "nodes") l.set_nodes(v->value, v->loc);
      else l.set_per_node(v->value, v->loc);
    }
  // tasks per node: the GPU count when nothing else states it
  for (const auto& c : sbatch)
    if (auto v = count_flag(c, *flags.find("sbatch-tasks-per-node"))) l.set_per_node(v->value, v->loc);
  return l;
}

Layout config_layout(const std::vector<ConfigEntry>& cfg) {
  Layout l;
  auto machines = config_int(cfg, keys_for("machines"));
  if (machines && machines->value <= 0) machines.reset();
  set_accelerate(l, machines, config_int(cfg, keys_for("processes")));
  if (auto n = config_int(cfg, keys_for("nodes"))) l.set_nodes(n->value, n->loc);
  if (auto d = config_int(cfg, keys_for("per_node"))) l.set_per_node(d->value, d->loc);
  return l;
}

bool project_multi_gpu_nodes(const Project& p) {
  bool many = false, one = false;
  auto note = [&](int per_node) {
    if (per_node > 1) many = true;
    else if (per_node == 1) one = true;
  };
  for (const auto& f : p.files) {
    const FileFacts& ff = f->facts;
    for (const auto& c : ff.commands) note(command_layout(c).per_node);
    note(sbatch_layout(ff.sbatch).per_node);
    note(config_layout(ff.config).per_node);
  }
  return many && !one;
}

}  // namespace sc::query

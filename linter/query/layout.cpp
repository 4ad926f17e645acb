// SPDX-License-Identifier: Apache-2.0
#include "query/layout.h"
#include "core/path_names.h"

#include <algorithm>
#include <bitset>
#include <set>
#include <unordered_set>

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

// Could an unknown word of `c` hold flags? (`$DIST_ARGS`, not the value after a flag)
bool may_hide_flags(const Command& c) {
  for (size_t i = 1; i < c.argv.size(); ++i)
    if (!c.argv[i].resolved && !starts_with(c.argv[i - 1].text, "-")) return true;
  return false;
}

// Does `c` give every `--flag=value` of `pairs` (as `--flag value` or `--flag=value`)?
bool gives_all(const Command& c, const std::vector<std::string>& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [&](const std::string& pair) {
    size_t eq = pair.find('=');
    std::string flag = pair.substr(0, eq), value = eq == std::string::npos ? "" : pair.substr(eq + 1);
    for (size_t i = 1; i < c.argv.size(); ++i) {
      const std::string& a = c.argv[i].text;
      if (a == pair || (a == flag && i + 1 < c.argv.size() && c.argv[i + 1].text == value)) return true;
    }
    return false;
  });
}

// The launcher's own value for an absent flag (torchrun: one node), where nothing else sets it
// and the command gives what the default needs (`default_with`: vLLM's mp backend).
void flag_default(const Command& c, const Entry& e, Layout& l) {
  bool scheduled = c.context == CommandContext::Kubernetes || c.context == CommandContext::Skypilot ||
                   c.context == CommandContext::Sbatch;
  if (e.get("default").empty() || scheduled || has_any_flag(c, e.list("flags")) || may_hide_flags(c) ||
      !gives_all(c, e.list("default_with")))
    return;
  if (auto v = int_literal(e.get("default")); v && e.get("role") == "nodes" && l.nodes < 0) l.nodes = static_cast<int>(*v);
}

// One launcher's flags (in table order), applied to the layout.
void launcher_flags(const Command& c, std::string_view launcher, Layout& l) {
  std::optional<IntAt> machines, procs;
  for (const Entry* flag : knowledge::table("layout-flags").find_all(launcher, "launcher")) {
    const Entry& e = *flag;
    const std::string& role = e.get("role");
    auto v = role == "single_node" ? std::nullopt : count_flag(c, e);
    if (role == "single_node" && l.nodes < 0 && has_any_flag(c, e.list("flags"))) l.nodes = 1;
    if (!v) flag_default(c, e, l);
    if (!v) continue;
    if (role == "nodes" && launcher == "accelerate") machines = v;
    else if (role == "processes") procs = v;
    else if (role == "nodes") l.set_nodes(v->value, v->loc);
    else if (role == "per_node") l.set_per_node(v->value, v->loc);
  }
  if (launcher == "accelerate") set_accelerate(l, machines, procs);
}

// layout-keys read once into plain fields: config_layout asks them of every config entry.
struct LayoutKey {
  const Entry* entry;
  std::string name, parent, file, role;
  bool by_key, shared_count;
  bool below;  // also names the keys inside it (accelerators: {H100: 8})
};

const std::vector<LayoutKey>& layout_keys() {
  static const std::vector<LayoutKey> keys = [] {
    std::vector<LayoutKey> v;
    for (const Entry& e : knowledge::table("layout-keys").entries)
      v.push_back({&e, e.get("name"), e.get("parent"), e.get("file"), e.get("role"), e.get("match") == "key",
                   !e.get("shared_count").empty(), e.get("role") == "accelerators"});
    return v;
  }();
  return keys;
}

// Hydra overrides trainer.num_nodes=2 / trainer.n_gpus_per_node=1 on any command.
void override_keys(const Command& c, Layout& l) {
  for (const LayoutKey& k : layout_keys()) {
    const std::string& role = k.role;
    if ((role != "nodes" && role != "per_node") || !k.file.empty()) continue;
    for (const auto& [key, w] : overrides(c, k.name)) {
      auto v = int_literal(w->text.substr(w->text.find('=') + 1));
      if (!v) continue;
      if (role == "nodes") l.set_nodes(*v, w->loc);
      else l.set_per_node(*v, w->loc);
      break;
    }
  }
}

// The launchers whose flags layout-flags spells (not #SBATCH), in table order.
const std::vector<std::string>& flag_launchers() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Entry& e : knowledge::table("layout-flags").entries) {
      const std::string& l = e.get("launcher");
      if (l != "sbatch" && std::find(v.begin(), v.end(), l) == v.end()) v.push_back(l);
    }
    return v;
  }();
  return names;
}

// ---- config files -----------------------------------------------------------------

bool listed(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The workload-files kinds a config file is (a SkyPilot task, a Kubernetes manifest).
std::set<std::string> file_kinds(const std::vector<ConfigEntry>& cfg) {
  std::set<std::string> kinds;
  for (const Entry& k : knowledge::table("workload-files").entries) {
    std::set<int> any, with;
    for (const auto& e : cfg) {
      if (e.path.size() != 1) continue;
      if (listed(k.list("any"), e.path[0])) any.insert(e.document);
      if (listed(k.list("with"), e.path[0])) with.insert(e.document);
    }
    for (int d : any)
      if (with.count(d)) kinds.insert(k.get("name"));
  }
  return kinds;
}

// The last keys a layout-keys entry can name: its key, or any tail of its dotted name (dotted
// paths end with the entry's key). Most config entries end in none and are passed over.
struct KeyTails {
  std::unordered_set<std::string_view> tails;
  std::bitset<256> last_chars;  // of the tails: most keys are passed over without hashing
};

const KeyTails& key_tails() {
  static const KeyTails kt = [] {
    KeyTails t;
    for (const LayoutKey& k : layout_keys())
      for (size_t i = 0; i <= k.name.size(); ++i)
        if (i == 0 || !k.by_key) t.tails.insert(std::string_view(k.name).substr(i));
    for (std::string_view tail : t.tails)
      if (!tail.empty()) t.last_chars.set(static_cast<unsigned char>(tail.back()));
    return t;
  }();
  return kt;
}

// Could some layout-keys entry name this config entry?
bool may_be_layout_key(const ConfigEntry& e) {
  const KeyTails& kt = key_tails();
  const std::string& key = e.key();
  bool tail = key.empty() || kt.last_chars[static_cast<unsigned char>(key.back())];
  if (!e.path.empty() && tail && kt.tails.count(key)) return true;
  for (const LayoutKey& k : layout_keys())
    if (k.below && dotted_is(e, k.name, true)) return true;
  return false;
}

// Does the layout-keys entry `k` name this config entry?
bool names_entry(const LayoutKey& k, const ConfigEntry& e) {
  if (!k.by_key) return dotted_is(e, k.name, k.below);
  size_t n = e.path.size();
  return n > 0 && e.path[n - 1] == k.name && (k.parent.empty() || (n >= 2 && e.path[n - 2] == k.parent));
}

// The workload-files kinds of a config file, worked out at the first question.
class FileKinds {
 public:
  explicit FileKinds(const std::vector<ConfigEntry>& cfg) : cfg_(cfg) {}
  bool has(const std::string& kind) {
    if (!kinds_) kinds_ = file_kinds(cfg_);
    return kinds_->count(kind) > 0;
  }

 private:
  const std::vector<ConfigEntry>& cfg_;
  std::optional<std::set<std::string>> kinds_;
};

// The layout-keys entry describing a config entry, or null.
const Entry* layout_key(const ConfigEntry& e, FileKinds& kinds, bool shared_gpus) {
  if (!may_be_layout_key(e)) return nullptr;
  for (const LayoutKey& k : layout_keys()) {
    if (shared_gpus && k.shared_count) continue;
    if (names_entry(k, e) && (k.file.empty() || kinds.has(k.file))) return k.entry;
  }
  return nullptr;
}

// SkyPilot accelerators: "H100:8" -> 8, "H100" -> 1, {H100: 8} -> 8, [H100:8, ...] -> the first.
std::optional<long> accelerator_count(const ConfigEntry& e) {
  if (!e.scalar || e.value.empty()) return std::nullopt;
  bool map_form = e.path.size() >= 3 && !starts_with(e.key(), "[");
  if (map_form) return int_literal(e.value);
  size_t colon = e.value.rfind(':');
  return colon == std::string::npos ? std::optional<long>(1) : int_literal(e.value.substr(colon + 1));
}

// The first value of each role in file order; replicas summed (capped: hostile input).
struct RoleValues {
  std::optional<IntAt> machines, processes, nodes, per_node, replicas;
  std::optional<IntAt>& slot(const std::string& role) {
    if (role == "machines") return machines;
    if (role == "processes") return processes;
    if (role == "nodes") return nodes;
    return per_node;
  }
  void take(const ConfigEntry& e, const std::string& role) {
    auto v = role == "accelerators" ? accelerator_count(e) : entry_int(e);
    if (!v || *v < 0) return;
    if (role != "replicas") {
      if (!slot(role)) slot(role) = IntAt{*v, e.value_loc};
      return;
    }
    if (!replicas) replicas = IntAt{0, e.value_loc};
    replicas->value = std::min(replicas->value + *v, 1L << 30);
  }
};

// One environment variable of table layout-env, applied to the layout.
void env_value(const std::string& name, const std::string& value, const Location& at, Layout& l) {
  const Entry* e = knowledge::table("layout-env").find(name);
  if (!e) return;
  const std::string& role = e->get("role");
  if (role == "devices") {
    long n = value.empty() ? 0 : static_cast<long>(split(value, ',').size());
    if (n > 1 && value.find('$') == std::string::npos) l.set_per_node(n, at);
    return;
  }
  auto v = int_literal(value);
  if (!v) return;
  if (role == "nodes") l.set_nodes(*v, at);
  else l.set_per_node(*v, at);
}

}  // namespace

Layout command_layout(const Command& c) {
  Layout l;
  for (const std::string& launcher : flag_launchers())
    if (runs(c, launcher)) launcher_flags(c, launcher, l);
  override_keys(c, l);
  for (const auto& [name, w] : c.env)
    if (w.resolved) env_value(name, w.text, w.loc, l);
  return l;
}

Layout env_layout(const std::vector<EnvSetting>& env) {
  Layout l;
  for (const EnvSetting& e : env) env_value(e.name, e.value, e.loc, l);
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

Layout config_layout(const std::vector<ConfigEntry>& cfg, bool shared_gpus) {
  Layout l;
  if (cfg.empty()) return l;
  FileKinds kinds(cfg);
  RoleValues r;
  for (const auto& e : cfg)
    if (const Entry* k = e.scalar ? layout_key(e, kinds, shared_gpus) : nullptr) r.take(e, k->get("role"));
  if (r.machines && r.machines->value <= 0) r.machines.reset();
  set_accelerate(l, r.machines, r.processes);
  if (r.nodes) l.set_nodes(r.nodes->value, r.nodes->loc);
  if (r.per_node) l.set_per_node(r.per_node->value, r.per_node->loc);
  if (r.replicas) l.set_nodes(r.replicas->value, r.replicas->loc);
  return l;
}

// ---- launchers tied to a file ------------------------------------------------------

namespace {

std::string folder_of(const std::string& path) {
  size_t k = path.rfind('/');
  return k == std::string::npos ? "" : path.substr(0, k);
}

// The file a word names, as a path tail: "--config_file=./configs/a.yaml" -> "configs/a.yaml",
// "${ROOT}/ds.json" -> "ds.json"; "" when it names no file (no extension).
std::string named_path(const std::string& word) {
  std::string t = word.substr(word.rfind('=') == std::string::npos ? 0 : word.rfind('=') + 1);
  std::vector<std::string> keep;
  for (const std::string& seg : split(t, '/')) {
    if (seg.find('$') != std::string::npos || seg.find('{') != std::string::npos) keep.clear();
    else if (!seg.empty() && seg != "." && seg != "..") keep.push_back(seg);
  }
  if (keep.empty() || keep.back().find('.') == std::string::npos) return "";
  std::string r;
  for (const auto& seg : keep) r += (r.empty() ? "" : "/") + seg;
  return r;
}

std::string stem_of(const std::string& display) {
  std::string base = base_name(display);
  return base.substr(0, base.find('.'));
}

// Files a command names, and its Hydra --config-name.
void command_refs(const Command& c, std::vector<std::string>& paths, std::vector<std::string>& stems) {
  for (size_t i = 0; i < c.argv.size(); ++i) {
    const std::string& t = c.argv[i].text;
    if (std::string p = named_path(t); !p.empty()) paths.push_back(p);
    if (starts_with(t, "--config-name=")) stems.push_back(stem_of(t.substr(14)));
    else if (t == "--config-name" && i + 1 < c.argv.size()) stems.push_back(stem_of(c.argv[i + 1].text));
  }
}

}  // namespace

bool gpu_sharing(const Project& p) {
  for (const auto& f : p.files)
    for (const auto& e : f->facts->config)
      for (size_t i = 1; i < e.path.size(); ++i)
        if (e.path[i - 1] == std::string_view("sharing") && knowledge::in("gpu-sharing", e.path[i])) return true;
  return false;
}

void TiedLaunchers::add(Index& ix, const std::string& key, Flags f) {
  Flags& g = ix[key];
  g.many = g.many || f.many;
  g.one = g.one || f.one;
}

void TiedLaunchers::tie(const Index& ix, const std::string& key, Flags& f) {
  if (auto it = ix.find(key); it != ix.end()) {
    f.many = f.many || it->second.many;
    f.one = f.one || it->second.one;
  }
}

TiedLaunchers::TiedLaunchers(const Project& p, bool shared_gpus) {
  for (const auto& f : p.files) {
    const FileFacts& ff = *f->facts;
    Flags l;
    auto note = [&](int per_node) {
      l.many = l.many || per_node > 1;
      l.one = l.one || per_node == 1;
    };
    for (const auto& c : ff.commands) note(command_layout(c).per_node);
    note(sbatch_layout(ff.sbatch).per_node);
    note(config_layout(ff.config, shared_gpus).per_node);
    note(env_layout(ff.env).per_node);
    if (!l.many && !l.one) continue;
    std::vector<std::string> paths, stems;
    for (const auto& c : ff.commands) command_refs(c, paths, stems);
    for (const auto& e : ff.config)
      if (std::string r = e.scalar ? named_path(e.value) : ""; !r.empty()) paths.push_back(r);
    add(by_dir_, folder_of(f->src.path()), l);
    for (const auto& t : paths) add(by_path_, t, l);
    for (const auto& s : stems) add(by_stem_, s, l);
  }
}

// A launcher names `f` when one of its tails is f's path or ends it after a '/'.
bool TiedLaunchers::multi_gpu_nodes(const ParsedFile& f) const {
  const std::string& path = f.src.path();
  Flags t;
  tie(by_dir_, folder_of(path), t);
  tie(by_stem_, stem_of(path), t);
  tie(by_path_, path, t);
  for (size_t k = path.find('/'); k != std::string::npos; k = path.find('/', k + 1))
    tie(by_path_, path.substr(k + 1), t);
  return t.many && !t.one;
}

}  // namespace sc::query

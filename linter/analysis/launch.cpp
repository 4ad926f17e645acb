#include "analysis/launch.h"

#include <cctype>

namespace sc {

std::optional<long> int_literal(std::string_view s) {
  std::string t = trim(s);
  if (!t.empty() && t[0] == '+') t = t.substr(1);
  if (t.empty() || t.size() > 9) return std::nullopt;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::stol(t);
}

std::string prog_base(std::string_view w) {
  size_t k = w.rfind('/');
  return std::string(k == std::string_view::npos ? w : w.substr(k + 1));
}

int find_program(const Command& c, std::initializer_list<std::string_view> progs, size_t from) {
  for (size_t i = from; i < c.argv.size(); ++i) {
    std::string b = prog_base(c.argv[i].text);
    for (auto p : progs)
      if (b == p) return static_cast<int>(i);
  }
  return -1;
}

int find_module(const Command& c, std::initializer_list<std::string_view> modules) {
  for (size_t i = 0; i + 1 < c.argv.size(); ++i) {
    if (c.argv[i].text != "-m") continue;
    for (auto m : modules)
      if (starts_with(c.argv[i + 1].text, m)) return static_cast<int>(i + 1);
  }
  return -1;
}

bool is_test_path(std::string_view path) {
  std::string p = "/" + std::string(path);
  if (p.find("/tests/") != std::string::npos || p.find("/test/") != std::string::npos) return true;
  std::string base = prog_base(p);
  return (starts_with(base, "test_") && ends_with(base, ".py")) || ends_with(base, "_test.py") ||
         base == "conftest.py";
}

namespace {

// "2", "1:2" (elastic torchrun: the maximum), else -1 (unknown/unresolved)
int count_of(const std::optional<Word>& w) {
  if (!w || !w->resolved) return -1;
  std::string t = w->text;
  if (size_t k = t.find(':'); k != std::string::npos) t = t.substr(k + 1);
  auto v = int_literal(t);
  return v ? static_cast<int>(*v) : -1;
}

// Hydra-style override "trainer.devices=8" anywhere in argv.
int override_value(const Command& c, std::string_view key, Location& where) {
  for (const auto& w : c.argv) {
    if (!w.resolved) continue;
    size_t eq = w.text.find('=');
    if (eq == std::string::npos) continue;
    std::string k = w.text.substr(0, eq);
    if (starts_with(k, "+")) k = k.substr(1);
    if (k == key || ends_with(k, "." + std::string(key))) {
      if (auto v = int_literal(w.text.substr(eq + 1))) {
        where = w.loc;
        return static_cast<int>(*v);
      }
    }
  }
  return -1;
}

void set(int& field, Location& where, int v, const Location& at) {
  if (v < 0 || field >= 0) return;
  field = v;
  if (!where.range.valid()) where = at;
}

}  // namespace

Layout command_layout(const Command& c) {
  Layout l;
  auto take = [&](int& field, std::initializer_list<std::string_view> names) {
    auto w = flag_value(c, names);
    if (w) set(field, l.where, count_of(w), w->loc);
  };
  bool torchrun = find_program(c, {"torchrun"}) >= 0 ||
                  find_module(c, {"torch.distributed.run", "torch.distributed.launch"}) >= 0;
  bool accelerate = find_program(c, {"accelerate"}) >= 0;
  bool deepspeed = find_program(c, {"deepspeed"}) >= 0;
  if (torchrun) {
    take(l.nodes, {"--nnodes"});
    take(l.per_node, {"--nproc-per-node", "--nproc_per_node"});
    if (l.nodes < 0 && has_flag(c, {"--standalone"})) l.nodes = 1;
  }
  if (accelerate) {
    int machines = -1, procs = -1;
    Location wm, wp;
    if (auto w = flag_value(c, {"--num_machines", "--num-machines"})) { machines = count_of(w); wm = w->loc; }
    if (auto w = flag_value(c, {"--num_processes", "--num-processes"})) { procs = count_of(w); wp = w->loc; }
    set(l.nodes, l.where, machines, wm);
    if (procs > 0 && machines > 0) set(l.per_node, l.where, procs / machines, wp);
    else if (procs > 0 && machines < 0) set(l.per_node, l.where, procs, wp);  // default: one machine
  }
  if (deepspeed) {
    take(l.nodes, {"--num_nodes", "--num-nodes"});
    take(l.per_node, {"--num_gpus", "--num-gpus"});
  }
  Location w;
  set(l.nodes, l.where, override_value(c, "trainer.num_nodes", w), w);
  set(l.per_node, l.where, override_value(c, "trainer.devices", w), w);
  return l;
}

Layout sbatch_layout(const std::vector<Command>& sbatch) {
  Layout l;
  for (const auto& c : sbatch) {
    if (auto w = flag_value(c, {"--nodes", "-N"})) set(l.nodes, l.where, count_of(w), w->loc);
    if (auto w = flag_value(c, {"--gpus-per-node"})) set(l.per_node, l.where, count_of(w), w->loc);
    if (auto w = flag_value(c, {"--gres"})) {
      // gpu:N or gpu:type:N
      std::string t = w->text;
      if (starts_with(t, "gpu:")) {
        size_t k = t.rfind(':');
        auto v = int_literal(t.substr(k + 1));
        if (v) set(l.per_node, l.where, static_cast<int>(*v), w->loc);
      }
    }
  }
  for (const auto& c : sbatch)
    if (auto w = flag_value(c, {"--ntasks-per-node"})) set(l.per_node, l.where, count_of(w), w->loc);
  return l;
}

Layout merge(const Layout& a, const Layout& b) {
  Layout r = a;
  if (r.nodes < 0) r.nodes = b.nodes;
  if (r.per_node < 0) r.per_node = b.per_node;
  if (!r.where.range.valid()) r.where = b.where;
  return r;
}

namespace {

long config_int(const std::vector<ConfigEntry>& cfg, std::initializer_list<std::string_view> dotted) {
  for (const auto& e : cfg) {
    if (!e.scalar) continue;
    std::string d = e.dotted();
    for (auto k : dotted)
      if (d == k)
        if (auto v = int_literal(e.value)) return *v;
  }
  return -1;
}

}  // namespace

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
    // accelerate config: num_processes is the total over num_machines
    long machines = config_int(ff.config, {"num_machines"});
    long procs = config_int(ff.config, {"num_processes"});
    if (procs > 0) note(static_cast<int>(machines > 0 ? procs / machines : procs));
    long devices = config_int(ff.config, {"trainer.devices"});
    if (devices > 0) note(static_cast<int>(devices));
  }
  return many && !one;
}

}  // namespace sc

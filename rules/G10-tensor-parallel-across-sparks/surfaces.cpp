// SPDX-License-Identifier: Apache-2.0
#include "rules/G10-tensor-parallel-across-sparks/surfaces.h"
#include "core/path_names.h"

#include <algorithm>
#include <optional>
#include <limits>

#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/config.h"
#include "query/layout.h"
#include "query/python.h"

namespace sc::g10 {
namespace {

using knowledge::Entry;
using knowledge::table;

Use use_of(const Entry& e) {
  const std::string& u = e.get("use");
  return u == "inference" ? Use::Inference : u == "rollout" ? Use::Rollout : Use::Training;
}

// A hit whose use (training / inference / rollout) a knowledge entry gives.
Hit& add(Hits& out, const Entry& e, long tp, const Location& at, std::string surface, const Layout& lay, long world) {
  out.list.push_back({use_of(e), tp, at, std::move(surface), lay, world});
  return out.list.back();
}

// "NeMo/Megatron {dotted}" with {dotted} replaced.
std::string fill(std::string text, std::string_view field, const std::string& value) {
  std::string mark = "{" + std::string(field) + "}";
  if (size_t k = text.find(mark); k != std::string::npos) text.replace(k, mark.size(), value);
  return text;
}

// a x b for GPU counts (both >= 0), saturating instead of overflowing on hostile input.
long mul(long a, long b) { return b != 0 && a > std::numeric_limits<long>::max() / b ? std::numeric_limits<long>::max() : a * b; }

long times_if_parallel(long acc, std::optional<long> v) { return v && *v > 1 ? mul(acc, *v) : acc; }

// ---- launch lines: flags and Hydra overrides ----------------------------------

// Product of the degrees > 1 that the flags of `tbl` state on the line.
long flag_degrees(const Command& c, std::string_view tbl) {
  long product = 1;
  for (const Entry& e : table(tbl).entries)
    if (auto v = query::int_flag(c, e.list("flags"))) product = times_if_parallel(product, v->value);
  return product;
}

// PP x CP x DP on the line (flags and `model.pipeline_model_parallel_size=2` overrides).
long line_degrees(const Command& c) {
  static const std::vector<std::string> assigned = [] {  // "key="
    std::vector<std::string> v = table("degree-overrides").values();
    for (std::string& key : v) key += '=';
    return v;
  }();
  long product = flag_degrees(c, "degree-flags");
  for (const auto& w : c.argv)
    for (const std::string& key_eq : assigned) {
      if (!w.resolved || starts_with(w.text, "-") || w.text.find(key_eq) == std::string::npos) continue;
      product = times_if_parallel(product, int_literal(w.text.substr(w.text.find('=') + 1)));
    }
  return product;
}

bool launcher_fits(const Command& c, const Entry& e) {
  return e.get("launcher").empty() || query::runs(c, e.get("launcher"));
}

// A flag that names tensor parallelism in full (`--tensor-parallel-size`), not a short one
// (`--tp`, `-tp`) that other programs use too.
bool full_name(const std::string& flag) { return flag.find("parallel") != std::string::npos; }

// `vllm serve --tensor-parallel-size 2`, Megatron `--tensor-model-parallel-size 2`, ...
// `others`: line_degrees(c). Without a known program (an argument list held in a variable),
// only flags named in full count, whatever launcher they belong to.
void tp_flags(const Command& c, const Layout& lay, long others, Hits& out, bool program_known = true) {
  long expert = flag_degrees(c, "expert-flags");
  for (const Entry& e : table("tp-flags").entries) {
    std::vector<std::string> flags = e.list("flags");
    if (!program_known) flags.erase(std::remove_if(flags.begin(), flags.end(), [](const std::string& f) { return !full_name(f); }), flags.end());
    if (flags.empty() || !query::may_have_flag(c, flags) || (program_known && !launcher_fits(c, e))) continue;
    auto v = query::int_flag(c, flags, &out.bad);
    if (!v || v->value <= 1) continue;
    Hit& h = add(out, e, v->value, v->loc, e.get("name"), lay, std::max(mul(v->value, others), expert));
    if (query::mentions(c, e.list("inference_words"))) h.use = Use::Inference;
  }
}

// Hydra overrides: NeMo / Megatron-Bridge `model.tensor_model_parallel_size=2`, verl
// `actor_rollout_ref.rollout.tensor_model_parallel_size=2`. The first entry that matches a word wins.
void tp_overrides(const Command& c, const Layout& lay, long others, Hits& out) {
  std::vector<const Word*> seen;
  for (const Entry& e : table("tp-overrides").entries)
    for (const auto& [key, w] : query::overrides(c, e.get("name"))) {
      if (std::count(seen.begin(), seen.end(), w)) continue;
      seen.push_back(w);
      auto v = query::int_text(w->text.substr(w->text.find('=') + 1), w->loc, &out.bad);
      bool training = use_of(e) == Use::Training;
      if (v && *v > 1) add(out, e, *v, w->loc, e.get("surface") + " " + key, lay, training ? mul(*v, others) : *v);
    }
}

void commands(const Command& c, const Layout& file_layout, Hits& out) {
  if (c.argv.empty()) return;
  Layout lay = merge(query::command_layout(c), file_layout);
  long others = line_degrees(c);
  tp_flags(c, lay, others, out);
  tp_overrides(c, lay, others, out);
}

// ---- config files ---------------------------------------------------------------

bool is_axolotl(const std::vector<ConfigEntry>& cfg) {
  auto top = query::top_keys(cfg);
  const Entry& e = *table("axolotl-config").find("axolotl");
  auto has = [&](const std::string& k) { return top.count(k) > 0; };
  const auto &any = e.list("any"), &all = e.list("all");
  return std::any_of(any.begin(), any.end(), has) || std::all_of(all.begin(), all.end(), has);
}

struct Degrees {
  long others = 1, expert = 1;  // PP x DP x CP; EP x expert-TP
  long beside = 0;              // GPUs of workers beside the trainer (RL generators)
};

// The other training degrees in a file, and the GPUs its other workers take.
Degrees config_degrees(const std::vector<ConfigEntry>& cfg) {
  Degrees d;
  for (const auto& e : cfg) {
    if (e.path.size() >= 2 && knowledge::in("server-sections", e.path[0])) continue;
    if (knowledge::in("workers-beside-trainer", e.key())) {
      if (auto v = query::entry_int(e); v && *v > 0) d.beside = std::max(d.beside, *v);  // one GPU each, at least
      continue;
    }
    const Entry* k = table("degree-config-keys").find(e.key());
    if (!k) continue;
    long& acc = k->get("expert").empty() ? d.others : d.expert;
    acc = times_if_parallel(acc, query::entry_int(e));
  }
  return d;
}

// The section a key sits in; for a top-level key, the file's folder (a Hydra config group:
// verl's rollout/rollout.yaml is merged under `rollout`).
std::string section_of(const ConfigEntry& e, const std::string& folder) {
  return e.path.size() == 1 ? folder : query::parent_key(e);
}

// The first tp-config-keys entry that describes this config entry, or null. `axolotl` (is
// the file an axolotl config?) is worked out at the first entry with a dialect.
const Entry* tp_key(const ConfigEntry& e, const std::vector<ConfigEntry>& cfg, std::optional<bool>& axolotl,
                    const std::string& folder) {
  for (const Entry* key : table("tp-config-keys").find_all(e.key())) {
    const Entry& k = *key;
    if (!k.get("parent").empty() && k.get("parent") != section_of(e, folder)) continue;
    if (!k.get("top_level").empty() && e.path.size() != 1) continue;
    const std::string& dialect = k.get("dialect");
    if (!dialect.empty() && !axolotl) axolotl = is_axolotl(cfg);
    if (!dialect.empty() && (dialect == "axolotl") != *axolotl) continue;
    return &k;
  }
  return nullptr;
}

void configs(const std::vector<ConfigEntry>& cfg, const std::string& folder, bool shared_gpus, Hits& out) {
  if (cfg.empty()) return;
  std::optional<bool> axolotl;
  std::optional<Layout> lay;  // with the degrees, worked out at the first tensor-parallel key
  Degrees d;
  for (const auto& e : cfg) {
    const Entry* k = e.scalar && !e.path.empty() ? tp_key(e, cfg, axolotl, folder) : nullptr;
    auto v = k ? query::entry_int(e, &out.bad) : std::nullopt;
    if (!v || *v <= 1) continue;
    if (!lay) lay = query::config_layout(cfg, shared_gpus), d = config_degrees(cfg);
    std::string surface = fill(fill(k->get("surface"), "dotted", e.dotted()), "key", e.key());
    bool training = k->get("use") == "training";
    long trainer = std::max(mul(*v, d.others), d.expert);
    long world = !training ? *v : trainer > std::numeric_limits<long>::max() - d.beside ? trainer : trainer + d.beside;
    add(out, *k, *v, e.value_loc, surface, *lay, world);
  }
}

// ---- Python ---------------------------------------------------------------------

std::optional<long> literal_int(const PyArg* a, query::Unreadable* bad = nullptr) {
  return a && a->is_literal ? query::int_text(a->literal, a->loc, bad) : std::nullopt;
}

// LLM(tensor_parallel_size=2), sglang.Engine(tp_size=2), TransformerConfig(tensor_model_parallel_size=2)
void tp_kwargs(const PyCall& c, Hits& out) {
  if (std::none_of(c.args.begin(), c.args.end(), [](const PyArg& a) { return !a.keyword.empty(); })) return;
  long others = 1;
  static const std::vector<std::string> degree_kwargs = table("degree-kwargs").values();
  for (const std::string& k : degree_kwargs)
    others = times_if_parallel(others, literal_int(query::kwarg(c, k)));
  std::vector<std::string> tried;
  for (const Entry& e : table("tp-kwargs").entries) {
    const std::string& name = e.get("name");
    if (!query::kwarg(c, name)) continue;  // (cheap first: then no entry of this name can hit)
    if (!query::call_matches(c, e) || std::count(tried.begin(), tried.end(), name)) continue;
    tried.push_back(name);
    const PyArg* a = query::kwarg(c, name);
    if (!a || a->kind != "integer") continue;
    auto v = literal_int(a, &out.bad);
    if (v && *v > 1) add(out, e, *v, a->loc, fill(e.get("surface"), "callee", query::callee_name(c)), {}, mul(*v, others));
  }
}

// init_device_mesh("cuda", (dp, tp), mesh_dim_names=("dp", "tp"))
void device_mesh(const PyCall& c, const Entry& mesh, Hits& out) {
  const PyArg* names = query::kwarg(c, mesh.get("names_keyword"));
  const PyArg* shape = query::kwarg(c, mesh.get("shape_keyword"));
  if (!shape) shape = query::positional(c, static_cast<size_t>(mesh.number("shape_position", 1)));
  if (!names || !shape || !names->is_literal || names->kind != "tuple" || shape->kind != "tuple") return;
  if (names->items.size() != shape->items.size()) return;
  long world = 1;  // -1 when a dimension is not a literal
  for (const auto& it : shape->items) {
    auto v = int_literal(it);
    world = v && world >= 0 ? mul(world, *v) : -1;
  }
  for (size_t i = 0; i < names->items.size(); ++i) {
    auto v = names->items[i] == mesh.get("tp_dim") ? int_literal(shape->items[i]) : std::nullopt;
    if (v && *v > 1) out.list.push_back({Use::Training, *v, shape->loc, mesh.get("name") + " dimension \"" + mesh.get("tp_dim") + "\"", {}, world});
  }
}

// recipe.trainer.strategy.tensor_model_parallel_size = 2 (NeMo 2 recipes)
void tp_attributes(const PythonFacts& py, Hits& out) {
  for (const auto& a : py.assigns)
    for (const Entry& e : table("tp-attributes").entries) {
      if (!a.is_literal || !ends_with(a.target, "." + e.get("name"))) continue;
      auto v = query::int_text(a.value, a.loc, &out.bad);
      if (v && *v > 1) out.list.push_back({Use::Training, *v, a.loc, e.get("surface") + " " + a.target, {}, *v});
    }
}

void python(const PythonFacts& py, Hits& out) {
  for (const auto& c : py.calls) {
    tp_kwargs(c, out);
    if (const Entry* mesh = table("device-meshes").find(query::callee_name(c))) device_mesh(c, *mesh, out);
  }
  tp_attributes(py, out);
}

}  // namespace

Hits tp_surfaces(const ParsedFile& f, bool shared_gpus) {
  const FileFacts& ff = *f.facts;
  Hits hits;
  // #SBATCH lines, the SkyPilot / Kubernetes keys around a run block, exported NNODES...
  if (std::any_of(ff.commands.begin(), ff.commands.end(), [](const Command& c) { return !c.argv.empty(); })) {
    Layout file_layout = merge(merge(query::sbatch_layout(ff.sbatch), query::config_layout(ff.config, shared_gpus)), query::env_layout(ff.env));
    for (const auto& c : ff.commands) {
      auto run = query::entrypoint_launch(ff, c);  // `docker run vllm/vllm-openai --tp 2`
      commands(run ? *run : c, file_layout, hits);
    }
  }
  std::string dir = f.src.path().str().substr(0, f.src.path().str().rfind('/') == std::string::npos ? 0 : f.src.path().str().rfind('/'));
  python(ff.python, hits);  // first: a call's own wording wins over the config entry it also yields
  configs(ff.config, base_name(dir), shared_gpus, hits);
  return hits;
}

// Argument lists held in variables (`ENGINE_ARGS=( ... --tensor-parallel-size 2 ... )`) whose
// sizes no command of the project was judged at: their launch is not read (a settings file
// loaded through a path built at run time, a heredoc, an `ssh "..."` string, `docker run "$IMAGE"`).
void arg_list_hits(const ParsedFile& f, Judged& judged, Hits& out) {
  const FileFacts& ff = *f.facts;
  if (ff.arg_lists.empty()) return;
  Layout file_layout = merge(query::sbatch_layout(ff.sbatch), query::env_layout(ff.env));
  for (const Command& c : ff.arg_lists) {
    Hits mine;
    tp_flags(c, merge(query::command_layout(c), file_layout), line_degrees(c), mine, false);
    for (Hit& h : mine.list)
      if (judged.add(h.loc)) out.list.push_back(std::move(h));
    for (Location& l : mine.bad.places) out.bad.places.push_back(std::move(l));
  }
}

}  // namespace sc::g10

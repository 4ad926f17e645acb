// G10: tensor parallelism > 1 on DGX Sparks (one GPU each) always crosses the
// ConnectX-7 link. Training -> error (use FSDP/DDP); inference -> note.
#include <algorithm>
#include <set>

#include "analysis/launch.h"
#include "analysis/project.h"
#include "core/registry.h"

namespace sc {
namespace {

enum class Use { Training, Inference };

struct Hit {
  Use use;
  long tp;
  Location loc;
  std::string surface;  // "Megatron --tensor-model-parallel-size"
  Layout layout;        // what the surface itself says about nodes
  long world = -1;      // GPUs the surface's parallel degrees need (TP x PP x DP x CP), -1 unknown
};

class TensorParallelRule : public Rule {
 public:
  std::string_view id() const override { return "G10"; }

  void check(const Project& p, Reporter& out) const override {
    bool multi_gpu_project = project_multi_gpu_nodes(p);
    for (const auto& f : p.files) {
      if (is_test_path(f->src.path())) continue;
      std::vector<Hit> hits;
      const FileFacts& ff = f->facts;
      Layout file_layout = sbatch_layout(ff.sbatch);
      for (const auto& c : ff.commands) commands(c, file_layout, hits);
      configs(ff.config, hits);
      python(ff.python, hits);
      for (auto& h : hits) report(h, multi_gpu_project, out);
    }
  }

 private:
  static void report(const Hit& h, bool multi_gpu_project, Reporter& out) {
    // A launch that puts several GPUs on one node, or runs on one node, is a
    // multi-GPU server, not a pair of Sparks: TP stays inside the machine.
    if (h.layout.per_node > 1 || h.layout.nodes == 1) return;
    long world = std::max(h.world, h.tp);
    // N nodes but more GPUs than nodes: several GPUs per node
    if (h.layout.nodes >= 2 && h.layout.per_node < 0 && world > h.layout.nodes) return;
    if (!h.layout.known()) {
      // Degrees that need more than the two GPUs of a Spark pair: written for a
      // multi-GPU server or cluster (on two Sparks it could not even start).
      if (world > 2) return;
      if (multi_gpu_project) return;
    }
    Finding f;
    f.rule = "G10";
    f.loc = h.loc;
    std::string tp = std::to_string(h.tp);
    std::string where = h.layout.nodes >= 2 ? " on " + std::to_string(h.layout.nodes) + " nodes" : "";
    if (h.use == Use::Training) {
      f.level = Level::Error;
      f.message = "tensor parallelism " + tp + " (" + h.surface + ") in training" + where +
                  ": a DGX Spark has one GPU, so every tensor-parallel all-reduce crosses the ConnectX-7 link "
                  "between machines; NVIDIA's dual-Spark fine-tuning recipe keeps TP at 1 and shards with FSDP";
      f.fix = "set the tensor-parallel size to 1 and use FSDP/DDP across the Sparks (e.g. "
              "parallelism_config_dp_shard_size: 2), or pipeline parallelism";
    } else {
      f.level = Level::Note;
      f.message = "tensor-parallel size " + tp + " (" + h.surface + ") spans " +
                  (h.layout.nodes >= 2 ? std::to_string(h.layout.nodes) : std::string("two or more")) +
                  " Sparks (one GPU each): NVIDIA's vLLM and TensorRT-LLM playbooks do serve with TP=2 over two "
                  "Sparks, but field reports are mixed (hangs in vllm-project/vllm#41725 and #42354, slow "
                  "prefill), and vLLM advises pipeline parallelism between nodes without NVLink";
      f.fix = "if serving hangs or prefill is slow, try tensor-parallel 1 with pipeline-parallel 2 across the two Sparks";
    }
    if (h.layout.where.range.valid())
      f.related.push_back({h.layout.where, "node layout stated here"});
    out.report(std::move(f));
  }

  // ---- shell / Dockerfile / notebook commands --------------------------------
  static void commands(const Command& c, const Layout& file_layout, std::vector<Hit>& hits) {
    if (c.argv.empty()) return;
    Layout lay = merge(command_layout(c), file_layout);
    long others = 1;  // the other parallel degrees on the same command line
    for (auto flags : {std::initializer_list<std::string_view>{"--pipeline-model-parallel-size", "--pipeline_model_parallel_size"},
                       {"--context-parallel-size", "--context_parallel_size"},
                       {"--pipeline-parallel-size", "--pipeline_parallel_size", "-pp", "--pp-size", "--pp_size", "--pp"},
                       {"--data-parallel-size", "--data_parallel_size", "-dp", "--dp-size", "--dp"},
                       {"--parallelism.pipeline_parallel_degree"}, {"--parallelism.data_parallel_shard_degree"},
                       {"--parallelism.data_parallel_replicate_degree"}, {"--parallelism.context_parallel_degree"},
                       {"--parallelism_config_dp_shard_size"}, {"--parallelism_config_dp_replicate_size"},
                       {"--parallelism_config_cp_size"}}) {
      auto w = flag_value(c, flags);
      if (w && w->resolved)
        if (auto v = int_literal(w->text); v && *v > 1) others *= *v;
    }
    for (const auto& w : c.argv)
      for (const char* k : {"pipeline_model_parallel_size=", "context_parallel_size="})
        if (w.resolved && w.text.find(k) != std::string::npos && !starts_with(w.text, "-"))
          if (auto v = int_literal(w.text.substr(w.text.find('=') + 1)); v && *v > 1) others *= *v;
    // Expert parallelism: EP x expert-TP x PP GPUs at least
    long expert = 1;
    for (auto flags : {std::initializer_list<std::string_view>{"--expert-model-parallel-size", "--expert_model_parallel_size", "--ep-size", "--ep_size"},
                       {"--expert-tensor-parallel-size", "--expert_tensor_parallel_size"},
                       {"--pipeline-model-parallel-size", "--pipeline_model_parallel_size"}}) {
      auto w = flag_value(c, flags);
      if (w && w->resolved)
        if (auto v = int_literal(w->text); v && *v > 1) expert *= *v;
    }
    auto add = [&](Use u, std::initializer_list<std::string_view> flags, const std::string& surface) {
      auto w = flag_value(c, flags);
      if (!w || !w->resolved) return;
      auto v = int_literal(w->text);
      if (v && *v > 1) hits.push_back({u, *v, w->loc, surface, lay, std::max(*v * others, expert)});
    };
    // Inference servers
    bool vllm = false;
    if (int i = find_program(c, {"vllm"}); i >= 0 && i + 1 < static_cast<int>(c.argv.size()) &&
                                           c.argv[i + 1].text == "serve")
      vllm = true;
    if (find_module(c, {"vllm.entrypoints"}) >= 0) vllm = true;
    if (vllm) add(Use::Inference, {"--tensor-parallel-size", "--tensor_parallel_size", "-tp"}, "vLLM --tensor-parallel-size");
    bool sglang = find_module(c, {"sglang.launch_server", "sglang.bench"}) >= 0;
    if (int i = find_program(c, {"sglang"}); i >= 0 && i + 1 < static_cast<int>(c.argv.size()) &&
                                             (c.argv[i + 1].text == "serve" || c.argv[i + 1].text == "launch_server"))
      sglang = true;
    if (sglang) add(Use::Inference, {"--tp-size", "--tp", "--tp_size"}, "SGLang --tp-size");
    if (find_program(c, {"trtllm-serve", "trtllm-bench", "trtllm-build", "trtllm-llmapi-launch"}) >= 0)
      add(Use::Inference, {"--tp_size", "--tp"}, "TensorRT-LLM --tp_size");
    if (int i = find_program(c, {"trl"}); i >= 0 && i + 1 < static_cast<int>(c.argv.size())) {
      if (c.argv[i + 1].text == "vllm-serve")
        add(Use::Inference, {"--tensor_parallel_size", "--tensor-parallel-size"}, "trl vllm-serve --tensor_parallel_size");
      else
        add(Use::Inference, {"--vllm_tensor_parallel_size"}, "TRL --vllm_tensor_parallel_size");
    }
    // Training launchers and frameworks
    // Megatron's flags also drive its inference and text-generation servers
    bool megatron_inference = false;
    for (const auto& w : c.argv)
      if (w.resolved && (w.text.find("inference") != std::string::npos ||
                         w.text.find("text_generation") != std::string::npos))
        megatron_inference = true;
    add(megatron_inference ? Use::Inference : Use::Training,
        {"--tensor-model-parallel-size", "--tensor_model_parallel_size"}, "Megatron --tensor-model-parallel-size");
    add(Use::Training, {"--parallelism.tensor_parallel_degree", "--parallelism.tensor-parallel-degree"},
        "torchtitan --parallelism.tensor_parallel_degree");
    if (find_program(c, {"accelerate"}) >= 0) {
      add(Use::Training, {"--parallelism_config_tp_size"}, "accelerate --parallelism_config_tp_size");
      add(Use::Training, {"--megatron_lm_tp_degree"}, "accelerate --megatron_lm_tp_degree");
    }
    // Hydra overrides (NeMo / Megatron-Bridge): model.tensor_model_parallel_size=2
    for (const auto& w : c.argv) {
      if (!w.resolved) continue;
      size_t eq = w.text.find('=');
      if (eq == std::string::npos || starts_with(w.text, "-")) continue;
      std::string k = w.text.substr(0, eq);
      if (k == "tensor_model_parallel_size" || ends_with(k, ".tensor_model_parallel_size"))
        if (auto v = int_literal(w.text.substr(eq + 1)); v && *v > 1)
          hits.push_back({Use::Training, *v, w.loc, "NeMo " + k, lay, *v * others});
    }
  }

  // ---- YAML / JSON / TOML configs ---------------------------------------------
  static void configs(const std::vector<ConfigEntry>& cfg, std::vector<Hit>& hits) {
    if (cfg.empty()) return;
    std::set<std::string> top;
    for (const auto& e : cfg)
      if (e.path.size() == 1) top.insert(e.path[0]);
    bool axolotl = top.count("base_model") || (top.count("datasets") && top.count("micro_batch_size"));
    // This file's own layout: accelerate (num_machines, num_processes = total),
    // NeMo (trainer.num_nodes, trainer.devices).
    Layout lay;
    long machines = -1, procs = -1;
    Location mloc, ploc;
    for (const auto& e : cfg) {
      if (!e.scalar) continue;
      std::string d = e.dotted();
      auto v = int_literal(e.value);
      if (!v) continue;
      if (d == "num_machines") { machines = *v; mloc = e.value_loc; }
      if (d == "num_processes") { procs = *v; ploc = e.value_loc; }
      if (d == "trainer.num_nodes" && lay.nodes < 0) { lay.nodes = static_cast<int>(*v); lay.where = e.value_loc; }
      if (d == "trainer.devices" && lay.per_node < 0) { lay.per_node = static_cast<int>(*v); if (!lay.where.range.valid()) lay.where = e.value_loc; }
    }
    if (machines > 0) { lay.nodes = static_cast<int>(machines); lay.where = mloc; }
    if (procs > 0) {
      lay.per_node = static_cast<int>(machines > 0 ? procs / machines : procs);
      if (!lay.where.range.valid()) lay.where = ploc;
    }
    // The other training degrees in this file (their product with TP is the GPU count).
    static const std::set<std::string> degree_keys = {
        "parallelism_config_dp_shard_size", "parallelism_config_dp_replicate_size", "parallelism_config_cp_size",
        "megatron_lm_pp_degree", "pipeline_model_parallel_size", "context_parallel_size", "dp_shard_size",
        "dp_replicate_size", "sequence_parallel_degree", "pipeline_parallel_degree", "data_parallel_shard_degree",
        "data_parallel_replicate_degree", "context_parallel_degree"};
    long others = 1, expert = 1;
    for (const auto& e : cfg) {
      if (!e.scalar || (e.path.size() >= 2 && e.path[0] == "vllm")) continue;
      auto v = int_literal(e.value);
      if (!v || *v <= 1) continue;
      if (degree_keys.count(e.key())) others *= *v;
      if (e.key() == "expert_model_parallel_size" || e.key() == "expert_parallel_size" ||
          e.key() == "expert_tensor_parallel_size")
        expert *= *v;
    }
    for (const auto& e : cfg) {
      if (!e.scalar || e.path.empty()) continue;
      auto v = int_literal(e.value);
      if (!v || *v <= 1) continue;
      const std::string& k = e.key();
      std::string parent = e.path.size() >= 2 ? e.path[e.path.size() - 2] : "";
      std::string d = e.dotted();
      auto hit = [&](Use u, const std::string& surface) {
        hits.push_back({u, *v, e.value_loc, surface, lay, u == Use::Training ? std::max(*v * others, expert) : *v});
      };
      if (k == "parallelism_config_tp_size") hit(Use::Training, "accelerate parallelism_config_tp_size");
      else if (k == "megatron_lm_tp_degree") hit(Use::Training, "accelerate megatron_lm_tp_degree");
      else if (k == "autotp_size" && parent == "tensor_parallel") hit(Use::Training, "DeepSpeed tensor_parallel.autotp_size");
      else if (k == "tensor_model_parallel_size") hit(Use::Training, "NeMo/Megatron " + d);
      else if (k == "tensor_parallel_degree" && parent == "parallelism") hit(Use::Training, "torchtitan [parallelism] tensor_parallel_degree");
      else if (k == "vllm_tensor_parallel_size") hit(Use::Inference, "TRL vllm_tensor_parallel_size");
      else if (k == "tensor_parallel_size" && parent == "vllm") hit(Use::Inference, "axolotl vllm.tensor_parallel_size");
      else if (k == "tensor_parallel_size" && e.path.size() == 1 && axolotl) hit(Use::Training, "axolotl tensor_parallel_size");
      else if ((k == "tensor-parallel-size" || k == "tensor_parallel_size") && e.path.size() == 1 && !axolotl)
        hit(Use::Inference, "vLLM config " + k);
    }
  }

  // ---- Python -------------------------------------------------------------------
  static const PyArg* kwarg(const PyCall& c, std::string_view k) {
    for (const auto& a : c.args)
      if (a.keyword == k) return &a;
    return nullptr;
  }

  static void python(const PythonFacts& py, std::vector<Hit>& hits) {
    Layout none;
    for (const auto& c : py.calls) {
      const std::string& r = c.resolved;
      std::string last = r.substr(r.rfind('.') == std::string::npos ? 0 : r.rfind('.') + 1);
      long others = 1;  // other degrees in the same call
      for (const char* k : {"pipeline_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
                            "data_parallel_size", "pp_size", "dp_size", "dp_shard_size", "dp_replicate_size", "cp_size"})
        if (const PyArg* a = kwarg(c, k); a && a->is_literal)
          if (auto v = int_literal(a->literal); v && *v > 1) others *= *v;
      auto lit = [&](std::string_view k, Use u, const std::string& surface) {
        const PyArg* a = kwarg(c, k);
        if (!a || !a->is_literal || a->kind != "integer") return;
        auto v = int_literal(a->literal);
        if (v && *v > 1) hits.push_back({u, *v, a->loc, surface, none, *v * others});
      };
      bool from_vllm = starts_with(r, "vllm.");
      bool from_trt = starts_with(r, "tensorrt_llm.");
      if ((from_vllm || from_trt) && (last == "LLM" || last == "EngineArgs" || last == "AsyncEngineArgs"))
        lit("tensor_parallel_size", Use::Inference, (from_vllm ? "vLLM " : "TensorRT-LLM ") + last + "(tensor_parallel_size=)");
      if (starts_with(r, "sglang.") && last == "Engine") lit("tp_size", Use::Inference, "SGLang Engine(tp_size=)");
      if (starts_with(r, "trl.") || last == "GRPOConfig")
        lit("vllm_tensor_parallel_size", Use::Inference, "TRL " + last + "(vllm_tensor_parallel_size=)");
      if (starts_with(r, "accelerate.") && last == "ParallelismConfig")
        lit("tp_size", Use::Training, "accelerate ParallelismConfig(tp_size=)");
      // Megatron / NeMo configs and strategies: any call that sets the field
      // (argparse defaults declare a parameter; they configure nothing)
      if (last != "add_argument" && last != "set_defaults") lit("tensor_model_parallel_size", Use::Training, last + "(tensor_model_parallel_size=)");
      if (last == "init_device_mesh") device_mesh(c, hits);
    }
    // recipe.trainer.strategy.tensor_model_parallel_size = 2 (NeMo 2 recipes)
    for (const auto& a : py.assigns) {
      if (!ends_with(a.target, ".tensor_model_parallel_size") || !a.is_literal) continue;
      auto v = int_literal(a.value);
      if (v && *v > 1) hits.push_back({Use::Training, *v, a.loc, "NeMo " + a.target, none, *v});
    }
  }

  // init_device_mesh("cuda", (dp, tp), mesh_dim_names=("dp", "tp"))
  static void device_mesh(const PyCall& c, std::vector<Hit>& hits) {
    const PyArg* names = kwarg(c, "mesh_dim_names");
    const PyArg* shape = kwarg(c, "mesh_shape");
    if (!shape) {
      int pos = 0;
      for (const auto& a : c.args)
        if (a.keyword.empty() && pos++ == 1) shape = &a;
    }
    if (!names || !shape || !names->is_literal || names->kind != "tuple" || shape->kind != "tuple") return;
    if (names->items.size() != shape->items.size()) return;
    long world = 1;
    for (const auto& it : shape->items) {
      auto v = int_literal(it);
      if (!v) { world = -1; break; }
      world *= *v;
    }
    for (size_t i = 0; i < names->items.size(); ++i) {
      if (names->items[i] != "tp") continue;
      auto v = int_literal(shape->items[i]);
      if (v && *v > 1) hits.push_back({Use::Training, *v, shape->loc, "init_device_mesh dimension \"tp\"", Layout{}, world});
    }
  }
};

}  // namespace

SPARKCHECK_RULE(TensorParallelRule);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// G2: flash-attn on aarch64/sm_121 (bare pip), and Unsloth dropping an explicit
// attn_implementation request on its FastLlamaModel path.
#include <algorithm>

#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "knowledge/markers.h"
#include "query/finding.h"
#include "query/fix.h"
#include "query/packages.h"
#include "query/project.h"
#include "query/python.h"

namespace sc {
namespace {

using query::kwarg;

// NGC framework images that ship a flash-attn built for their GPUs.
bool ngc_with_flash_attn(const Image* im) {
  if (!im || im->ref.find('$') != std::string::npos || !is_ngc_framework_image(im->ref)) return false;
  return knowledge::in("ngc-repos-with-flash-attn", ngc_repo(im->ref));
}

// An image sparkcheck cannot judge here: unresolved ARG, or a non-CUDA (ROCm) image whose
// flash-attn is a different build altogether.
bool image_unknown(const Image* im) {
  return im && (im->ref.find('$') != std::string::npos || knowledge::table("non-cuda-images").match(lower(im->ref)));
}

bool is_flash_attn(const Requirement& r) { return knowledge::in("flash-attn-packages", r.name); }

// Model ids that FastLanguageModel sends to FastModel (which honours attn_implementation).
bool routes_to_fast_model(const std::string& model) {
  std::string m = lower(model);
  for (const std::string& x : knowledge::table("unsloth-fast-model-routes").values())
    if (m.find(x) != std::string::npos) return true;
  return false;
}

bool llama_path_class(const std::string& cls) { return knowledge::in("unsloth-llama-path-classes", cls); }

const std::string& flash_flag(std::string_view which) {
  return knowledge::table("unsloth-flash-flags").find(which)->get("attr");
}

bool before(const Location& a, const Location& b) {
  return a.range.line < b.range.line || (a.range.line == b.range.line && a.range.col < b.range.col);
}

const char* kDispatchNote =
    "unsloth.utils.attention_dispatch keeps its own copy of HAS_FLASH_ATTENTION (taken at import), so "
    "overriding unsloth.models._utils alone does not stop Unsloth's flash kernels";

class FlashAttnRule : public Rule {
 public:
  std::string_view id() const override { return "G2"; }

  void check(const Project& p, Reporter& out) const override {
    last_index_answer() = {};
    bool fa2_judged = !ngc_project(p) && !prebuilt_wheel(p);
    for (const auto& f : p.files) {
      flash_attn_installs(p, *f, out);
      if (p.skips_test(*f)) continue;
      unsloth(p, f->facts->python, out);
      if (fa2_judged) fa2_requests(*f, out);
      llamafactory_unsloth(f->facts->config, out);
    }
  }

 private:
  // A Dockerfile of the project builds on an NGC image that ships flash-attn.
  static bool ngc_project(const Project& p) {
    for (const auto& f : p.files)
      for (size_t s = 0; f->facts->kind == FileKind::Dockerfile && s < f->facts->images.size(); ++s)
        if (ngc_with_flash_attn(query::base_image(p, *f, static_cast<int>(s)))) return true;
    return false;
  }

  // The project installs a prebuilt aarch64 flash-attn wheel somewhere.
  static bool prebuilt_wheel(const Project& p) {
    for (const auto& name : knowledge::table("flash-attn-packages").values())
      for (const query::InstalledPackage& ip : query::installs_of(p, name))
        if (prebuilt_aarch64(*ip.req, *ip.member->install)) return true;
    return false;
  }

  static bool prebuilt_aarch64(const Requirement& r, const Install& in) {
    const auto& sources = knowledge::table("flash-attn-prebuilt-sources");
    if (sources.find("aarch64-wheel")->capture(lower(r.url + " " + r.raw))) return true;
    return prebuilt_index(in);
  }

  // A find-links page or an index chosen for flash-attn. Judged once per install (the last
  // one asked is kept): one command may name thousands of requirements and indexes.
  // Valid within one check() (which forgets it first): the project's installs stay put.
  struct LastIndexAnswer {
    const Install* install = nullptr;
    bool prebuilt = false;
  };
  static LastIndexAnswer& last_index_answer() {
    thread_local LastIndexAnswer a;
    return a;
  }
  static bool prebuilt_index(const Install& in) {
    LastIndexAnswer& last = last_index_answer();
    if (last.install == &in) return last.prebuilt;
    const auto& sources = knowledge::table("flash-attn-prebuilt-sources");
    bool found = std::any_of(in.indexes.begin(), in.indexes.end(), [&](const IndexUrl& ix) {
      return ix.role == IndexRole::FindLinks || sources.find("prebuilt-index")->capture(lower(ix.url)) ||
             query::own_wheel_index(ix);
    });
    last = {&in, found};
    return found;
  }

  // ---- (a) flash-attn installed with pip on aarch64 -----------------------------
  // A flash-attn requirement that pip would build from source on aarch64.
  static bool source_build(const ParsedFile& f, const Install& in, const Requirement& r) {
    if (query::conda_like(in.tool) || !is_flash_attn(r)) return false;  // conda-forge builds
    if (marker_false_on_spark(r.marker) || prebuilt_aarch64(r, in)) return false;
    // a wheel file is a binary: no source build (pip itself rejects a wrong-platform wheel)
    if (lower(r.url + " " + r.raw).find(".whl") != std::string::npos) return false;
    return !(in.tool == Installer::PyprojectDeps && optional_group(f, r));
  }

  static bool ships_or_unknown(const Image* im) { return ngc_with_flash_attn(im) || image_unknown(im); }

  // Where the install runs without a prebuilt flash-attn (related places into `rel`); false when
  // every environment it runs in ships one (or cannot be judged).
  static bool bare(const Project& p, const ParsedFile& f, const Install& in, std::vector<Related>& rel) {
    if (f.facts->kind == FileKind::Dockerfile) {
      const PkgEnv* env = query::env_of(p, in);
      const Image* im = env ? env->image : nullptr;
      if (ships_or_unknown(im)) return false;
      if (im) rel.push_back({im->loc, "base image without a prebuilt flash-attn"});
      return true;
    }
    if (in.tool != Installer::RequirementsFile && in.tool != Installer::PyprojectDeps) return true;
    bool any = false;
    for (const auto& ctx : query::where_installed(p, f)) {
      if (ctx.dockerfile && ships_or_unknown(ctx.image)) continue;
      any = true;
      if (ctx.via.range.valid()) rel.push_back({ctx.via, "installed here"});
    }
    return any;
  }

  static void flash_attn_installs(const Project& p, const ParsedFile& f, Reporter& out) {
    for (const auto& in : f.facts->installs)
      for (const auto& r : in.packages) {
        if (query::other_platform_install(p, f, in)) break;  // an H100 / macOS / ROCm section or image
        std::vector<Related> rel;
        if (!source_build(f, in, r) || !bare(p, f, in, rel)) continue;
        out.report(query::finding(
            Level::Warning, r.loc.range.valid() ? r.loc : in.loc,
            std::string(in.tool == Installer::PyprojectDeps ? "flash-attn is a required dependency, so installing the "
                                                              "project"
                                                            : "flash-attn installed with pip") +
                " is built from source on the Spark: there is no official linux_aarch64 wheel with sm_121 kernels "
                "(Dao-AILab/flash-attention#1969), so pip falls back to building the sdist, and such builds have "
                "failed with \"kernel built for sm80-sm100, but running on sm121\"",
            "drop flash-attn and use attn_implementation=\"sdpa\", use an NGC container that ships it "
            "(nvcr.io/nvidia/vllm, nvcr.io/nvidia/pytorch), or gate it with `; platform_machine == 'x86_64'`",
            std::move(rel)));
      }
  }

  static bool optional_group(const ParsedFile& f, const Requirement& r) {
    for (const auto& e : f.facts->config) {
      if (e.value_loc.range.line != r.loc.range.line) continue;
      std::string d = e.dotted();
      if (d.find("optional-dependencies") != std::string::npos || d.find("dependency-groups") != std::string::npos ||
          d.find("extras") != std::string::npos)
        return true;
    }
    return false;
  }

  // ---- (b) Unsloth FastLanguageModel + attn_implementation="sdpa" ----------------
  struct UnslothModule {
    bool imported = false, wildcard = false, uses_llama_path = false, dispatch_override = false;
  };

  static bool disables(const PyAssign& a, const std::string& flag) {
    return a.resolved == flag && a.is_literal && (a.value == "False" || a.value == "0" || a.value == "None");
  }

  static UnslothModule unsloth_module(const PythonFacts& py) {
    UnslothModule m;
    for (const auto& im : py.imports) {
      if (im.module == "unsloth" || starts_with(im.module, "unsloth.")) m.imported = true;
      if (im.module == "unsloth" && im.name == "*") m.wildcard = true;
      if (starts_with(im.module, "unsloth") && llama_path_class(im.name)) m.uses_llama_path = true;
    }
    for (const auto& a : py.assigns)
      if (disables(a, flash_flag("dispatch"))) m.dispatch_override = true;
    return m;
  }

  // The llama-path class whose from_pretrained `c` calls, or "".
  static std::string llama_entry(const PyCall& c, const UnslothModule& m) {
    std::string r = c.resolved;
    if (m.wildcard && r == c.callee && r.find('.') != std::string::npos && llama_path_class(r.substr(0, r.find('.'))))
      r = "unsloth." + r;
    if (!starts_with(r, "unsloth.") || !ends_with(r, ".from_pretrained")) return {};
    std::string cls = r.substr(0, r.size() - 16);
    cls = cls.substr(cls.rfind('.') + 1);
    return llama_path_class(cls) ? cls : std::string();
  }

  // FastLanguageModel with load_in_8bit / full_finetuning / qat_scheme set (or unknown) leaves the llama path.
  static bool other_route(const PyCall& c) {
    for (const std::string& k : knowledge::table("unsloth-route-kwargs").values()) {
      const PyArg* a = kwarg(c, k);
      if (!a) continue;
      if (!a->is_literal) return true;
      if (k == "qat_scheme" ? a->kind != "none" && a->kind != "false"
                            : a->kind == "true" || (a->kind == "integer" && a->literal != "0"))
        return true;
    }
    return false;
  }

  // The sdpa/eager request a llama-path call drops, or null.
  static const PyArg* dropped_request(const PyCall& c, const std::string& cls, const PythonFacts& py) {
    const PyArg* attn = kwarg(c, "attn_implementation");
    if (!attn || !attn->is_literal || attn->kind != "string") return nullptr;
    if (!knowledge::in("unsloth-honoured-requests", attn->literal)) return nullptr;
    if (kwarg(c, "**")) return nullptr;  // unknown keyword arguments may change the route
    if (cls == "FastLanguageModel" && other_route(c)) return nullptr;
    const PyArg* model = kwarg(c, "model_name");
    if (!model) model = query::positional(c, 0);
    if (model && model->is_literal && routes_to_fast_model(model->literal)) return nullptr;
    for (const auto& a : py.assigns)  // reported at the override when it is incomplete
      if (disables(a, flash_flag("utils")) && before(a.loc, c.loc)) return nullptr;
    return attn;
  }

  // FastLanguageModel.from_pretrained -> FastModel.from_pretrained, importing FastModel next to
  // FastLanguageModel when the file does not have it yet.
  static std::optional<Fix> fast_model_fix(const Project& p, const PyCall& c, const PythonFacts& py) {
    const std::string call = "FastLanguageModel.from_pretrained";
    if (c.callee != call && c.callee != "unsloth." + call) return std::nullopt;
    std::vector<std::optional<Edit>> edits = {query::replace_in(p, c.loc, call, "FastModel.from_pretrained")};
    auto plain = [](const PyImport& im, const char* name) {
      return im.module == "unsloth" && im.name == name && (im.alias.empty() || im.alias == name);
    };
    bool have = c.callee != call || std::any_of(py.imports.begin(), py.imports.end(), [&](const PyImport& im) {
                  return plain(im, "FastModel") || (im.module == "unsloth" && im.name == "*");
                });
    auto fl = std::find_if(py.imports.begin(), py.imports.end(), [&](const PyImport& im) { return plain(im, "FastLanguageModel"); });
    if (!have && fl == py.imports.end()) return std::nullopt;
    if (!have) edits.push_back(query::insert_after(p, fl->loc, "FastLanguageModel", ", FastModel"));
    return query::make_fix("Load with FastModel.from_pretrained", true, edits);
  }

  static void unsloth(const Project& p, const PythonFacts& py, Reporter& out) {
    UnslothModule m = unsloth_module(py);
    if (!m.imported) return;
    for (const auto& c : py.calls) {
      std::string cls = llama_entry(c, m);
      if (cls.empty()) continue;
      m.uses_llama_path = true;
      if (const PyArg* attn = dropped_request(c, cls, py))
        out.report(query::with_fix(query::finding(
            Level::Error, attn->loc,
            "attn_implementation=\"" + attn->literal + "\" is silently dropped: " + cls +
                ".from_pretrained sends llama/mistral/gemma/gemma2/qwen2/qwen3 models through "
                "FastLlamaModel.from_pretrained, which pops attn_implementation and prefers flash_attention_2 "
                "whenever flash_attn imports, and a flash-attn without sm_121 kernels then fails on a Spark; " +
                std::string(kDispatchNote),
            "load with FastModel.from_pretrained(..., attn_implementation=\"" + attn->literal +
                "\") (it honours the request), or make flash_attn not importable in this environment"),
            cls == "FastLanguageModel" ? fast_model_fix(p, c, py) : std::nullopt));
    }
    if (m.uses_llama_path && !m.dispatch_override) incomplete_override(py, out);
  }

  // ---- (b') _utils.HAS_FLASH_ATTENTION = False without the attention_dispatch copy
  static void incomplete_override(const PythonFacts& py, Reporter& out) {
    for (const auto& a : py.assigns)
      if (disables(a, flash_flag("utils")))
        out.report(query::finding(
            Level::Warning, a.loc,
            std::string("incomplete flash-attention override: ") + kDispatchNote +
                "; FastLanguageModel's patched llama attention asks attention_dispatch, not _utils",
            "also set unsloth.utils.attention_dispatch.HAS_FLASH_ATTENTION = False (after importing unsloth), "
            "or make flash_attn not importable"));
  }

  // ---- (c) configs ---------------------------------------------------------------
  static const ConfigEntry* top(const std::vector<ConfigEntry>& cfg, const std::string& key) {
    for (const auto& e : cfg)
      if (e.path.size() == 1 && e.path[0] == key && e.scalar) return &e;
    return nullptr;
  }

  // ---- (4) LLaMA-Factory: use_unsloth: true with flash_attn: sdpa/disabled
  static void llamafactory_unsloth(const std::vector<ConfigEntry>& cfg, Reporter& out) {
    const ConfigEntry* use = top(cfg, "use_unsloth");
    const ConfigEntry* fa = top(cfg, "flash_attn");
    if (!use || !fa || lower(use->value) != "true") return;
    if (!knowledge::in("llamafactory-non-flash-values", lower(fa->value))) return;
    if (const ConfigEntry* m = top(cfg, "model_name_or_path"); m && routes_to_fast_model(m->value)) return;
    out.report(query::finding(
        Level::Error, fa->value_loc,
        "`flash_attn: " + fa->value +
            "` never reaches Unsloth with `use_unsloth: true`: LLaMA-Factory builds the FastLanguageModel.from_pretrained "
            "call without attn_implementation, so llama/qwen/mistral/gemma models still run flash-attn whenever it "
            "imports, and a flash-attn without sm_121 kernels fails on a Spark",
        "set use_unsloth: false to get sdpa, or make sure flash_attn is not installed in this environment",
        {{use->value_loc, "Unsloth enabled here"}}));
  }

  // ---- (5) flash-attention requested on bare pip
  static Finding fa2_finding(const Location& loc, const std::string& what) {
    return query::finding(Level::Warning, loc,
                          "`" + what + "` requests flash-attention, but on a DGX Spark (aarch64, sm_121) there is no official "
                                 "flash-attn wheel (Dao-AILab/flash-attention#1969) and source builds have failed with "
                                 "\"kernel built for sm80-sm100, but running on sm121\"",
                          "use sdpa (attn_implementation: sdpa), or run in an NGC container that ships flash-attn");
  }

  static bool flash_value(std::string_view v) { return knowledge::in("flash-attention-values", v); }

  static void fa2_in_config(const FileFacts& ff, Reporter& out) {
    for (const auto& e : ff.config) {
      if (!e.scalar || e.path.empty()) continue;
      std::string k = e.key(), v = lower(e.value);
      bool top_level = e.path.size() == 1;
      if (ends_with(k, "attn_implementation") && flash_value(v))
        out.report(fa2_finding(e.value_loc, "attn_implementation: " + e.value));
      else if (top_level && k == "flash_attention" && v == "true")
        out.report(fa2_finding(e.value_loc, "flash_attention: true"));
      else if (top_level && k == "flash_attn" && knowledge::in("llamafactory-flash-attn-values", v))
        out.report(fa2_finding(e.value_loc, "flash_attn: " + e.value));
    }
  }

  static void fa2_in_commands(const FileFacts& ff, Reporter& out) {
    for (const auto& c : ff.commands) {
      auto w = flag_value(c, {"--attn_implementation", "--attn-implementation"});
      if (w && w->resolved && flash_value(w->text))
        out.report(fa2_finding(w->loc, "--attn_implementation " + w->text));
      auto fa = flag_value(c, {"--flash_attn"});
      if (fa && fa->resolved && knowledge::in("llamafactory-flash-attn-values", fa->text))
        out.report(fa2_finding(fa->loc, "--flash_attn " + fa->text));
    }
  }

  static void fa2_requests(const ParsedFile& pf, Reporter& out) {
    fa2_in_config(*pf.facts, out);
    fa2_in_commands(*pf.facts, out);
    for (const auto& c : pf.facts->python.calls) {
      const PyArg* a = kwarg(c, "attn_implementation");
      if (a && a->is_literal && flash_value(a->literal))
        out.report(fa2_finding(a->loc, "attn_implementation=\"" + a->literal + "\""));
    }
    // model_kwargs["attn_implementation"] = "flash_attention_2", later from_pretrained(**model_kwargs)
    for (const PyAssign& a : pf.facts->python.assigns)
      if (a.is_literal && ends_with(a.target, "[attn_implementation]") && flash_value(a.value))
        out.report(fa2_finding(a.loc, a.target.substr(0, a.target.size() - 21) + "[\"attn_implementation\"] = \"" +
                                          a.value + "\""));
  }
};

}  // namespace

SPARKCHECK_RULE(FlashAttnRule);

}  // namespace sc

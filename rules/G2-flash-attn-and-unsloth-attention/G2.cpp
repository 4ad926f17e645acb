// G2: flash-attn on aarch64/sm_121 (bare pip), and Unsloth dropping an explicit
// attn_implementation request on its FastLlamaModel path.
#include <set>

#include "analysis/launch.h"
#include "analysis/project.h"
#include "core/registry.h"
#include "analysis/environments.h"
#include "knowledge/cuda.h"

namespace sc {
namespace {

// NGC framework images that ship a flash-attn built for their GPUs.
bool ngc_with_flash_attn(const Image* im) {
  if (!im || im->ref.find('$') != std::string::npos) return false;
  if (!is_ngc_framework_image(im->ref)) return false;
  std::string r = lower(im->ref).substr(15);  // after nvcr.io/nvidia/
  std::string repo = r.substr(0, r.find(':'));
  return repo == "pytorch" || repo == "vllm" || repo == "sglang" || repo == "nemo" || repo == "tritonserver";
}

// An image sparkcheck cannot judge here: unresolved ARG, or a ROCm (AMD) image
// whose flash-attn is a different build altogether.
bool image_unknown(const Image* im) {
  return im && (im->ref.find('$') != std::string::npos || lower(im->ref).find("rocm") != std::string::npos);
}

// A PEP 508 marker that keeps the requirement off aarch64 Linux.
bool marker_excludes_aarch64(const std::string& marker) {
  std::string m = lower(marker);
  std::string compact;
  for (char c : m)
    if (c != ' ' && c != '\'' && c != '"') compact += c;
  for (const char* x : {"platform_machine==x86_64", "platform_machine==amd64", "platform_machine!=aarch64",
                        "platform_machine!=arm64", "x86_64==platform_machine", "aarch64!=platform_machine",
                        "sys_platform==win32", "sys_platform==darwin", "platform_system==windows",
                        "platform_system==darwin", "sys_platform!=linux", "platform_system!=linux"})
    if (compact.find(x) != std::string::npos) return true;
  return false;
}

// Model ids that FastLanguageModel sends to FastModel (which honours
// attn_implementation) rather than to FastLlamaModel: every model_type outside
// llama/mistral/gemma/gemma2/qwen2/qwen3.
bool routes_to_fast_model(const std::string& model) {
  std::string m = lower(model);
  for (const char* x : {"gemma-3", "gemma3", "phi-", "phi3", "phi4", "-vl", "vision", "moe", "-a3b", "-a22b",
                        "gpt-oss", "llama-4", "deepseek", "granite", "pixtral", "mistral-small-3.1", "qwen3.5",
                        "qwen3_5", "qwen3-next", "omni", "olmo", "cohere", "falcon", "llava", "whisper"})
    if (m.find(x) != std::string::npos) return true;
  return false;
}

const PyArg* kwarg(const PyCall& c, std::string_view k) {
  for (const auto& a : c.args)
    if (a.keyword == k) return &a;
  return nullptr;
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
    bool ngc_project = false, prebuilt_wheel = false;
    for (const auto& f : p.files) {
      if (f->facts.kind == FileKind::Dockerfile)
        for (size_t s = 0; s < f->facts.images.size(); ++s)
          if (ngc_with_flash_attn(p.stage_image(*f, static_cast<int>(s)))) ngc_project = true;
      for (const auto& in : f->facts.installs)
        for (const auto& r : in.packages)
          if (r.name == "flash-attn" && prebuilt_aarch64(r, in)) prebuilt_wheel = true;
    }
    for (const auto& f : p.files) {
      installs(p, *f, out);
      if (is_test_path(f->src.path())) continue;
      unsloth(f->facts.python, out);
      if (!ngc_project && !prebuilt_wheel) fa2_requests(*f, out);
      llamafactory_unsloth(f->facts.config, out);
    }
  }

 private:
  static bool prebuilt_aarch64(const Requirement& r, const Install& in) {
    std::string u = lower(r.url + " " + r.raw);
    if (u.find("aarch64") != std::string::npos || u.find("arm64") != std::string::npos) return true;
    for (const auto& ix : in.indexes) {
      std::string l = lower(ix.url);
      // a find-links page or a non-PyPI index chosen for flash-attn: a prebuilt wheel source
      if (ix.role == "find-links" || l.find("flash") != std::string::npos || l.find("prebuil") != std::string::npos)
        return true;
    }
    return false;
  }

  // ---- (a) flash-attn installed with pip on aarch64 -----------------------------
  static void installs(const Project& p, const ParsedFile& f, Reporter& out) {
    for (const auto& in : f.facts.installs) {
      if (in.tool == Installer::Conda || in.tool == Installer::CondaEnvFile) continue;  // conda-forge builds
      for (const auto& r : in.packages) {
        if (r.name != "flash-attn") continue;
        if (marker_excludes_aarch64(r.marker) || prebuilt_aarch64(r, in)) continue;
        // a wheel file is a binary: no source build (pip itself rejects a wrong-platform wheel)
        if (lower(r.url + " " + r.raw).find(".whl") != std::string::npos) continue;
        if (in.tool == Installer::PyprojectDeps && optional_group(f, r)) continue;
        std::vector<Related> rel;
        if (f.facts.kind == FileKind::Dockerfile) {
          const Image* im = p.stage_image(f, in.stage);
          if (ngc_with_flash_attn(im) || image_unknown(im)) continue;
          if (im) rel.push_back({im->loc, "base image without a prebuilt flash-attn"});
        } else if (in.tool == Installer::RequirementsFile || in.tool == Installer::PyprojectDeps) {
          bool bare = false;
          for (const auto& ctx : p.contexts_for(f)) {
            if (ctx.dockerfile && (ngc_with_flash_attn(ctx.image) || image_unknown(ctx.image))) continue;
            bare = true;
            if (ctx.via.range.valid()) rel.push_back({ctx.via, "installed here"});
          }
          if (!bare) continue;
        }
        Finding fd;
        fd.rule = "G2";
        fd.level = Level::Warning;
        fd.loc = r.loc.range.valid() ? r.loc : in.loc;
        fd.message =
            std::string(in.tool == Installer::PyprojectDeps ? "flash-attn is a required dependency, so installing the project"
                                                            : "flash-attn installed with pip") +
            ": there is no official linux_aarch64 wheel with sm_121 kernels "
            "(Dao-AILab/flash-attention#1969), so pip falls back to building the sdist, and such builds have "
            "failed with \"kernel built for sm80-sm100, but running on sm121\"";
        fd.fix = "drop flash-attn and use attn_implementation=\"sdpa\", use an NGC container that ships it "
                 "(nvcr.io/nvidia/vllm, nvcr.io/nvidia/pytorch), or gate it with `; platform_machine == 'x86_64'`";
        fd.related = std::move(rel);
        out.report(std::move(fd));
      }
    }
  }

  static bool optional_group(const ParsedFile& f, const Requirement& r) {
    for (const auto& e : f.facts.config) {
      if (e.value_loc.range.line != r.loc.range.line) continue;
      std::string d = e.dotted();
      if (d.find("optional-dependencies") != std::string::npos || d.find("dependency-groups") != std::string::npos ||
          d.find("extras") != std::string::npos)
        return true;
    }
    return false;
  }

  // ---- (b) Unsloth FastLanguageModel + attn_implementation="sdpa" ----------------
  static void unsloth(const PythonFacts& py, Reporter& out) {
    bool imported = false, wildcard = false;
    for (const auto& im : py.imports) {
      if (im.module == "unsloth" || starts_with(im.module, "unsloth.")) imported = true;
      if (im.module == "unsloth" && im.name == "*") wildcard = true;
    }
    if (!imported) return;
    static const std::set<std::string> llama_path = {"FastLanguageModel", "FastLlamaModel", "FastMistralModel",
                                                     "FastQwen2Model",    "FastQwen3Model", "FastGemmaModel",
                                                     "FastGemma2Model"};
    auto entry = [&](const PyCall& c) -> std::string {
      std::string r = c.resolved;
      if (wildcard && r == c.callee && r.find('.') != std::string::npos && llama_path.count(r.substr(0, r.find('.'))))
        r = "unsloth." + r;
      if (!starts_with(r, "unsloth.") || !ends_with(r, ".from_pretrained")) return {};
      std::string cls = r.substr(0, r.size() - 16);
      cls = cls.substr(cls.rfind('.') + 1);
      return llama_path.count(cls) ? cls : std::string();
    };
    const std::string utils_flag = "unsloth.models._utils.HAS_FLASH_ATTENTION";
    const std::string dispatch_flag = "unsloth.utils.attention_dispatch.HAS_FLASH_ATTENTION";
    auto disables = [](const PyAssign& a, const std::string& flag) {
      return a.resolved == flag && a.is_literal && (a.value == "False" || a.value == "0" || a.value == "None");
    };
    bool dispatch_override = false;
    for (const auto& a : py.assigns)
      if (disables(a, dispatch_flag)) dispatch_override = true;
    bool uses_llama_path = false;
    for (const auto& im : py.imports)
      if (starts_with(im.module, "unsloth") && llama_path.count(im.name)) uses_llama_path = true;

    for (const auto& c : py.calls) {
      std::string cls = entry(c);
      if (cls.empty()) continue;
      uses_llama_path = true;
      const PyArg* attn = kwarg(c, "attn_implementation");
      if (!attn || !attn->is_literal || attn->kind != "string") continue;
      if (attn->literal != "sdpa" && attn->literal != "eager") continue;
      if (kwarg(c, "**")) continue;  // unknown keyword arguments may change the route
      if (cls == "FastLanguageModel") {
        bool other_route = false, unknown = false;
        for (const char* k : {"load_in_8bit", "full_finetuning"}) {
          const PyArg* a = kwarg(c, k);
          if (!a) continue;
          if (!a->is_literal) unknown = true;
          else if (a->kind == "true" || (a->kind == "integer" && a->literal != "0")) other_route = true;
        }
        if (const PyArg* q = kwarg(c, "qat_scheme")) {
          if (!q->is_literal) unknown = true;
          else if (q->kind != "none" && !(q->kind == "false")) other_route = true;
        }
        if (other_route || unknown) continue;
      }
      const PyArg* model = kwarg(c, "model_name");
      if (!model)
        for (const auto& a : c.args)
          if (a.keyword.empty()) { model = &a; break; }
      if (model && model->is_literal && routes_to_fast_model(model->literal)) continue;
      bool overridden = false;
      for (const auto& a : py.assigns)
        if (disables(a, utils_flag) && before(a.loc, c.loc)) overridden = true;
      if (overridden) continue;  // reported at the override when it is incomplete
      Finding f;
      f.rule = "G2";
      f.level = Level::Error;
      f.loc = attn->loc;
      f.message = "attn_implementation=\"" + attn->literal + "\" is silently dropped: " + cls +
                  ".from_pretrained sends llama/mistral/gemma/gemma2/qwen2/qwen3 models through "
                  "FastLlamaModel.from_pretrained, which pops attn_implementation and prefers flash_attention_2 "
                  "whenever flash_attn imports, and a flash-attn without sm_121 kernels then fails on a Spark; " +
                  std::string(kDispatchNote);
      f.fix = "load with FastModel.from_pretrained(..., attn_implementation=\"" + attn->literal +
              "\") (it honours the request), or make flash_attn not importable in this environment";
      out.report(std::move(f));
    }
    if (!uses_llama_path || dispatch_override) return;
    for (const auto& a : py.assigns) {
      if (!disables(a, utils_flag)) continue;
      Finding f;
      f.rule = "G2";
      f.level = Level::Warning;
      f.loc = a.loc;
      f.message = std::string("incomplete flash-attention override: ") + kDispatchNote +
                  "; FastLanguageModel's patched llama attention asks attention_dispatch, not _utils";
      f.fix = "also set unsloth.utils.attention_dispatch.HAS_FLASH_ATTENTION = False (after importing unsloth), "
              "or make flash_attn not importable";
      out.report(std::move(f));
    }
  }

  // ---- (c) configs ---------------------------------------------------------------
  static const ConfigEntry* top(const std::vector<ConfigEntry>& cfg, const std::string& key) {
    for (const auto& e : cfg)
      if (e.path.size() == 1 && e.path[0] == key && e.scalar) return &e;
    return nullptr;
  }

  static void llamafactory_unsloth(const std::vector<ConfigEntry>& cfg, Reporter& out) {
    const ConfigEntry* use = top(cfg, "use_unsloth");
    const ConfigEntry* fa = top(cfg, "flash_attn");
    if (!use || !fa || lower(use->value) != "true") return;
    std::string v = lower(fa->value);
    if (v != "sdpa" && v != "disabled" && v != "eager") return;
    if (const ConfigEntry* m = top(cfg, "model_name_or_path"); m && routes_to_fast_model(m->value)) return;
    Finding f;
    f.rule = "G2";
    f.level = Level::Error;
    f.loc = fa->value_loc;
    f.message = "flash_attn: " + fa->value +
                " never reaches Unsloth: with use_unsloth: true LLaMA-Factory builds the "
                "FastLanguageModel.from_pretrained call without attn_implementation, so llama/qwen/mistral/gemma "
                "models still run flash-attn whenever it imports, and a flash-attn without sm_121 kernels fails on a Spark";
    f.fix = "set use_unsloth: false to get sdpa, or make sure flash_attn is not installed in this environment";
    f.related.push_back({use->value_loc, "Unsloth enabled here"});
    out.report(std::move(f));
  }

  static Finding fa2_finding(const Location& loc, const std::string& what) {
    Finding f;
    f.rule = "G2";
    f.level = Level::Warning;
    f.loc = loc;
    f.message = what +
                " requests flash-attention, but on a DGX Spark (aarch64, sm_121) there is no official flash-attn "
                "wheel (Dao-AILab/flash-attention#1969) and source builds have failed with \"kernel built for "
                "sm80-sm100, but running on sm121\"";
    f.fix = "use sdpa (attn_implementation: sdpa), or run in an NGC container that ships flash-attn";
    return f;
  }

  static void fa2_requests(const ParsedFile& pf, Reporter& out) {
    const FileFacts& ff = pf.facts;
    for (const auto& e : ff.config) {
      if (!e.scalar || e.path.empty()) continue;
      std::string k = e.key(), v = lower(e.value);
      bool top_level = e.path.size() == 1;
      if (ends_with(k, "attn_implementation") && (v == "flash_attention_2" || v == "flash_attention_3"))
        out.report(fa2_finding(e.value_loc, "attn_implementation: " + e.value));
      else if (top_level && k == "flash_attention" && v == "true")
        out.report(fa2_finding(e.value_loc, "flash_attention: true"));
      else if (top_level && k == "flash_attn" && (v == "fa2" || v == "fa3"))
        out.report(fa2_finding(e.value_loc, "flash_attn: " + e.value));
    }
    for (const auto& c : ff.commands) {
      auto w = flag_value(c, {"--attn_implementation", "--attn-implementation"});
      if (w && w->resolved && (w->text == "flash_attention_2" || w->text == "flash_attention_3"))
        out.report(fa2_finding(w->loc, "--attn_implementation " + w->text));
      auto fa = flag_value(c, {"--flash_attn"});
      if (fa && fa->resolved && (fa->text == "fa2" || fa->text == "fa3"))
        out.report(fa2_finding(fa->loc, "--flash_attn " + fa->text));
    }
    for (const auto& c : ff.python.calls) {
      const PyArg* a = kwarg(c, "attn_implementation");
      if (a && a->is_literal && (a->literal == "flash_attention_2" || a->literal == "flash_attention_3"))
        out.report(fa2_finding(a->loc, "attn_implementation=\"" + a->literal + "\""));
    }
  }
};

}  // namespace

SPARKCHECK_RULE(FlashAttnRule);

}  // namespace sc

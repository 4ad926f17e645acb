// G7: NVFP4 on a DGX Spark needs kernels built for the arch-specific target
// sm_121a (12.1a); a plain 12.1 / sm_121 / "Blackwell" build compiles the native
// FP4 conversion out.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <tuple>

#include "analysis/launch.h"
#include "analysis/project.h"
#include "core/registry.h"

namespace sc {
namespace {

enum class Arch { None, Plain, Specific };

std::string dir_of(const std::string& path) {
  size_t k = path.rfind('/');
  return k == std::string::npos ? std::string() : path.substr(0, k);
}

bool near_dirs(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || a == b || starts_with(b, a + "/") || starts_with(a, b + "/");
}

struct Place {
  Place(Location l, std::string w) : loc(std::move(l)), what(std::move(w)), dir(dir_of(loc.path)) {}
  Location loc;
  std::string what;
  std::string dir;
};

bool near(const Place& a, const Place& b) { return near_dirs(a.dir, b.dir); }

const std::set<std::string>& arch_vars() {
  static const std::set<std::string> v = {"TORCH_CUDA_ARCH_LIST", "FLASHINFER_CUDA_ARCH_LIST",
                                          "CMAKE_CUDA_ARCHITECTURES", "CUDAARCHS",
                                          "NVCC_GENCODE", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"};
  return v;
}

// Classify an architecture list ("12.1", "12.0;12.1a", "121a-real",
// "-gencode=arch=compute_121,code=sm_121", "Blackwell").
Arch classify(std::string_view text, bool named_archs) {
  bool plain = false, specific = false;
  std::string tok;
  auto flush = [&] {
    std::string t = lower(tok);
    tok.clear();
    if (t.empty()) return;
    for (const char* pre : {"sm_", "compute_", "lto_"})
      if (starts_with(t, pre)) t = t.substr(std::strlen(pre));
    for (const char* suf : {"-real", "-virtual", "+ptx"})
      if (ends_with(t, suf)) t = t.substr(0, t.size() - std::strlen(suf));
    if (t == "12.1" || t == "121") plain = true;
    else if (t == "12.1a" || t == "121a" || t == "12.1f" || t == "121f" || t == "12.0f" || t == "120f") specific = true;
    else if (named_archs && t == "blackwell") plain = true;
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-') {
      // "-gencode" / "-arch" start with '-': keep '-' only inside a token
      if (c == '-' && tok.empty()) continue;
      tok += c;
    } else {
      flush();
    }
  }
  flush();
  if (specific) return Arch::Specific;
  return plain ? Arch::Plain : Arch::None;
}

// Does this word (a command argument, a config value, a string literal) name
// NVFP4: a quantization value ("nvfp4", "modelopt_fp4", "w4a16_nvfp4"), a model id
// ("nvidia/Qwen3-8B-NVFP4", NVIDIA's "nvidia/...-FP4"), a checkpoint directory or
// an FP4 kernel source ("nvfp4_gemm.cu")? Prose, docs and output names are not uses.
bool has_nvfp4_token(std::string_view word) {
  if (word.empty() || word.size() > 300) return false;
  for (char c : word)
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  std::string l = lower(word);
  if (starts_with(l, "-")) {  // --quantization=modelopt_fp4
    size_t eq = l.find('=');
    if (eq == std::string::npos) return false;
    l = l.substr(eq + 1);
  }
  while (!l.empty() && l.back() == '/') l.pop_back();
  if (l == "modelopt_fp4" || l == "nvfp4_per_token") return true;
  size_t slashes = std::count(l.begin(), l.end(), '/');
  bool local = starts_with(l, "./") || starts_with(l, "../") || starts_with(l, "/") || starts_with(l, "~");
  if (l.find("nvfp4") == std::string::npos) {
    return slashes == 1 && starts_with(l, "nvidia/") && (ends_with(l, "-fp4") || l.find("-fp4-") != std::string::npos);
  }
  if (l.find("://") != std::string::npos) return false;  // URLs: docs, repositories
  std::string last = l.substr(l.rfind('/') == std::string::npos ? 0 : l.rfind('/') + 1);
  size_t dot = last.rfind('.');
  std::string ext = dot == std::string::npos || dot == 0 ? std::string() : last.substr(dot + 1);
  bool is_ext = !ext.empty() && ext.size() <= 12 && std::isalpha(static_cast<unsigned char>(ext[0])) &&
                std::all_of(ext.begin(), ext.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)); });
  if (is_ext)  // "Llama-3.1-8B-NVFP4" has a dot but no extension
    return ext == "cu" || ext == "cuh" || ext == "gguf" || ext == "safetensors";
  if (slashes == 0) return true;          // a quantization value or a bare model name
  if (slashes == 1 && !local) return true;  // a hub model id
  return ends_with(last, "nvfp4");        // a local checkpoint directory "/models/Qwen3-8B-NVFP4"
}

// Config keys whose values name outputs, runs or documents, not what is loaded.
bool naming_key(const std::string& k) {
  static const std::set<std::string> names = {"output_dir", "hub_model_id", "run_name", "name", "title",
                                              "description", "href", "file", "text", "output", "tag", "id",
                                              "dataset_prepared_path", "save_path", "export_path"};
  return names.count(k) || ends_with(k, "_dir") || starts_with(k, "wandb_") || starts_with(k, "mlflow_") ||
         (ends_with(k, "_path") && k.find("model") == std::string::npos);
}

// Identifiers in Python code that select NVFP4 (ModelOpt, TensorRT-LLM,
// Transformer Engine, torchao, transformers).
bool nvfp4_identifier(const std::string& tok) {
  if (tok.find("NVFP4") == std::string::npos) return false;
  if (ends_with(tok, "_CFG")) return true;  // mtq.NVFP4_DEFAULT_CFG, W4A8_NVFP4_FP8_CFG
  if (ends_with(tok, "QuantAlgo.NVFP4") || ends_with(tok, "QuantAlgo.W4A16_NVFP4")) return true;
  for (const char* x : {"NVFP4BlockScaling", "NVFP4Config", "NVFP4WeightOnlyConfig",
                        "NVFP4DynamicActivationNVFP4WeightConfig", "NVFP4InferenceConfig"})
    if (ends_with(tok, x)) return true;
  return false;
}

class Nvfp4Rule : public Rule {
 public:
  std::string_view id() const override { return "G7"; }

  void check(const Project& p, Reporter& out) const override {
    std::vector<Place> uses, plain, specific, builds;
    std::vector<std::string> arch_dirs;  // directories whose files name architectures (any GPU)
    for (const auto& f : p.files) {
      if (is_test_path(f->src.path())) continue;
      const FileFacts& ff = f->facts;
      for (const auto& e : ff.env) arch_setting(e.name, e.value, e.loc, plain, specific);
      for (const auto& c : ff.commands) command(c, uses, plain, specific, builds);
      for (const auto& e : ff.config) config(e, uses, plain, specific);
      python(*f, uses, plain, specific);
      if (names_archs(ff)) arch_dirs.push_back(dir_of(f->src.path()));
    }
    if (uses.empty()) return;
    // A monorepo of independent examples: a build and a use only meet when one's
    // directory contains the other's (a root Dockerfile and src/quantize.py do).
    auto use_near = [&](const Place& x) -> const Place* {
      for (const auto& u : uses)
        if (near(x, u)) return &u;
      return nullptr;
    };
    std::set<std::tuple<std::string, int, int>> reported;  // one finding per place
    for (const auto& a : plain) {
      const Place* u = use_near(a);
      if (!u) continue;
      if (!reported.insert({a.loc.path, a.loc.range.line, a.loc.range.col}).second) continue;
      Finding fd;
      fd.rule = "G7";
      fd.level = Level::Warning;
      fd.loc = a.loc;
      fd.message = a.what +
                   " builds for sm_121 without the arch-specific target 12.1a: the native FP4 conversion "
                   "(cvt.rn.satfinite.e2m1x2) is compiled out, and the software fallback produced NaN in NVFP4 "
                   "inference on a DGX Spark (vllm-project/vllm PR #37725); this project uses NVFP4";
      if (lower(a.what).find("blackwell") != std::string::npos)
        fd.message += " (\"Blackwell\" expands to 10.0;10.3;12.0;12.1+PTX, with no a suffix)";
      fd.fix = "target 12.1a: TORCH_CUDA_ARCH_LIST=\"12.1a\", CMAKE_CUDA_ARCHITECTURES=121a, "
               "-gencode arch=compute_121a,code=sm_121a";
      fd.related.push_back({u->loc, "NVFP4 used here: " + u->what});
      out.report(std::move(fd));
    }
    std::set<std::pair<std::string, int>> seen;  // one finding per line
    for (const auto& u : uses) {
      // Builds that name architectures (12.1 with or without a, or only other GPUs'):
      // handled above, or not Spark builds at all.
      bool named = false;
      for (const auto& d : arch_dirs)
        if (near_dirs(d, u.dir)) named = true;
      for (const auto& x : plain) named = named || near(x, u);
      for (const auto& x : specific) named = named || near(x, u);
      if (named) continue;
      std::vector<const Place*> near_builds;
      for (const auto& b : builds)
        if (near(b, u)) near_builds.push_back(&b);
      if (near_builds.empty()) continue;
      if (!seen.insert({u.loc.path, u.loc.range.line}).second) continue;
      Finding fd;
      fd.rule = "G7";
      fd.level = Level::Warning;
      fd.loc = u.loc;
      fd.message = "NVFP4 (" + u.what +
                   ") in a project that builds CUDA kernels with no 12.1a target: without sm_121a the native FP4 "
                   "conversion is compiled out and NVFP4 kernels fall back to a software path that produced NaN "
                   "on a DGX Spark (vllm-project/vllm PR #37725)";
      fd.fix = "build the kernels with TORCH_CUDA_ARCH_LIST=\"12.1a\" (CMake: CMAKE_CUDA_ARCHITECTURES=121a), "
               "or use a prebuilt NGC engine";
      for (size_t i = 0; i < near_builds.size() && i < 3; ++i)
        fd.related.push_back({near_builds[i]->loc, "kernel build without a 12.1a target: " + near_builds[i]->what});
      out.report(std::move(fd));
    }
  }

 private:
  // Does the file set an architecture list or pass nvcc/CMake arch flags (any GPU)?
  static bool names_archs(const FileFacts& ff) {
    for (const auto& e : ff.env)
      if (arch_vars().count(e.name) && !e.value.empty()) return true;
    for (const auto& a : ff.python.assigns)
      if (a.target.find("environ[") != std::string::npos && a.target.find("ARCH") != std::string::npos) return true;
    for (const auto& e : ff.config) {
      if (!e.scalar || e.value.empty()) continue;
      if (arch_vars().count(e.key())) return true;
      size_t eq = e.value.find('=');  // environment / build-arg lists: "TORCH_CUDA_ARCH_LIST=..."
      if (eq != std::string::npos && arch_vars().count(trim(e.value.substr(0, eq)))) return true;
    }
    for (const auto& c : ff.commands) {
      for (const auto& [n, w] : c.env)
        if (arch_vars().count(n)) return true;
      for (const auto& w : c.argv)
        if (w.text.find("CUDA_ARCHITECTURES") != std::string::npos || w.text.find("ARCH_LIST=") != std::string::npos ||
            starts_with(w.text, "-gencode") || starts_with(w.text, "-arch") || starts_with(w.text, "--gpu-architecture"))
          return true;
    }
    return false;
  }

  static void arch_setting(const std::string& name, const std::string& value, const Location& loc,
                           std::vector<Place>& plain, std::vector<Place>& specific) {
    if (!arch_vars().count(name)) return;
    bool named = name == "TORCH_CUDA_ARCH_LIST" || name == "FLASHINFER_CUDA_ARCH_LIST";
    Arch a = classify(value, named);
    if (a == Arch::Plain) plain.push_back({loc, name + "=\"" + value + "\""});
    else if (a == Arch::Specific) specific.push_back({loc, name});
  }

  static void command(const Command& c, std::vector<Place>& uses, std::vector<Place>& plain,
                      std::vector<Place>& specific, std::vector<Place>& builds) {
    if (c.argv.empty()) return;
    for (const auto& [name, w] : c.env) {
      arch_setting(name, w.text, w.loc, plain, specific);
      if (name == "VLLM_NVFP4_GEMM_BACKEND") uses.push_back({w.loc, name});
    }
    size_t before = plain.size() + specific.size();
    const auto& a = c.argv;
    for (size_t i = 0; i < a.size(); ++i) {
      const Word& w = a[i];
      if (!w.resolved) continue;
      const std::string& t = w.text;
      const Word* next = i + 1 < a.size() ? &a[i + 1] : nullptr;
      // CMake / make variables: -DCMAKE_CUDA_ARCHITECTURES=121, NVCC_GENCODE="..."; in "-D X=Y" the
      // next word is read on its own turn (reading it here too reported the setting twice)
      std::string assign = t;
      if (starts_with(assign, "-D") && assign.size() > 2) assign = assign.substr(2);
      if (size_t eq = assign.find('='); eq != std::string::npos) {
        std::string var = assign.substr(0, eq);
        if (size_t colon = var.find(':'); colon != std::string::npos) var = var.substr(0, colon);  // -DX:STRING=
        arch_setting(var, assign.substr(eq + 1), w.loc, plain, specific);
      }
      // nvcc: -gencode arch=...,code=..., -gencode=..., -arch=sm_121, --gpu-architecture sm_121
      for (const char* flag : {"-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code"}) {
        std::string f = flag;
        std::string value;
        if (t == f && next && next->resolved) value = next->text;
        else if (starts_with(t, f + "=")) value = t.substr(f.size() + 1);
        else continue;
        Arch k = classify(value, false);
        if (k == Arch::Plain) plain.push_back({w.loc, f + " " + value});
        else if (k == Arch::Specific) specific.push_back({w.loc, f});
      }
      // NVFP4 uses: model ids, kernel sources, quantization flags
      if (i > 0 && has_nvfp4_token(t)) uses.push_back({w.loc, t});
      if ((t == "--fp4-format" || starts_with(t, "--fp4-format=")) && i > 0) uses.push_back({w.loc, "Megatron --fp4-format"});
    }
    std::string prog = prog_base(a[0].text);
    bool arch_here = plain.size() + specific.size() > before;
    // Source builds of CUDA kernels
    bool pip = find_program(c, {"pip", "pip3", "uv"}) >= 0;
    if (pip && has_flag(c, {"--no-build-isolation"}))
      for (const auto& w : a)
        if (compiles_cuda(w.text)) {
          builds.push_back({c.loc, "pip install --no-build-isolation " + w.text});
          break;
        }
    for (size_t i = 0; i + 1 < a.size(); ++i)
      if (ends_with(a[i].text, "setup.py") &&
          std::set<std::string>{"install", "develop", "build_ext", "bdist_wheel", "build"}.count(a[i + 1].text))
        builds.push_back({c.loc, "setup.py " + a[i + 1].text});
    if ((prog == "nvcc" || prog == "cmake") && !arch_here) {
      bool cuda = prog == "nvcc";
      for (const auto& w : a)
        if (w.text.find("CUDA") != std::string::npos) cuda = true;
      if (cuda) builds.push_back({c.loc, prog + " with no architecture list"});
    }
  }

  // A pip argument that builds CUDA code from source: a local tree, a VCS URL, an
  // sdist, or a package whose source build compiles CUDA kernels.
  static bool compiles_cuda(const std::string& w) {
    if (w.empty() || w[0] == '-') return false;
    if (w == "." || starts_with(w, "./") || starts_with(w, "../") || starts_with(w, "/") || starts_with(w, "~"))
      return !ends_with(w, ".whl") && !ends_with(w, ".txt");
    if (w.find("git+") != std::string::npos || ends_with(w, ".tar.gz") || ends_with(w, ".zip")) return true;
    std::string n = lower(w.substr(0, w.find_first_of("=<>~![;@ ")));
    for (char& ch : n)
      if (ch == '_') ch = '-';
    static const std::set<std::string> kernels = {"flash-attn", "flashinfer-python", "flashinfer", "vllm", "sglang",
                                                  "sgl-kernel", "transformer-engine", "apex", "mamba-ssm",
                                                  "causal-conv1d", "xformers", "tensorrt-llm", "deepspeed",
                                                  "grouped-gemm", "fbgemm-gpu"};
    return kernels.count(n.substr(0, n.find('['))) > 0;
  }

  static void config(const ConfigEntry& e, std::vector<Place>& uses, std::vector<Place>& plain,
                     std::vector<Place>& specific) {
    if (!e.scalar) return;
    const std::string& k = e.key();
    arch_setting(k, e.value, e.value_loc, plain, specific);
    // environment lists: ["TORCH_CUDA_ARCH_LIST=12.1", ...]
    if (size_t eq = e.value.find('='); eq != std::string::npos && !k.empty() && k[0] == '[')
      arch_setting(trim(e.value.substr(0, eq)), trim(e.value.substr(eq + 1)), e.value_loc, plain, specific);
    if (!naming_key(k) && has_nvfp4_token(e.value)) uses.push_back({e.value_loc, k + ": " + e.value});
    else if (k == "VLLM_NVFP4_GEMM_BACKEND") uses.push_back({e.key_loc, k});
  }

  static void python(const ParsedFile& f, std::vector<Place>& uses, std::vector<Place>& plain,
                     std::vector<Place>& specific) {
    const PythonFacts& py = f.facts.python;
    for (const auto& [s, loc] : py.strings) {
      if (has_nvfp4_token(s)) uses.push_back({loc, "\"" + s + "\""});
      // extra_compile_args={"nvcc": ["-gencode", "arch=compute_121,code=sm_121"]}
      if (starts_with(s, "arch=") || starts_with(s, "-gencode") || starts_with(s, "-arch=") ||
          starts_with(s, "--gpu-architecture")) {
        Arch k = classify(s, false);
        if (k == Arch::Plain) plain.push_back({loc, "\"" + s + "\""});
        else if (k == Arch::Specific) specific.push_back({loc, s});
      }
    }
    // os.environ["TORCH_CUDA_ARCH_LIST"] = "12.1" / os.environ.setdefault("...", "12.1")
    for (const auto& a : py.assigns) {
      if (!a.is_literal) continue;
      size_t b = a.target.find("environ[");
      if (b != std::string::npos && ends_with(a.target, "]")) {
        std::string var = a.target.substr(b + 8, a.target.size() - b - 9);
        arch_setting(var, a.value, a.loc, plain, specific);
      }
    }
    for (const auto& c : py.calls)
      if ((ends_with(c.callee, "environ.setdefault") || ends_with(c.callee, "putenv")) && c.args.size() == 2 &&
          c.args[0].is_literal && c.args[1].is_literal && c.args[0].keyword.empty())
        arch_setting(c.args[0].literal, c.args[1].literal, c.args[1].loc, plain, specific);
    if (f.facts.kind == FileKind::Python || f.facts.kind == FileKind::Notebook) identifiers(f, uses);
  }

  // Scan code for NVFP4 identifiers outside comments and string literals.
  static void identifiers(const ParsedFile& f, std::vector<Place>& uses) {
    const std::string& text = f.src.text();
    bool notebook = f.facts.kind == FileKind::Notebook;
    size_t pos = 0;
    while ((pos = text.find("NVFP4", pos)) != std::string::npos) {
      auto idch = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
      size_t b = pos, e = pos + 5;
      while (b > 0 && idch(text[b - 1])) --b;
      while (e < text.size() && idch(text[e])) ++e;
      pos = e;
      std::string tok = text.substr(b, e - b);
      if (!nvfp4_identifier(tok)) continue;
      int line = f.src.line_of(b);
      size_t ls = f.src.line_start(line);
      std::string_view before(text.data() + ls, b - ls);
      if (comment_before(before, notebook)) continue;
      bool in_string = false;
      if (!notebook)
        for (const auto& [s, loc] : f.facts.python.strings) {
          const Range& r = loc.range;
          Range here = f.src.range(b, e);
          bool after_start = here.line > r.line || (here.line == r.line && here.col >= r.col);
          bool before_end = here.line < r.end_line || (here.line == r.end_line && here.end_col <= r.end_col);
          if (after_start && before_end) { in_string = true; break; }
        }
      if (in_string) continue;
      uses.push_back({f.src.loc(b, e), tok});
    }
  }

  static bool comment_before(std::string_view before, bool notebook) {
    size_t h = before.find('#');
    if (h == std::string_view::npos) return false;
    if (notebook) return true;
    int sq = 0, dq = 0;
    for (size_t i = 0; i < h; ++i) {
      if (before[i] == '\'') ++sq;
      if (before[i] == '"') ++dq;
    }
    return sq % 2 == 0 && dq % 2 == 0;
  }
};

}  // namespace

SPARKCHECK_RULE(Nvfp4Rule);

}  // namespace sc

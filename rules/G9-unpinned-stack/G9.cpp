// G9: bare-pip ML stacks that drift (unpinned torch/transformers, lower bounds only,
// re-resolving torch inside an NGC container, unsloth with its dependencies).
#include <map>
#include <set>

#include "analysis/project.h"
#include "core/registry.h"
#include "analysis/environments.h"
#include "knowledge/cuda.h"

namespace sc {
namespace {

// Packages whose version decides whether the CUDA stack works: need an exact pin on bare pip.
const std::set<std::string>& core_stack() {
  static const std::set<std::string> s = {"torch", "triton", "xformers", "transformers"};
  return s;
}

// Packages that depend on torch: installed without a torch pin they re-resolve torch from PyPI.
const std::set<std::string>& torch_dependents() {
  static const std::set<std::string> s = {
      "vllm", "flashinfer-python", "sglang", "peft", "trl", "bitsandbytes", "accelerate", "deepspeed",
      "torchvision", "torchaudio", "torchao", "liger-kernel", "diffusers", "timm", "lightning",
      "pytorch-lightning", "sentence-transformers", "unsloth", "unsloth-zoo", "xformers", "triton",
      "flash-attn", "open-clip-torch", "torchtune", "axolotl", "llamafactory", "mamba-ssm", "causal-conv1d",
      "nemo-toolkit", "optimum", "auto-gptq", "autoawq"};
  return s;
}

// Inside an NGC container these pull their own torch (or are torch) unless --no-deps.
const std::set<std::string>& torch_replacers() {
  static const std::set<std::string> s = {"torch", "triton", "vllm", "flashinfer-python", "sglang",
                                          "xformers", "torchvision", "torchaudio"};
  return s;
}

bool exact(const Requirement& r) { return !r.exact_version.empty() || r.hashed || !r.url.empty(); }

bool lower_bound_only(const Requirement& r) {
  return !r.specifier.empty() && !r.has_upper_bound && r.specifier.find('>') != std::string::npos;
}

// `--index-url` pointing at a CUDA index, or at one we cannot read (a variable),
// or uv's `--torch-backend`: torch then does not re-resolve from PyPI.
static bool replaces_pypi(const PkgRun& run) {
  if (run.torch_backend) return true;  // uv --torch-backend routes torch to the PyTorch CUDA index
  for (const IndexUrl& ix : run.indexes)
    if (ix.role == "index-url" && (cuda_of_url(ix.url) > 0 || ix.url.find('$') != std::string::npos)) return true;
  return false;
}

class G9 : public Rule {
 public:
  std::string_view id() const override { return "G9"; }

  void check(const Project& p, Reporter& out) const override {
    std::map<std::pair<std::string, int>, Finding> by_line;
    auto add = [&](const Location& loc, std::string msg, std::string fix, std::vector<Related> rel) {
      Finding f;
      f.rule = "G9";
      f.level = Level::Warning;
      f.loc = loc;
      f.message = std::move(msg);
      f.fix = std::move(fix);
      f.related = std::move(rel);
      by_line.emplace(std::make_pair(loc.path, loc.range.line), std::move(f));
    };
    for (const PkgEnv& env : package_envs(p)) {
      bool ngc = env.image && is_ngc_framework_image(env.image->ref);
      for (const PkgRun& run : env.runs) {
        Installer t = run.install->tool;
        if (t == Installer::PyprojectDeps || t == Installer::Conda || t == Installer::CondaEnvFile) continue;
        bool torch_pinned = run_pins(p, run, "torch");
        for (const PkgMember& m : run.members) {
          for (const Requirement& r : m.install->packages) {
            if (requirement_skips_aarch64(r)) continue;
            if (r.name.empty()) continue;
            std::vector<Related> rel;
            if (m.file != run.file) rel.push_back({run.install->loc, "installed by this command"});
            if (ngc) rel.push_back({env.image->loc, "NGC container with a pinned torch stack"});
            const std::string& n = r.name;
            bool pinned = exact(r) || run_pins(p, run, n);
            std::string what = r.raw.empty() ? n : r.raw;
            bool unsloth = n == "unsloth" || n == "unsloth-zoo";
            if (unsloth && !run.no_deps && !torch_pinned) {
              add(r.loc,
                  what + " installed with its dependencies: the resolver pulls torch, xformers, triton, transformers "
                         "and trl from PyPI, replacing the CUDA torch (on aarch64 with a CPU-only one) and drifting "
                         "the versions Unsloth was tested with",
                  "install the stack first with exact pins, then `pip install --no-deps unsloth unsloth_zoo`", rel);
              continue;
            }
            if (unsloth && run.no_deps) continue;
            if (ngc) {
              if (run.no_deps || !torch_replacers().count(n)) continue;
              if (pinned && !run.upgrade) continue;
              if (n != "torch" && n != "triton" && torch_pinned) continue;
              add(r.loc,
                  what + (run.upgrade ? " upgraded" : " installed unpinned") +
                      " inside an NGC container: pip re-resolves torch from PyPI and replaces the container's "
                      "matched torch/triton/flash-attn build (on aarch64 possibly with a CPU-only wheel)",
                  "keep the container's torch: use `pip install --no-deps ...`, or pin torch with a constraints / "
                  "`uv pip install --override` file",
                  rel);
              continue;
            }
            if (core_stack().count(n) && !pinned) {
              add(r.loc,
                  what + (lower_bound_only(r) ? " has only a lower bound" : " is not pinned") +
                      " on bare pip: every fresh install resolves a different torch/triton/transformers "
                      "combination, and on aarch64 PyPI torch is CPU-only",
                  "pin exact versions (==) with the CUDA build (torch==X+cu130 from the cu130 index), or use a lock "
                  "file / constraints file",
                  rel);
            } else if (run.no_deps) {
              continue;  // nothing re-resolves torch; the package itself is the user's choice
            } else if (!pinned && lower_bound_only(r) && torch_dependents().count(n)) {
              add(r.loc,
                  what + " has only a lower bound: the next release is installed without a test, and version "
                         "coupling (trl/transformers/bitsandbytes vs Unsloth and torch) has broken Spark setups",
                  "pin an exact version (==) or add an upper bound, or install from a lock file", rel);
            } else if (!pinned && r.specifier.empty() && torch_dependents().count(n) && !torch_pinned &&
                       !replaces_pypi(run)) {
              add(r.loc,
                  what + " is unpinned and nothing pins torch: its torch requirement re-resolves torch from PyPI, "
                         "which on aarch64 swaps the CUDA torch for a CPU-only wheel",
                  "pin torch (torch==X+cu130 with the cu130 index, or `--override`/constraints) and pin " + n, rel);
            }
          }
        }
      }
    }
    for (auto& [k, f] : by_line) out.report(std::move(f));
  }
};

}  // namespace
SPARKCHECK_RULE(G9);
}  // namespace sc

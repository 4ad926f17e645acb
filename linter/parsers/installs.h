// Packaging helpers shared by the requirements / pyproject / conda / Dockerfile
// parsers and the G1/G9 rules: PEP 508 requirement parsing, conda specs,
// install-command recognition and CUDA-version classification.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/facts.h"
#include "core/project.h"

namespace sc {

// Turn every install command in f.commands (pip, python -m pip, uv pip, uv add,
// conda/mamba/micromamba install|create) into an Install appended to f.installs.
// Called by the engine on every parsed file.
void derive_installs(FileFacts& f);

// PEP 503 name normalisation: lower-case, runs of [-_.] -> '-'.
std::string normalize_pkg_name(std::string_view name);

// Parse one PEP 508 requirement ("torch[extra]==2.9.1+cu130 ; marker", "pkg @ URL",
// a wheel URL or file name). Fills every field except loc and hashed.
// Returns false when the text is not a requirement (empty, an option...).
bool parse_requirement(std::string_view text, Requirement& out);

// Parse one conda match spec ("pytorch-cuda=12.1", "cuda-version>=12.4,<13",
// "pytorch=2.5.1=cuda126_*", "conda-forge::numpy 1.26 py311_0"). A CUDA build
// string ("cuda126_...") is reported as local_version "cu126".
bool parse_conda_spec(std::string_view text, Requirement& out);

// "cu124" -> 124, "cu130" -> 130, "cu13" -> 130, "cu12" -> 120; -1 when not a CUDA tag.
int cuda_tag_value(std::string_view tag);

// The CUDA variant a wheel index / find-links URL serves: ".../whl/cu124" -> 124,
// ".../nightly/cu130" -> 130, "https://wheels.vllm.ai/0.20.1/cu130" -> 130,
// "https://docs.sglang.ai/whl/cu130/" -> 130; -1 when the URL names none.
int cuda_of_url(std::string_view url);

// The CUDA release inside a container image, from its reference.
struct ImageCuda {
  bool known = false;
  int major = 0, minor = 0;  // CUDA version, e.g. 12, 6
  bool ngc = false;          // nvcr.io/nvidia/<framework>:YY.MM tag
  std::string how;           // short explanation: "NGC 24.12 release (CUDA 12)", "nvidia/cuda:12.8.1"
};
ImageCuda image_cuda(std::string_view ref);
// nvcr.io/nvidia/<framework>:YY.MM... (pytorch, tritonserver, vllm, ...): a framework image
// whose torch stack is pinned by NVIDIA.
bool is_ngc_framework_image(std::string_view ref);

// CUDA major a package name embeds: "nvidia-cudnn-cu12" -> 12, "cupy-cuda12x" -> 12,
// "jax" with extra "cuda12" -> 12, "jax-cuda13-plugin" -> 13, "sgl-kernel" -> 12 (PyPI
// default build); 0 when the name says nothing.
int cuda_major_of_package(const Requirement& r);

// ---- install runs and environments (for the packaging rules) --------------

struct PkgMember {
  const ParsedFile* file;
  const Install* install;
};

// One installer invocation and everything it pulls in: a pip/uv/conda command with the
// requirements files it installs (-r, transitively), or a requirements file on its own.
struct PkgRun {
  const ParsedFile* file = nullptr;  // the file holding the command (or the root requirements file)
  const Install* install = nullptr;  // the command (or the root file's Install)
  std::vector<PkgMember> members;    // the install itself first, then included files
  std::vector<IndexUrl> indexes;     // every index in effect (command, ENV, all included files)
  std::vector<std::pair<std::string, Location>> inline_constraints;  // -c/--override values that are specs
  std::vector<const ParsedFile*> constraint_files;                   // resolved -c/--override files
  bool no_deps = false, upgrade = false, torch_backend = false;
  std::string torch_backend_value;
  std::map<std::string, const Requirement*> exact_pins;  // name -> exact pin in members/constraint files
};

// Where runs share one Python environment: a Dockerfile stage (with the runs of the stages
// it builds on) or one file on the host.
struct PkgEnv {
  const ParsedFile* dockerfile = nullptr;
  int stage = -1;
  const Image* image = nullptr;  // resolved base image of the stage
  std::vector<PkgRun> runs;
};

std::vector<PkgEnv> package_envs(const Project& p);
// True when pip on aarch64 Linux (the Spark) never installs this requirement: a PEP 508
// marker that needs x86_64/another OS, or a direct wheel URL built for another platform.
bool requirement_skips_aarch64(const Requirement& r);
// An exact pin (==, ===, hash, wheel URL) for `name` in the run, its constraint/override
// files or inline specs, or a project lock file.
bool run_pins(const Project& p, const PkgRun& run, const std::string& name);
// The exact pin itself, when there is one in the run's members or constraints.
const Requirement* run_pin(const PkgRun& run, const std::string& name);

}  // namespace sc

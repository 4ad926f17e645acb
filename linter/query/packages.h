// SPDX-License-Identifier: Apache-2.0
// Questions the packaging rules (G1, G2, G9) ask of the project model: which packages an
// environment installs, on which base image, whether a run pins a package, and what role a
// package plays in the torch/CUDA stack (knowledge/packages.yaml).
#pragma once
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/project.h"
#include "core/diagnostics.h"

namespace sc::query {

// One requirement installed in an environment, with the run and member file holding it.
struct InstalledPackage {
  const PkgEnv* env;
  const PkgRun* run;
  const PkgMember* member;
  const Requirement* req;
};

// The environments of the project (computed once by Project::link()).
const std::vector<PkgEnv>& environments(const Project& p);
// Every requirement of every run of `env`, in install order; those that pip never installs on
// aarch64 Linux (marker, foreign wheel) left out.
std::vector<InstalledPackage> packages_in(const PkgEnv& env);
// `pip install --no-index --find-links DIR pkgs`: wheels the user built or downloaded into DIR,
// not an index's release of the day. packages_in leaves them out: no drift, no PyPI build.
bool from_own_wheels(const Install& in);
// Every install of `name` across the project's environments (aarch64-excluded ones left out).
std::vector<InstalledPackage> installs_of(const Project& p, std::string_view name);
// The environment an install command runs in: its Dockerfile stage, or its host file; null for
// a requirements file that something else installs (see where_installed).
const PkgEnv* env_of(const Project& p, const Install& in);
// Does the run install `name` (any member)?
bool run_installs(const PkgRun& run, std::string_view name);

// An exact pin for `name` in the run, its constraint/override files or inline specs, or a lock file.
bool pinned(const Project& p, const PkgRun& run, const std::string& name);
// An exact (==, hash, URL) requirement on its own.
bool exact(const Requirement& r);
// Only a lower bound (">=x" with no upper bound).
bool lower_bound_only(const Requirement& r);

// Pip-like installers (pip, uv pip, uv add, a requirements file): the default index is PyPI.
bool pip_like(Installer t);
bool conda_like(Installer t);

// "installed by this command" when the requirement sits in another file than its command, and
// the RUN that runs the script holding the command in an image (Project::image_scripts).
std::vector<Related> command_of(const InstalledPackage& ip);
// The commands / Dockerfile stages that install requirements-like file `f` (with the base
// image of each stage), as related places; empty for other kinds of file.
std::vector<Related> install_sites(const Project& p, const ParsedFile& f);

// Where requirements-like file `f` is installed: the Dockerfile stages / host commands whose
// install runs pull it in (read off the environments), else one bare-host context.
std::vector<InstallContext> where_installed(const Project& p, const ParsedFile& f);
// The base image of a Dockerfile stage (following FROM <earlier stage>), or null.
const Image* base_image(const Project& p, const ParsedFile& dockerfile, int stage);

// The Dockerfiles that only compose services getting no GPU build (ComposeService::gpu false
// for every service that builds one, and for every service of those names in the project's
// other compose files, which may be overrides). One pass over the project.
std::set<const ParsedFile*> built_for_gpu_less_services(const Project& p);

// Is the run's --index-url (which replaces PyPI) one that serves no CUDA 13 build (knowledge
// cpu-indexes, or a cu12x index), with no CUDA 13 index beside it? G1 reports such an index;
// pinning the packages it serves (role pytorch-index) would pin the wrong build, so G9 leaves
// them to G1. An --extra-index-url leaves PyPI in play: G9 judges as usual.
bool index_without_cuda13(const PkgRun& run);

// The NGC framework image the environment runs on, or null.
const Image* ngc_image(const PkgEnv& env);

// Is `path` a file for another platform (knowledge/platforms.yaml other-platform-paths:
// a path segment such as `npu/`, `docker/rocm/`, `requirements-windows.txt`)? Only the part
// below the project's top folder counts (Project::below_top).
bool other_platform(const Project& p, std::string_view path);

// Is the image built for another platform (knowledge/platforms.yaml other-platform-images:
// rocm/*, Ascend CANN images, Windows containers)?
bool other_platform_image(const Image* im);
// Is the environment another platform's: a Dockerfile whose path says so, or a stage on an
// other-platform image?
bool other_platform_env(const Project& p, const PkgEnv& env);
// Is an install in file `f` for another platform: the file's path, its Dockerfile stage's
// image, or (Markdown) the section it is written in?
bool other_platform_install(const Project& p, const ParsedFile& f, const Install& in);

// Is line `line` of a Markdown file in a section for another platform: the nearest heading
// above it (or one of that heading's parents) that names a platform names another one
// (knowledge/platforms.yaml other-platform-headings: `## AMD ROCm`, `### MI355X`, `## macOS`)?
// A heading that also names the Spark's (`Linux`, `aarch64`, `DGX Spark`) is not another's.
bool other_platform_section(const FileFacts& f, int line);
// Is the file a copy of an outside page: its front matter names the page's http(s) address and
// when or by what it was copied (knowledge/documents.yaml copied-page-keys)? Nothing in it is
// the project's setup.
bool copied_page(const FileFacts& f);
// other_platform(at.path), or other_platform_section of the file at `at`.
bool other_platform_at(const Project& p, const Location& at);
// An explicit uv index that serves nothing on the Spark: every [tool.uv.sources] entry that
// sends a package to it has a marker false there (platform_machine == 'x86_64'), or none does.
bool index_off_spark(const IndexUrl& ix);
// A package installed for another platform: by its requirement's place, or by the place of the
// command that installs it (`pip install -r requirements.txt` in colab_train.ipynb).
bool other_platform_package(const Project& p, const InstalledPackage& ip);

// What earlier and later runs of an environment install, asked per run. Each environment is
// indexed once on first use, so a file of many installs costs what its length costs.
class InstallOrder {
 public:
  InstallOrder();
  ~InstallOrder();
  InstallOrder(const InstallOrder&) = delete;
  InstallOrder& operator=(const InstallOrder&) = delete;

  // A torch already in the environment before `run`: an exact `torch` pin of an earlier run
  // (earlier RUN of the stage or of the stages it builds on, earlier line of a script), a torch
  // an earlier run took from a CUDA index or uv backend (any version), or a conda `pytorch` /
  // `pytorch-cuda` pin. Null when none.
  const Requirement* torch_before(const PkgEnv& env, const PkgRun& run);

  // An earlier run of the environment that installs a local project directory (`pip install
  // -e .`, `pip install ../framework`): what it pulled in (torch too) is not read. Null when none.
  const Install* project_before(const PkgEnv& env, const PkgRun& run);

  // A CUDA torch (exact pin, or from a CUDA index) that the project installs into the named
  // conda environment the run's file has active at the run (`conda activate NAME` above it):
  // a guide's later page that re-enters the env of an earlier one. Null when none.
  const Requirement* torch_in_conda_env(const Project& p, const PkgRun& run);

  // The requirement of r's package that an earlier run of the environment installed and that
  // `r` leaves in place: pip keeps an installed version the specifier allows (an exact pin
  // inside it, or a torch from a CUDA index for a bare name or a lower bound). Only where the
  // runs are one sequence (a Dockerfile stage, a shell script); null when none, or when the run
  // upgrades (-U). `cuda` (when given) says whether that install is known to be a CUDA build.
  const Requirement* kept_from_earlier(const PkgEnv& env, const PkgRun& run, const Requirement& r,
                                       bool* cuda = nullptr);

  // An exact pin of `name` in a later run of the same sequence (a RUN of the Dockerfile stage,
  // a later line of the script or notebook, of the Markdown code block or of the CI job): what
  // the environment ends with, whatever `run` installed. Null if none.
  const Requirement* pinned_later(const PkgEnv& env, const PkgRun& run, const std::string& name);

  // Does a later command of the run's sequence (a later RUN of its Dockerfile stage, a later
  // line of its script) remove what the run installed: `pip uninstall -y NAME`, or `rm -rf DIR`
  // of the venv whose pip (`DIR/bin/pip`) ran the install? Build-time tooling a cleanup removes.
  bool removed_later(const PkgEnv& env, const PkgRun& run, const std::string& name);

 private:
  struct EnvIndex;
  EnvIndex& index(const PkgEnv& env);
  std::map<const PkgEnv*, std::unique_ptr<EnvIndex>> envs_;
  struct Cleanup {  // a command that uninstalls packages or removes folders
    int line = 0, stage = -1;
    std::set<std::string> uninstalled;
    std::vector<std::string> removed_dirs;
  };
  struct FileCleanups {
    std::vector<Cleanup> cleanups;                  // in file order, at most kMaxCleanups
    std::map<int, const Command*> command_at_line;  // the first command of each line
  };
  const FileCleanups& cleanups(const ParsedFile& f);
  std::map<const ParsedFile*, FileCleanups> cleanups_;  // per file, on first ask
  std::optional<std::map<std::string, const Requirement*>> conda_torch_;  // env name -> its torch
};

// Where a run installs, in a user's words: "in the python:3.12 stage of Dockerfile", "inside
// nvcr.io/... (compose service 'train')", "in the venv setup.sh creates", "on the host (x.sh)".
std::string install_place(const PkgEnv& env, const PkgRun& run);

// The setting (Dockerfile ARG/ENV, shell assignment or export) in `f` whose line writes `value`
// into a variable the line at `use` expands ($NAME, ${NAME}): the last one before `use` (a bare
// `ARG NAME` re-declaring a global ARG is skipped for the global); null when the value was
// written on the use's line itself.
const EnvSetting* setting_behind(const ParsedFile& f, const Location& use, std::string_view value);

// An --index-url / --extra-index-url that is neither PyPI (or a mirror of it) nor PyTorch's nor
// behind a variable: a project's own wheel index, which may serve CUDA or prebuilt builds
// (knowledge/cuda.yaml public-package-indexes).
bool own_wheel_index(const IndexUrl& ix);
// Does any index of the run qualify? Asked per requirement, answered once per run (the last
// run asked is remembered: one command may name thousands of requirements and indexes).
bool has_own_wheel_index(const PkgRun& run);

// Does the environment's base image ship a CUDA torch (knowledge/containers.yaml torch-images)?
bool image_ships_torch(const PkgEnv& env);
// The environment's base image is one name with no registry or namespace that is no Docker
// Official Image (knowledge docker-official-images) and no image the project builds: built
// elsewhere (`FROM vllm-node-tf5:latest`), so what it already holds is unknown.
bool unknown_local_image(const PkgEnv& env);

// knowledge/packages.yaml ml-packages: does `name` play `role` (core-stack, depends-on-torch,
// replaces-ngc-torch, cuda-kernels)?
bool has_role(std::string_view name, std::string_view role);
// Every ml-packages name with `role`, in file order.
std::vector<std::string> with_role(std::string_view role);

}  // namespace sc::query

// SPDX-License-Identifier: Apache-2.0
// Install runs (one installer invocation and what it pulls in) and the Python
// environments they share: a Dockerfile stage with the stages it builds on, or a host file.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/facts.h"

namespace sc {
struct ParsedFile;
class Project;
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
  int stage = -1;                    // the Dockerfile stage it runs in (-1 on the host)
  Location via;                      // the RUN that runs the script holding `install`, when one does
  std::vector<PkgMember> members;    // the install itself first, then included files
  std::vector<IndexUrl> indexes;     // every index in effect (command, ENV, all included files)
  std::vector<Requirement> inline_constraints;  // -c/--override values that are specs, parsed
  std::vector<const ParsedFile*> constraint_files;                   // resolved -c/--override files
  std::vector<const ParsedFile*> command_constraints;  // those the command itself names (-c on the command line)
  bool no_deps = false, upgrade = false, torch_backend = false;
  bool after_venv = false;           // `file` makes a virtual environment on an earlier line
  // a -c/--override file that is not in the project (made by `pip freeze` during the build, a
  // URL, a path outside the tree): what it pins is unknown
  bool unseen_constraints = false;
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

// Every environment of the project; computed once by Project::link() (Project::envs).
std::vector<PkgEnv> package_envs(const Project& p);
// A requirement pinned on its own: ==/===, a hash, a wheel or archive URL, or a VCS URL at a
// full commit hash or a version tag (a branch such as `@main`, or no ref, moves: not a pin).
bool exact_pin(const Requirement& r);

// An exact pin (==, ===, hash, wheel URL) for `name` in the run, its constraint/override
// files or inline specs, or a project lock file.
bool run_pins(const Project& p, const PkgRun& run, const std::string& name);
// The exact pin itself, when there is one in the run's members or constraints.
const Requirement* run_pin(const PkgRun& run, const std::string& name);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// What a host environment is for: the Python it runs after an install, read off the commands
// that follow the install in the same file (and the project scripts those commands run).
#pragma once
#include <map>
#include <memory>

#include "analysis/project.h"

namespace sc::query {

// Does the host environment of a run only feed CPU-side tooling (checkpoint conversion,
// metadata, downloads)? True when the commands after the install in the run's file (and the
// project shell scripts they run) start a project Python script or module at least once, and
// every Python run (those scripts with their project imports, inline `-c` code, a `python -`
// heredoc, a Markdown Python block below the install) names none of
// knowledge/packages.yaml gpu-use-words, no launcher or GPU program runs there, and the
// install has no CUDA-kernel package. False in a Dockerfile stage or container, and whenever a
// run cannot be read (a script outside the project, a module that is not a project file).
// Each file's commands are judged once, whatever the number of installs in it.
class CpuTooling {
 public:
  explicit CpuTooling(const Project& p);
  ~CpuTooling();
  CpuTooling(const CpuTooling&) = delete;
  CpuTooling& operator=(const CpuTooling&) = delete;
  bool operator()(const PkgEnv& env, const PkgRun& run);

 private:
  struct FileSuffixes;
  const FileSuffixes& suffixes(const ParsedFile& f);
  bool judge(const PkgEnv& env, const PkgRun& run);
  const Project& p_;
  std::map<const PkgRun*, bool> runs_;
  std::map<const ParsedFile*, std::unique_ptr<FileSuffixes>> files_;
};

}  // namespace sc::query

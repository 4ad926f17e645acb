// SPDX-License-Identifier: Apache-2.0
// Git repositories side by side: a lint root that is in no git work tree but holds several
// repositories (a folder of clones) is linted one repository at a time, each as its own
// project. Links and project-wide evidence stay inside a repository, and memory holds one
// repository's facts at a time. Files in no repository are one more project.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/walk.h"
#include "engine/engine.h"

namespace sc {

struct LintUnit {
  std::string dir;  // the repository's display path; "." for the files in no repository
  std::vector<WalkedFile> files;  // walked already, in walk order
  std::vector<std::string> walks;  // repositories (absolute) the unit's run walks itself
};

// Is `dir` (absolute) in a git work tree: does it or a folder above it hold `.git`?
bool in_git_work_tree(const std::string& dir);

// The walked files, and the repositories the walk did not enter, grouped by the outermost
// repository below `root` that holds them (a folder with a `.git` entry, looked up with
// lstat); repositories inside one stay with it. One unit when there is at most one group.
// Units come in display-path order, the files in no repository first.
std::vector<LintUnit> split_into_units(std::vector<WalkedFile> files, const std::string& root,
                                       const std::vector<std::string>& repositories = {});

// What a split run keeps of each unit until the run ends, as bytes: its findings, the files
// they and its notifications name (without facts: outputs re-read their lines), its
// notifications and, when listed, its linted files. Kept apart from the unit's objects, it
// pins none of the memory the unit used; equal messages and fixes become one shared string.
class UnitSpill {
 public:
  void put(const LintResult& unit, bool list_linted);
  // Appends everything put, in order, to `into` (its findings then want sorting).
  void take(LintResult& into);

 private:
  std::vector<std::string> blocks_;  // one per unit
  std::unordered_map<std::string, uint32_t> text_ids_;  // message and fix texts
  std::vector<std::string> texts_;
};

// Adds a unit's counts, cache report and flags to the whole run's result; without a spill
// (one unit) also its project, findings, notifications and linted files, else those go to
// the spill.
void add_unit_result(LintResult& into, LintResult unit, UnitSpill* spill, bool list_linted);

}  // namespace sc

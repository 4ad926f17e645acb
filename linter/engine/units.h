// Git repositories side by side: a lint root that is in no git work tree but holds several
// repositories (a folder of clones) is linted one repository at a time, each as its own
// project. Links and project-wide evidence stay inside a repository, and memory holds one
// repository's facts at a time. Files in no repository are one more project.
#pragma once
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

// The texts of a split run's findings: equal messages and fixes made one shared string.
class SharedTexts {
 public:
  void share(SharedText& t);

 private:
  std::unordered_map<std::string_view, std::shared_ptr<const std::string>> seen_;  // views into the values
};

// Adds one unit's run to the whole run's result. Split: the unit's project goes, but for
// copies without facts of the files its findings and notifications name (outputs re-read
// their lines), and its findings' texts are shared through `texts`; else (one unit) the
// run's project is the unit's.
void add_unit_result(LintResult& into, LintResult unit, bool split, SharedTexts& texts);

}  // namespace sc

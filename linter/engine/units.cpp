// SPDX-License-Identifier: Apache-2.0
// Git repositories side by side, linted one at a time (see units.h).
#include "engine/units.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <unordered_map>

namespace sc {

namespace fs = std::filesystem;

bool in_git_work_tree(const std::string& dir) {
  for (fs::path q = fs::path(dir);; q = q.parent_path()) {
    struct stat st;
    if (lstat((q / ".git").c_str(), &st) == 0) return true;
    if (!q.has_parent_path() || q.parent_path() == q) return false;
  }
}

namespace {

// The outermost repository folder above a display path ("" when none). Walked files come
// folder by folder, so the last folder's answer is kept; each folder is looked up once.
class OutermostRepo {
 public:
  explicit OutermostRepo(std::string root) : root_(std::move(root)) {}

  const std::string& of(const std::string& display) {
    size_t slash = display.rfind('/');
    std::string_view dir = slash == std::string::npos ? std::string_view() : std::string_view(display).substr(0, slash);
    if (dir == last_dir_) return last_repo_;
    last_dir_ = dir;
    last_repo_.clear();
    if (dir.empty() || dir.front() == '/') return last_repo_;  // at the root, or outside it
    for (size_t end = 0; end != std::string_view::npos;) {
      end = dir.find('/', end + 1);
      std::string_view prefix = dir.substr(0, end);
      if (holds_git(prefix)) {
        last_repo_ = prefix;
        break;
      }
    }
    return last_repo_;
  }

 private:
  bool holds_git(std::string_view dir) {
    auto [it, fresh] = known_.try_emplace(std::string(dir), false);
    if (fresh) {
      struct stat st;
      it->second = lstat((root_ + "/" + it->first + "/.git").c_str(), &st) == 0;
    }
    return it->second;
  }
  std::string root_;
  std::unordered_map<std::string, bool> known_;
  std::string last_dir_ = "/", last_repo_;  // "/": no folder asked yet
};

}  // namespace

std::vector<LintUnit> split_into_units(std::vector<WalkedFile> files, const std::string& root,
                                       const std::vector<std::string>& repositories) {
  OutermostRepo repo(root == "/" ? "" : root);
  std::map<std::string, LintUnit> groups;  // "" (no repository) sorts first
  for (WalkedFile& wf : files) groups[repo.of(wf.display)].files.push_back(std::move(wf));
  for (const std::string& abs : repositories)  // the repository itself, or one holding it
    groups[repo.of(display_path(abs, root) + "/-")].walks.push_back(abs);
  std::vector<LintUnit> units;
  if (groups.size() <= 1) {
    for (auto& [dir, g] : groups) units.push_back({".", std::move(g.files), std::move(g.walks)});
    if (units.empty()) units.push_back({".", {}, {}});
    return units;
  }
  for (auto& [dir, g] : groups) {
    g.files.shrink_to_fit();
    units.push_back({dir.empty() ? "." : dir, std::move(g.files), std::move(g.walks)});
  }
  return units;
}

}  // namespace sc


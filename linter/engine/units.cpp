// Git repositories side by side, linted one at a time (see units.h).
#include "engine/units.h"

#include <sys/stat.h>

#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <set>
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

namespace sc {

namespace {

// A file's record without its facts: what outputs read (its lines, re-read when released),
// under lasting paths.
std::shared_ptr<const ParsedFile> without_facts(const ParsedFile& pf) {
  auto copy = std::make_shared<ParsedFile>();
  copy->src = pf.src;
  copy->abs_path = PathRef::lasting(pf.abs_path);
  copy->src.set_paths(PathRef::lasting(pf.src.path()), copy->abs_path);
  copy->content_hash = pf.content_hash;
  copy->line_memo = pf.line_memo;
  return copy;
}

void add_cache_report(CacheReport& into, CacheReport& r) {
  if (!r.used && r.note.empty()) return;
  if (into.file.empty()) into.file = std::move(r.file);
  else if (!r.file.empty()) ++into.more_files;
  if (into.note.empty()) into.note = std::move(r.note);
  into.used = into.used || r.used;
  into.saved = into.saved || r.saved;
  into.loaded += r.loaded, into.hits += r.hits, into.misses += r.misses;
  into.load_ms += r.load_ms, into.save_ms += r.save_ms;
}

// The unit's files that its findings and notifications name go to `into`, without facts.
void keep_named_files(Project& into, const LintResult& unit) {
  std::set<const ParsedFile*> kept;
  auto keep = [&](const std::string& path) {
    if (const ParsedFile* pf = unit.project.find(path); pf && kept.insert(pf).second)
      into.files.push_back(without_facts(*pf));
  };
  for (const Finding& f : unit.findings) {
    keep(f.loc.path);
    for (const Related& r : f.related) keep(r.loc.path);
    for (const Fix& fx : f.fixes)
      for (const Edit& e : fx.edits) keep(e.loc.path);
  }
  for (const Notification& n : unit.notifications)
    if (!n.path.empty()) keep(n.path);
}

}  // namespace

// The paths a finding names, made lasting (the unit's scope ends).
void make_lasting(Finding& f) {
  f.loc.path = PathRef::lasting(f.loc.path);
  for (Related& r : f.related) r.loc.path = PathRef::lasting(r.loc.path);
  for (Fix& fx : f.fixes)
    for (Edit& e : fx.edits) e.loc.path = PathRef::lasting(e.loc.path);
}

void SharedTexts::share(SharedText& t) {
  if (t.empty()) return;
  auto [it, fresh] = seen_.try_emplace(std::string_view(t.str()), t.shared());
  if (!fresh) t = SharedText(it->second);
}

void add_unit_result(LintResult& into, LintResult unit, bool split, SharedTexts& texts) {
  if (split) {
    keep_named_files(into.project, unit);
    for (Finding& f : unit.findings) {
      make_lasting(f);
      texts.share(f.message);
      texts.share(f.fix);
    }
    for (PathRef& p : unit.linted) p = PathRef::lasting(p);
  }
  into.files_linted += unit.files_linted;
  for (auto& n : unit.notifications) into.notifications.push_back(std::move(n));
  into.complete = into.complete && unit.complete;
  into.input_error = into.input_error || unit.input_error;
  into.baselined += unit.baselined;
  into.baseline_applied = into.baseline_applied || unit.baseline_applied;
  add_cache_report(into.cache, unit.cache);
  if (!split) {
    into.project = std::move(unit.project);
    into.findings = std::move(unit.findings);
    into.linted = std::move(unit.linted);
    return;
  }
  into.findings.insert(into.findings.end(), std::make_move_iterator(unit.findings.begin()),
                       std::make_move_iterator(unit.findings.end()));
  into.linted.insert(into.linted.end(), unit.linted.begin(), unit.linted.end());
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Project: file lookup and the cross-file links (requirements includes,
// Dockerfile COPY + pip install -r, scripts that install a requirements file).
#include "analysis/project.h"
#include "core/path_names.h"
#include "analysis/paths.h"

#include "analysis/launch.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string_view>

namespace sc {
namespace {

// Collapse "a/./b/../c" -> "a/c"; keeps a leading '/' for absolute paths.
// No empty, "." or ".." part (a leading '/' aside): normalize_path would return it unchanged.
bool normal_path(std::string_view p) {
  size_t i = !p.empty() && p[0] == '/' ? 1 : 0;
  if (i == p.size()) return true;  // "" or "/"
  for (;;) {
    size_t e = std::min(p.find('/', i), p.size());
    std::string_view s = p.substr(i, e - i);
    if (s.empty() || s == "." || s == "..") return false;
    if (e == p.size()) return true;
    i = e + 1;
  }
}

std::string normalize_path(const std::string& p) {
  if (normal_path(p)) return p;  // the usual case: no parts to build
  bool abs = !p.empty() && p[0] == '/';
  std::vector<std::string> parts;
  for (auto& s : split(p, '/')) {
    if (s.empty() || s == ".") continue;
    if (s == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!abs) parts.push_back("..");
      continue;
    }
    parts.push_back(s);
  }
  std::string out = abs ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

std::string dir_of(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? std::string() : p.substr(0, s);
}


std::string join_path(const std::string& dir, const std::string& rel) {
  if (dir.empty()) return normalize_path(rel);
  return normalize_path(dir + "/" + rel);
}

// "-c torch==2.10.0" written where a file is expected: a spec, not a file.
bool looks_like_spec(const std::string& v) {
  if (v.find('/') != std::string::npos) return false;
  return v.find("==") != std::string::npos || v.find(">=") != std::string::npos ||
         v.find("<=") != std::string::npos || v.find("~=") != std::string::npos;
}

bool unresolved_text(const std::string& v) {
  return v.empty() || v.find('$') != std::string::npos || v.find('*') != std::string::npos ||
         v.find("://") != std::string::npos;
}

}  // namespace

std::string path_in_dir(const std::string& dir, const std::string& rel) { return join_path(dir, rel); }

ParsedFile* Project::own(const ParsedFile* f) {
  for (ParsedFile* mine : owned_)
    if (mine == f) return mine;
  for (auto& slot : files) {
    if (slot.get() != f) continue;
    f->memo();  // the copy shares it
    auto copy = std::make_shared<ParsedFile>(*f);
    ParsedFile* mine = copy.get();
    replaced_.push_back(std::move(slot));
    slot = std::move(copy);
    owned_.push_back(mine);
    indexed_files_ = lock_indexed_files_ = static_cast<size_t>(-1);  // they point at the file replaced
    return mine;
  }
  return nullptr;
}

bool Project::skips_test(const ParsedFile& f) const { return !target.include_tests && is_test_path(f.src.path()); }

// `abs` is `root`/`display`: find() reaches it by its display path once the root is taken off
// (not for the root "/", which find() does not take off).
static bool under_root_as(std::string_view abs, std::string_view root, std::string_view display) {
  return root != "/" && abs.size() == root.size() + 1 + display.size() && abs.substr(0, root.size()) == root &&
         abs[root.size()] == '/' && abs.substr(root.size() + 1) == display;
}

void Project::sort_index(PathIndex& ix) {
  std::stable_sort(ix.begin(), ix.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  ix.erase(std::unique(ix.begin(), ix.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), ix.end());
  ix.shrink_to_fit();
}

const ParsedFile* Project::look_up(const PathIndex& ix, std::string_view path) {
  auto it = std::lower_bound(ix.begin(), ix.end(), path, [](const auto& e, std::string_view p) { return e.first < p; });
  return it != ix.end() && it->first == path ? it->second : nullptr;
}

const ParsedFile* Project::find(const std::string& display_path) const {
  if (indexed_files_ != files.size()) {
    index_.clear(), abs_index_.clear();
    index_.reserve(files.size());
    for (const auto& f : files) {
      PathRef display = f->src.path();
      if (std::string n = normalize_path(display); n != display) display = n;  // rare: interned
      index_.emplace_back(display.str(), f.get());
      if (!under_root_as(f->abs_path, root, display)) abs_index_.emplace_back(f->abs_path, f.get());
    }
    sort_index(index_), sort_index(abs_index_);
    indexed_files_ = files.size();
  }
  std::string p = normalize_path(display_path);
  if (const ParsedFile* f = look_up(index_, p)) return f;
  if (!p.empty() && p[0] == '/') {
    if (const ParsedFile* f = look_up(abs_index_, p)) return f;
    std::string r = normalize_path(root);
    if (!r.empty() && starts_with(p, r + "/")) return find(p.substr(r.size() + 1));
  }
  return nullptr;
}

const ParsedFile* Project::resolve(const ParsedFile& from, const std::string& target) const {
  if (target.empty()) return nullptr;
  if (target[0] == '/') return find(target);
  std::string t = target;
  if (starts_with(t, "file:")) t = t.substr(5);
  if (const ParsedFile* f = find(join_path(dir_of(from.src.path()), t))) return f;
  return nullptr;
}

const ParsedFile* Project::resolve_relative(const ParsedFile& from, const std::string& path) const {
  if (path.empty() || path[0] == '/') return nullptr;
  const ParsedFile* f = resolve(from, path);
  return f ? f : find(join_path("", path));
}

const Image* Project::stage_image(const ParsedFile& df, int stage) const {
  const ParsedFile* file = &df;
  std::set<std::pair<const ParsedFile*, int>> seen;
  while (stage >= 0 && stage < static_cast<int>(file->facts->images.size()) && seen.insert({file, stage}).second) {
    const Image& im = file->facts->images[stage];
    if (im.from_stage) {
      stage = im.parent_stage;
      continue;
    }
    const ParsedFile* built = file->facts->kind == FileKind::Dockerfile ? local_image(*file, im.ref) : nullptr;
    if (!built || built->facts->images.empty()) return &im;
    file = built;  // FROM an image the project builds: its last stage
    stage = static_cast<int>(built->facts->images.size()) - 1;
  }
  return nullptr;
}

bool Project::stage_built(const ParsedFile& df, int stage) const {
  const auto& imgs = df.facts->images;
  if (stage < 0 || stage >= static_cast<int>(imgs.size()) || !imgs[stage].unused) return true;
  return build_targets_.count(lower(imgs[stage].stage_name)) > 0;
}

// The stage names builds target: `--target NAME` / `--target=NAME` in any command, and any
// config value under a `target` key (compose `build.target`, a CI build step's `target:`).
void Project::find_build_targets() {
  build_targets_.clear();
  for (const auto& f : files) {
    for (const Command& c : f->facts->commands)
      if (auto t = flag_value(c, {"--target"})) build_targets_.insert(lower(t->text));
    for (const ConfigEntry& e : f->facts->config)
      if (e.scalar && e.key() == "target") build_targets_.insert(lower(e.value));
  }
}

// Does `dir` hold `other` (or is it the same folder)? "" is the lint root.
static bool holds_dir(const std::string& dir, const std::string& other) {
  return dir.empty() || other == dir || starts_with(other, dir + "/");
}

bool Project::has_lockfile_pin(const std::string& pkg, const std::string& for_path) const {
  std::string n = lower(pkg);
  for (char& c : n)
    if (c == '_' || c == '.') c = '-';
  if (lock_indexed_files_ != files.size()) {
    lockfiles_.clear();
    for (const auto& f : files)
      if (f->facts->lockfile) lockfiles_.push_back(f.get());
    lock_indexed_files_ = files.size();
  }
  std::string dir = dir_of(for_path);
  for (const ParsedFile* f : lockfiles_) {
    // a sub-project's lock file pins its own tree, not a sibling sub-project or the root
    if (!holds_dir(dir_of(f->src.path()), dir)) continue;
    auto it = f->facts->locked.find(n);
    if (it != f->facts->locked.end() && !it->second.empty()) return true;
  }
  return false;
}

// Does a RUN of the stage chain clone a repository (`git clone URL`) before `before_line`?
// A relative path installed after it most likely names the clone's file, not the project's.
static bool clones_before(const ParsedFile& df, const std::set<int>& chain, int before_line) {
  return std::any_of(df.facts->commands.begin(), df.facts->commands.end(), [&](const Command& c) {
    return chain.count(c.stage) && (before_line <= 0 || c.loc.range.line <= before_line) && c.argv.size() > 2 &&
           base_name(c.argv[0].text) == "git" && c.argv[1].text == "clone";
  });
}

// `rel` in a folder above `dir`, below the project's top, nearest first: a build context that
// holds the Dockerfile's folder (compose `context: .` with `dockerfile: svc/Dockerfile`,
// `docker build -f docker/Dockerfile .`).
static const ParsedFile* in_folder_above(const Project& p, const std::string& dir, const std::string& rel) {
  if (dir.empty()) return nullptr;
  for (std::string d = dir_of(dir);; d = dir_of(d)) {
    if (d == p.top || (!p.top.empty() && !starts_with(d, p.top + "/"))) return nullptr;
    if (const ParsedFile* f = p.find(join_path(d, rel))) return f;
    if (d.empty()) return nullptr;
  }
}

// A path written inside a Dockerfile RUN (container path) -> the project file that a
// COPY/ADD earlier in the same stage chain put there.
const ParsedFile* container_file(const Project& p, const ParsedFile& df, int stage, int before_line,
                                 const std::string& value, bool copied_only) {
  std::set<int> chain;
  for (int s = stage; s >= 0 && chain.insert(s).second;) {
    if (s >= static_cast<int>(df.facts->images.size())) break;
    const Image& im = df.facts->images[s];
    s = im.from_stage ? im.parent_stage : -1;
  }
  std::string vbase = base_name(value);
  std::string dfdir = dir_of(df.src.path());
  auto in_context = [&](const std::string& rel) -> const ParsedFile* {
    if (const ParsedFile* f = p.find(join_path(dfdir, rel))) return f;
    if (const ParsedFile* f = in_folder_above(p, dfdir, rel)) return f;
    // the build context is the folder the user named (the repository), or the lint root
    if (const ParsedFile* f = p.top.empty() ? nullptr : p.find(join_path(p.top, rel))) return f;
    return p.find(normalize_path(rel));
  };
  const ParsedFile* best = nullptr;
  for (const FileRef& r : df.facts->refs) {
    if (r.kind != RefKind::Copy || !chain.count(r.stage)) continue;
    if (before_line > 0 && r.loc.range.line > before_line) continue;
    std::string src = r.target;
    std::string dest = r.dest;
    if (unresolved_text(src)) continue;
    // 1. a file copied under the same name
    if (base_name(src) == vbase && src != "." && src != "./") {
      if (const ParsedFile* f = in_context(src)) best = f;
      continue;
    }
    // 2. a directory copied: value relative to the destination
    std::string rel;
    std::string d = normalize_path(dest);
    std::string v = normalize_path(value);
    if (!d.empty() && d != "." && starts_with(v, d + "/")) rel = v.substr(d.size() + 1);
    else if (!v.empty() && v[0] != '/') rel = v;
    if (!rel.empty())
      if (const ParsedFile* f = in_context(join_path(src, rel))) best = f;
  }
  if (best || copied_only) return best;
  if (!value.empty() && value[0] != '/' && !clones_before(df, chain, before_line)) return in_context(value);
  return nullptr;
}

// The script a RUN command runs: `bash [-flags] FILE`, `sh FILE`, `source FILE`, `. FILE`,
// or a path as the program (`./install.sh`, `/opt/setup.sh`); "" for anything else.
std::string script_of(const Command& c) {
  if (c.argv.empty() || !c.argv[0].resolved) return "";
  std::string prog = c.argv[0].text.substr(c.argv[0].text.rfind('/') == std::string::npos ? 0 : c.argv[0].text.rfind('/') + 1);
  if (prog == "bash" || prog == "sh" || prog == "zsh" || prog == "dash" || prog == "source" || prog == ".") {
    for (size_t i = 1; i < c.argv.size(); ++i) {
      const Word& w = c.argv[i];
      if (!w.resolved) return "";
      if (w.text == "-c") return "";  // a script given as text, not a file
      if (!starts_with(w.text, "-")) return w.text;
    }
    return "";
  }
  const std::string& p = c.argv[0].text;
  return p.find('/') != std::string::npos && ends_with(p, ".sh") ? p : "";
}

// A requirements file a RUN reads with another program after a COPY put it in the image
// (`grep -v '^torch' /tmp/req.txt > /tmp/filtered.txt`): the image installs what that
// program makes of it, so the file is not a bare-pip install of its own.
void Project::note_filtered_requirements(const ParsedFile& df, const Command& c) {
  if (c.argv.empty() || c.argv[0].text == "pip" || c.argv[0].text == "pip3" || c.argv[0].text == "uv") return;
  for (size_t i = 1; i < c.argv.size(); ++i) {
    const Word& w = c.argv[i];
    if (!w.resolved || w.text.empty() || w.text[0] == '-' || w.text.find('/') == std::string::npos) continue;
    if (!ends_with(w.text, ".txt") && !ends_with(w.text, ".in")) continue;  // only a requirements file's name
    const ParsedFile* t = container_file(*this, df, c.stage, c.loc.range.line, w.text, true);
    if (t && t->facts->kind == FileKind::Requirements) filtered_requirements_.insert(t);
  }
}

void Project::link_image_scripts() {
  image_scripts.clear();
  filtered_requirements_.clear();
  for (const auto& up : files) {
    const ParsedFile& df = *up;
    if (df.facts->kind != FileKind::Dockerfile) continue;
    for (const Command& c : df.facts->commands) {
      if (c.stage < 0 || c.context != CommandContext::Run) continue;
      note_filtered_requirements(df, c);
      std::string path = script_of(c);
      if (path.empty() || unresolved_text(path)) continue;
      const ParsedFile* s = container_file(*this, df, c.stage, c.loc.range.line, path, true);
      if (s && s != &df && s->facts->kind == FileKind::Shell) image_scripts[s].push_back({&df, c.stage, c.loc});
    }
  }
}

void Project::link() {
  installed_by.clear();
  included_by.clear();
  constrained_by.clear();
  notes.clear();
  if (!builds_linked_) {
    link_sourced_files();
    link_compose_builds();
    link_compose_scripts();
  }
  builds_linked_ = true;
  link_requirement_files();
  link_image_scripts();
  find_include_cycles();
  find_build_targets();
  find_local_images();
  envs = package_envs(*this);
  index_contexts();
}

// A requirements file that an -r/-c/--override names but the linted tree lacks.
static Notification missing_include(const ParsedFile& f, const std::string& value, const Location& loc) {
  std::error_code ec;
  std::filesystem::path disk = std::filesystem::path(f.abs_path.str()).parent_path() / value;
  bool exists = !f.abs_path.empty() && std::filesystem::is_regular_file(disk, ec);
  return {Level::Warning, f.src.path(), loc.range,
          f.src.path() + ":" + std::to_string(loc.range.line) + ": included file '" + value +
              (exists ? "' exists but is not linted as a requirements file (name it "
                        "requirements-*.txt or constraints*.txt); its requirements were not checked"
                      : "' was not found in the linted tree; its requirements were not checked"),
          "missing-include"};
}

void Project::link_one_target(const ParsedFile& f, const Install& in, const std::string& value, const Location& loc,
                              bool is_constraint) {
  if (looks_like_spec(value) || unresolved_text(value)) return;
  if (f.facts->kind == FileKind::Dockerfile) {
    const ParsedFile* t = container_file(*this, f, in.stage, in.loc.range.line, value);
    if (t && t != &f) installed_by[t].push_back({&f, in.stage, in.loc, &f, &in, is_constraint});
  } else if (in.tool == sc::Installer::RequirementsFile) {
    const ParsedFile* t = resolve(f, value);
    if (!t) {
      notes.push_back(missing_include(f, value, loc));
      return;
    }
    auto& v = is_constraint ? constrained_by[t] : included_by[t];
    if (std::find(v.begin(), v.end(), &f) == v.end()) v.push_back(&f);
  } else {
    const ParsedFile* t = resolve(f, value);
    if (!t) t = find(value);
    if (t && t != &f) installed_by[t].push_back({nullptr, -1, in.loc, &f, &in, is_constraint});
  }
}

// installed_by / included_by / constrained_by from every -r/-c/--override of every install.
void Project::link_requirement_files() {
  for (const auto& up : files)
    for (const Install& in : up->facts->installs) {
      for (const auto& [value, loc] : in.requirement_files) link_one_target(*up, in, value, loc, false);
      for (const auto& [value, loc] : in.constraint_files) link_one_target(*up, in, value, loc, true);
    }
}

// Include cycles: report each once, at the include that closes it. Files that all include
// each other close a cycle at nearly every include (300 files: 45,000 notes of up to 300
// names each, 132 MB): at most kMaxCycleNotes notes, each chain cut to kMaxChain names,
// and one more note counting the rest.
void Project::find_include_cycles() {
  constexpr size_t kMaxCycleNotes = 20, kMaxChain = 8;
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> children;
  for (auto& [child, parents] : included_by)
    for (auto* par : parents) children[par].push_back(child);
  std::map<const ParsedFile*, int> color;  // 0 new, 1 on stack, 2 done
  std::vector<const ParsedFile*> stack;
  size_t cycles = 0;
  const ParsedFile* first = nullptr;
  std::function<void(const ParsedFile*)> dfs = [&](const ParsedFile* n) {
    color[n] = 1;
    stack.push_back(n);
    for (const ParsedFile* c : children[n]) {
      if (color[c] == 1) {
        if (cycles++ >= kMaxCycleNotes) continue;
        if (!first) first = n;
        std::string chain;
        auto it = std::find(stack.begin(), stack.end(), c);
        size_t len = static_cast<size_t>(stack.end() - it), i = 0;
        for (; it != stack.end(); ++it, ++i) {
          if (len > kMaxChain && i == kMaxChain - 1) {
            chain += "... (" + std::to_string(len - kMaxChain) + " more) -> ";
            it = stack.end() - 1;
            i = len - 1;
          }
          chain += (*it)->src.path() + " -> ";
        }
        chain += c->src.path();
        Range r;
        for (const Install& in : n->facts->installs)
          for (auto& [v, l] : in.requirement_files)
            if (resolve(*n, v) == c) r = l.range;
        for (const Install& in : n->facts->installs)
          for (auto& [v, l] : in.constraint_files)
            if (!r.valid() && resolve(*n, v) == c) r = l.range;
        notes.push_back({Level::Warning, n->src.path(), r,
                         "requirements include cycle: " + chain + " (each file is read once)", "include-cycle"});
      } else if (color[c] == 0) {
        dfs(c);
      }
    }
    stack.pop_back();
    color[n] = 2;
  };
  for (const auto& up : files)
    if (color[up.get()] == 0 && children.count(up.get())) dfs(up.get());
  if (cycles > kMaxCycleNotes)
    notes.push_back({Level::Warning, first->src.path(), {},
                     "and " + std::to_string(cycles - kMaxCycleNotes) +
                         " more requirements include cycles not shown (each file is read once)",
                     "include-cycle"});
}

// The files a command in another file installs in this run: members (-r, transitively) and -c files.
static std::vector<const ParsedFile*> files_installed_by(const PkgRun& run) {
  std::vector<const ParsedFile*> out;
  if (run.file->facts->kind == FileKind::Requirements) return out;  // a root file, no command
  auto add = [&](const ParsedFile* f) {
    if (f && f != run.file && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const PkgMember& m : run.members) add(m.file);
  for (const ParsedFile* f : run.command_constraints) add(f);
  return out;
}

// Every file's install contexts, in env and run order, built once per `envs` (not per file).
void Project::index_contexts() const {
  contexts_.clear();
  for (const PkgEnv& env : envs)
    for (const PkgRun& run : env.runs) {
      // a Dockerfile run counts in the environment of its own stage, not of the stages built on it
      if (env.dockerfile && env.stage != run.stage) continue;
      for (const ParsedFile* f : files_installed_by(run)) {
        if (env.dockerfile && env.dockerfile->facts->kind == FileKind::Dockerfile)
          contexts_[f].push_back({env.dockerfile, env.stage, env.image, run.install->loc, run.install, run.file});
        else  // a command on the host (or `docker run` in a script): installed by that command
          contexts_[f].push_back({nullptr, -1, nullptr, run.install->loc, run.install, run.file});
      }
    }
  contexts_envs_ = envs.data();
  contexts_n_ = envs.size();
}

std::vector<InstallContext> Project::contexts_for(const ParsedFile& f) const {
  if (contexts_envs_ != envs.data() || contexts_n_ != envs.size()) index_contexts();
  if (auto it = contexts_.find(&f); it != contexts_.end()) return it->second;
  return {InstallContext{}};
}

}  // namespace sc

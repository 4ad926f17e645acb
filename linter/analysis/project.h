// SPDX-License-Identifier: Apache-2.0
// The linted project: every file, its facts, and the links between files.
#pragma once
#include <map>
#include <set>
#include <unordered_map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/environments.h"
#include "core/diagnostics.h"
#include "core/facts.h"
#include "core/source.h"
#include "core/suppress.h"
#include "parsers/shell.h"

namespace sc {

// The whitespace-normalised text of lines findings flagged in a released file, kept with its
// facts (the facts cache saves it), so an unchanged file's fingerprints need no re-read.
// Made on first use (ParsedFile::memo); shared by the copies Project::own makes (made before
// the copy); written on the one thread that fingerprints.
struct LineMemo {
  static constexpr size_t kMaxLines = 64, kMaxBytes = 512;  // what is remembered per file, per line
  std::vector<std::pair<int, std::string>> lines;  // ascending line numbers
  bool grown = false;  // added to since the facts cache was read
};

struct ParsedFile {
  SourceFile src;  // its text is dropped once the facts are taken (SourceFile::release)
  FactsBox facts;  // the shared empty one for most files (see FactsBox)
  PathRef abs_path;  // interned, as the source's re-read path
  ContentHash content_hash;  // of the file's bytes as read (before a BOM is dropped)
  // Inline suppression comments and the problems found in them, read with the facts (the text
  // is gone by the time rules run). Null for a file without any (most); never changed once
  // read, so Project::own's copies share them.
  struct InlineIgnores {
    std::vector<SuppressDirective> directives;
    std::vector<Notification> problems;
  };
  std::shared_ptr<const InlineIgnores> inline_ignores;
  const std::vector<SuppressDirective>& suppressions() const {
    return inline_ignores ? inline_ignores->directives : kNoIgnores.directives;
  }
  const std::vector<Notification>& suppression_problems() const {
    return inline_ignores ? inline_ignores->problems : kNoIgnores.problems;
  }
  void set_suppressions(std::vector<SuppressDirective> d, std::vector<Notification> problems) {
    if (d.empty() && problems.empty()) inline_ignores.reset();
    else inline_ignores = std::make_shared<InlineIgnores>(InlineIgnores{std::move(d), std::move(problems)});
  }
  static inline const InlineIgnores kNoIgnores;
  mutable std::shared_ptr<LineMemo> line_memo;  // null until a line is remembered
  LineMemo& memo() const {
    if (!line_memo) line_memo = std::make_shared<LineMemo>();
    return *line_memo;
  }
};

// Where an install runs: a Dockerfile build stage, or the bare host.
struct InstallContext {
  const ParsedFile* dockerfile = nullptr;  // null: bare host (shell script, README, plain requirements)
  int stage = -1;
  const Image* image = nullptr;            // resolved base image of that stage (follows FROM <stage>)
  Location via;                            // the command that installs the file (pip install -r ...)
  // The installing command and its file (a Dockerfile, or a script on the host); null when
  // nothing in the project installs the file (a plain requirements file on the host).
  const Install* install = nullptr;
  const ParsedFile* installer_file = nullptr;
};

// What a project is judged against (configuration `target` and `include-tests`).
struct LintTarget {
  int sparks = 2;              // DGX Sparks in the cluster (one GPU each): `target: {sparks: N}`, --sparks
  bool include_tests = false;  // judge library test code too (tests/, test_*.py): `include-tests`
};

class Project {
 public:
  std::string root;  // absolute lint root; display paths are relative to it
  // The display path of the folder the user named (or the repository of a split run), "" for
  // the root itself: words in the names of folders above the project (a clone kept in
  // `~/HybridCluster_Mac_Spark/`) say nothing about its files.
  std::string top;
  // `path` (a display path) below top; `path` itself when it is not below it.
  std::string_view below_top(std::string_view path) const {
    if (top.empty() || path.size() <= top.size() || path.substr(0, top.size()) != top || path[top.size()] != '/')
      return path;
    return path.substr(top.size() + 1);
  }
  // Files as parsed, shared with the engine's ParseCache between runs: never changed in place.
  std::vector<std::shared_ptr<const ParsedFile>> files;
  LintTarget target;

  // A file that link() adds facts to: its slot in `files` first becomes this project's own
  // copy (once), so the parsed facts it shares stay as parsed. Null when `f` is not a file here.
  ParsedFile* own(const ParsedFile* f);

  // Library test code (tests/, test_*.py, conftest.py...) that rules skip unless include-tests.
  bool skips_test(const ParsedFile& f) const;

  const ParsedFile* find(const std::string& display_path) const;  // O(1) after the first call
  // Resolve a reference written in `from` (relative to its directory) to a project file.
  const ParsedFile* resolve(const ParsedFile& from, const std::string& target) const;
  // A relative path a command of `from` names: beside `from`, else from the project's top (a
  // script run from the repository root). Null for an empty or absolute path.
  const ParsedFile* resolve_relative(const ParsedFile& from, const std::string& path) const;

  // Install contexts for a requirements-like file, read off `envs`: every Dockerfile stage
  // or host command whose install run pulls it in (-r, transitively, or -c), else one
  // bare-host context.
  std::vector<InstallContext> contexts_for(const ParsedFile& f) const;
  // The base image a Dockerfile stage runs on (following FROM <earlier stage>, and FROM an
  // image the project builds: to the base image of that Dockerfile's last stage).
  const Image* stage_image(const ParsedFile& dockerfile, int stage) const;
  // The project's Dockerfile that builds the image `ref` named in `from`: a `docker build -t`
  // tag, or a bare name with a NAME/Dockerfile folder beside `from` (analysis/local_images.cpp).
  const ParsedFile* local_image(const ParsedFile& from, const std::string& ref) const;
  // A requirements file a Dockerfile RUN reads with another program (grep, sed, awk...) after
  // a COPY: filtered into what the image installs, so not a bare-pip install of its own.
  bool filtered_in_image(const ParsedFile& f) const { return filtered_requirements_.count(&f) > 0; }
  // Is the Dockerfile stage built: one its last stage needs, or one a build names as its
  // target (`docker build --target NAME`, a compose or CI `target: NAME`)?
  bool stage_built(const ParsedFile& dockerfile, int stage) const;

  // Project-level facts that rules ask for often.
  // a uv.lock/poetry.lock in the folder of `for_path` or above it pins pkg
  bool has_lockfile_pin(const std::string& pkg, const std::string& for_path) const;

  // Filled by link(): requirements file -> (installing Dockerfile, stage, command location).
  // `dockerfile` is null when the installing command is in a script/notebook on the host;
  // `file` is always the file holding the command, `install` the command itself.
  struct Installer {
    const ParsedFile* dockerfile;
    int stage;
    Location via;
    const ParsedFile* file = nullptr;
    const Install* install = nullptr;
    bool constraint = false;  // -c / --override target: constrains, installs nothing
  };
  std::map<const ParsedFile*, std::vector<Installer>> installed_by;
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> included_by;  // -r parent links
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> constrained_by;  // -c in a requirements file
  // link() fills installed_by / included_by and `notes`: a -r/-c target that is not in the
  // project ("missing-include", warning) and -r/-c include cycles ("include-cycle", warning).
  // The engine appends `notes` to the run's notifications after calling link().
  std::vector<Notification> notes;
  // Where installs share one Python environment (Dockerfile stage with the stages it builds
  // on, or a host file), with their install runs; filled once by link(), after the links.
  std::vector<PkgEnv> envs;
  // Shell scripts that a Dockerfile RUN runs (`bash scripts/install.sh`, `./install.sh`,
  // `source x.sh`) after a COPY/ADD put them in the image: script -> where it runs.
  struct ImageScriptRun {
    const ParsedFile* dockerfile;
    int stage;
    Location via;  // the RUN command
  };
  std::map<const ParsedFile*, std::vector<ImageScriptRun>> image_scripts;
  // The settings files a script sources and what they set (link_sourced_files), null if none.
  const SourcedFiles* sourced_by(const ParsedFile* script) const;
  // link() = link_sourced_files(), link_compose_builds() and link_compose_scripts() (once), link_requirement_files(), link_image_scripts(),
  // find_include_cycles(), then envs = package_envs(*this).
  void link();

 private:
  // Compose services' build args: the Dockerfile they build gains the stages of that build
  // (analysis/builds.cpp). Runs once per project: it adds facts.
  void link_compose_builds();
  // Scripts a compose service runs are read again with its `environment:`
  // (analysis/compose_scripts.cpp). Once per project, after link_compose_builds().
  void link_compose_scripts();
  // Scripts that source a settings file of the project are read again with its variables
  // (analysis/sourced.cpp). Once per project, before link_compose_scripts().
  void link_sourced_files();
  std::map<const ParsedFile*, SourcedFiles> sourced_;
  std::set<std::string> build_targets_;  // stage names given as a build's target, lower case
  std::map<std::string, const ParsedFile*> local_images_;  // `docker build -t` tag -> its Dockerfile
  void find_local_images();
  void find_build_targets();
  bool builds_linked_ = false;
  void link_image_scripts();
  void note_filtered_requirements(const ParsedFile& dockerfile, const Command& run);
  std::set<const ParsedFile*> filtered_requirements_;
  void link_requirement_files();
  void link_one_target(const ParsedFile& f, const Install& in, const std::string& value, const Location& loc,
                       bool is_constraint);
  void find_include_cycles();
  // normalised display path -> file, sorted by path (the first file of a path wins), rebuilt
  // when `files` grows; the keys view the files' own paths (files replaced by own() stay in
  // replaced_) or interned ones. 24 bytes a file, no node. abs_index_ holds only the files
  // whose absolute path is not root/display (the others are found through index_).
  using PathIndex = std::vector<std::pair<std::string_view, const ParsedFile*>>;
  mutable PathIndex index_, abs_index_;
  static void sort_index(PathIndex& ix);
  static const ParsedFile* look_up(const PathIndex& ix, std::string_view path);
  mutable size_t indexed_files_ = 0;
  // the lock files among `files` (has_lockfile_pin runs per requirement: no full scan each time)
  mutable std::vector<const ParsedFile*> lockfiles_;
  mutable size_t lock_indexed_files_ = 0;
  // file -> its install contexts (contexts_for), rebuilt when `envs` is replaced
  void index_contexts() const;
  mutable std::unordered_map<const ParsedFile*, std::vector<InstallContext>> contexts_;
  mutable const PkgEnv* contexts_envs_ = nullptr;
  mutable size_t contexts_n_ = 0;
  std::vector<ParsedFile*> owned_;  // the copies own() made
  std::vector<std::shared_ptr<const ParsedFile>> replaced_;  // what they replaced (pointers to it stay valid)
};

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Typed facts that parsers extract from files and rules consume.
// Every fact carries the exact place it came from.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/source.h"

namespace sc {

enum class FileKind {
  Unknown, Dockerfile, Requirements, Pyproject, CondaEnv, Lockfile,
  Yaml, Json, Toml, Python, Shell, Notebook, Markdown, Makefile, CMake,
};

// A file's list of facts that costs one pointer while empty (most of a file's lists are): the
// vector is made on the first write. An empty list reads as a shared empty vector.
template <class T> class FactList {
 public:
  using Vec = std::vector<T>;
  using value_type = T;
  using iterator = typename Vec::iterator;
  using const_iterator = typename Vec::const_iterator;

  FactList() = default;
  FactList(Vec v) { *this = std::move(v); }
  FactList(const FactList& o) : p_(o.empty() ? nullptr : std::make_unique<Vec>(*o.p_)) {}
  FactList(FactList&&) noexcept = default;
  FactList& operator=(const FactList& o) { return *this = FactList(o); }
  FactList& operator=(FactList&&) noexcept = default;
  FactList& operator=(Vec v) {
    p_ = v.empty() ? nullptr : std::make_unique<Vec>(std::move(v));
    return *this;
  }

  const Vec& all() const { return p_ ? *p_ : kEmpty; }
  operator const Vec&() const { return all(); }
  Vec& edit() {  // for writing: makes the vector on first use
    if (!p_) p_ = std::make_unique<Vec>();
    return *p_;
  }

  size_t size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return !p_ || p_->empty(); }
  const_iterator begin() const { return all().begin(); }
  const_iterator end() const { return all().end(); }
  iterator begin() { return p_ ? p_->begin() : iterator(); }
  iterator end() { return p_ ? p_->end() : iterator(); }
  const T& operator[](size_t i) const { return all()[i]; }
  T& operator[](size_t i) { return edit()[i]; }
  const T& at(size_t i) const { return all().at(i); }
  const T& front() const { return all().front(); }
  T& front() { return edit().front(); }
  const T& back() const { return all().back(); }
  T& back() { return edit().back(); }

  void push_back(T v) { edit().push_back(std::move(v)); }
  template <class... A> T& emplace_back(A&&... a) { return edit().emplace_back(std::forward<A>(a)...); }
  void clear() { p_.reset(); }
  void shrink_to_fit() {
    if (p_ && p_->empty()) p_.reset();
    else if (p_) p_->shrink_to_fit();
  }

 private:
  static inline const Vec kEmpty;
  std::unique_ptr<Vec> p_;
};

// ---- packages -------------------------------------------------------------

// One PEP 508 requirement as written in a requirements file, a pip/uv/conda
// command line, pyproject metadata or a conda environment.
struct Requirement {
  std::string name;                 // PEP 503-normalised ("flash-attn")
  std::string raw;                  // as written
  std::vector<std::string> extras;  // lower-case
  std::string specifier;            // ">=2.1,<3", "==2.9.1+cu130", "" if none
  std::string exact_version;        // set when pinned with == / === (no wildcard)
  std::string local_version;        // "cu130" from "+cu130" (lower-case)
  std::string marker;               // text after ';'
  std::string url;                  // direct reference / wheel URL / VCS
  bool hashed = false;              // --hash present
  bool has_upper_bound = false;     // <, <=, ~=, ==X.* or exact
  Location loc;
};

enum class Installer { Pip, UvPip, UvAdd, Conda, RequirementsFile, PyprojectDeps, CondaEnvFile };

// Which option wrote an index URL: --index-url, --extra-index-url, --find-links,
// a [[tool.uv.index]] entry, a conda channel.
enum class IndexRole { IndexUrl, ExtraIndexUrl, FindLinks, UvIndex, CondaChannel };

struct IndexUrl {
  IndexUrl() = default;
  IndexUrl(std::string u, IndexRole r, Location l) : url(std::move(u)), role(r), loc(std::move(l)) {}
  std::string url;
  IndexRole role = IndexRole::IndexUrl;
  Location loc;
  // An explicit uv index (`explicit = true`) serves only the packages [tool.uv.sources] sends
  // to it: `by_source` is set and `source_markers` holds each such entry's marker ("" when it
  // has none). No entry: the index serves nothing.
  bool by_source = false;
  std::vector<std::string> source_markers;
};

// One install: a pip/uv/conda command, or the contents of a requirements-like file.
struct Install {
  Installer tool = Installer::Pip;
  std::vector<Requirement> packages;
  std::vector<std::pair<std::string, Location>> requirement_files;  // -r FILE (as written)
  std::vector<std::pair<std::string, Location>> constraint_files;   // -c / --constraint / --override / -o
  std::vector<IndexUrl> indexes;
  bool no_deps = false;
  bool upgrade = false;          // -U / --upgrade / --force-reinstall
  bool torch_backend = false;    // uv --torch-backend=auto|cuXXX
  std::string torch_backend_value;
  int stage = -1;                // Dockerfile build stage index, -1 outside Dockerfiles
  Location loc;                  // the command (or the file's first line)
  bool no_index = false;         // --no-index / PIP_NO_INDEX: only --find-links and local files
  bool local_project = false;    // installs a local directory (`.`, `-e ../x[extra]`): requirements unread
  bool reference_only = false;   // a requirements file whose header says it is not installed ("for reference")
};

// ---- containers -----------------------------------------------------------

struct Image {
  std::string ref;         // after ARG substitution, e.g. "nvcr.io/nvidia/pytorch:25.11-py3"
  std::string stage_name;  // "AS builder"
  int stage = 0;
  bool from_stage = false; // FROM <earlier stage name>
  // Nothing the last stage builds on or copies from needs this stage: BuildKit skips it
  // unless a build names it as its --target.
  bool unused = false;
  int parent_stage = -1;   // index of the stage it builds on, when from_stage
  bool no_gpu = false;     // a Kubernetes container whose resources ask for no GPU
  Location loc;
};

// ENV/ARG (Dockerfile), export/assignment (shell), environment vars in YAML...
// Dockerfile ENV/ARG, shell export/assignment, YAML environment, compose build args.
enum class EnvOrigin { Env, Arg, Export, Assign, Yaml, BuildArg, Make, Cmake, Sed };

struct EnvSetting {
  std::string name, value;
  EnvOrigin origin = EnvOrigin::Assign;
  int stage = -1;
  Location loc;        // the value, or the whole assignment when value is empty
};

// A link from one file to another: "-r other.txt", "--config_file x.yaml",
// "COPY requirements.txt /app/", "deepspeed: ds.json".
// -r FILE, -c FILE, Dockerfile COPY, compose build.dockerfile.
enum class RefKind { Requirements, Constraints, Copy, Dockerfile };

struct FileRef {
  std::string target;   // as written
  RefKind kind = RefKind::Requirements;
  std::string dest;     // COPY destination (containers)
  int stage = -1;
  Location loc;
};

// A compose service's `build:`: the Dockerfile it builds and the build args it passes
// (they override that Dockerfile's ARG defaults).
struct BuildSpec {
  std::string dockerfile;         // from the compose file's folder: context + "/" + dockerfile
  std::vector<EnvSetting> args;   // as written in `args:` (origin BuildArg)
  Location loc;                   // the `build:` (or `dockerfile:`) value
};

// A compose service, as far as it says what runs: its `environment:`, the Dockerfile it
// builds (BuildSpec::dockerfile form), its bind mounts, and its commands (a range of
// FileFacts::commands). The analysis layer follows these to the scripts it runs.
struct ComposeService {
  std::string name;
  std::vector<EnvSetting> env;                               // `environment:` (origin Yaml)
  std::string dockerfile;                                    // empty when it builds none
  std::string image;                                         // its `image:` (the tag a build gets), or empty
  std::vector<std::pair<std::string, std::string>> mounts;   // host path (as written) -> container path
  size_t first_command = 0, end_command = 0;                 // its `command:`/`entrypoint:` facts
  // It asks for a GPU or may get one: false only with no `runtime: nvidia`, `gpus:`, device
  // reservation, NVIDIA device or NVIDIA_* variable, and no `<<` merge or `extends` that could add one.
  bool gpu = true;
};

// ---- shell ----------------------------------------------------------------

struct Word {
  std::string text;    // value after quote removal and known-variable expansion
  std::string raw;     // as written
  bool resolved = true;  // false when it contains an unknown $VAR or $(...)
  Location loc;
};

// Where a command was written: Dockerfile RUN/CMD/ENTRYPOINT, a shell script, a notebook
// cell, a Markdown block, an #SBATCH line, a compose service, a `docker run IMAGE ...` body.
enum class CommandContext { Run, Cmd, Entrypoint, Script, Notebook, Markdown, Sbatch, Compose, Container, Make, Cmake, Ci, Skypilot, Kubernetes };

struct Command {
  std::vector<Word> argv;                  // argv[0] is the program
  std::vector<std::pair<std::string, Word>> env;  // VAR=val prefixes
  int stage = -1;                          // Dockerfile stage when from RUN/CMD
  CommandContext context = CommandContext::Script;
  Location loc;
};

// Helpers to read flags off a command: "--tp 2", "--tp=2", "-tp 2".
std::optional<Word> flag_value(const Command& c, std::initializer_list<std::string_view> names);
bool has_flag(const Command& c, std::initializer_list<std::string_view> names);
// Does the command make a Python virtual environment (`python -m venv`, `virtualenv`, `uv venv`)?
bool makes_venv(const Command& c);

// ---- configs (YAML / JSON / TOML) ----------------------------------------

// A config entry's key path, {"parallelism_config", "parallelism_config_tp_size"}; list items
// as "[i]". Interned: configs repeat the same keys across files and copies, so equal paths
// share one read-only list (never freed, like PathRef) and an entry holds a pointer.
class KeyPath {
 public:
  using Parts = std::vector<std::string>;
  KeyPath() = default;
  KeyPath(const Parts& parts) : p_(intern(parts)) {}
  KeyPath(std::initializer_list<std::string> parts) : p_(intern(Parts(parts))) {}

  const Parts& parts() const { return *p_; }
  operator const Parts&() const { return *p_; }
  size_t size() const { return p_->size(); }
  bool empty() const { return p_->empty(); }
  const std::string& operator[](size_t i) const { return (*p_)[i]; }
  const std::string& front() const { return p_->front(); }
  const std::string& back() const { return p_->back(); }
  Parts::const_iterator begin() const { return p_->begin(); }
  Parts::const_iterator end() const { return p_->end(); }
  friend bool operator==(KeyPath a, KeyPath b) { return a.p_ == b.p_; }

 private:
  static const Parts* intern(const Parts& parts);
  static const Parts kEmpty;
  const Parts* p_ = &kEmpty;
};

struct ConfigEntry {
  KeyPath path;                   // {"parallelism_config", "parallelism_config_tp_size"}; list items as "[i]"
  std::string value;              // scalar text (unquoted); empty for maps/lists
  bool scalar = true;
  int document = 0;               // YAML document index (CI files: which job list)
  Location key_loc, value_loc;
  const std::string& key() const {  // the last key of the path, "" for none
    static const std::string none;
    return path.empty() ? none : path.back();
  }
  std::string dotted() const;     // "parallelism_config.parallelism_config_tp_size"
};

// ---- python ---------------------------------------------------------------

struct PyImport {
  std::string module;   // "unsloth.models._utils" / "unsloth"
  std::string name;     // imported name for `from m import name`, empty for `import m`
  std::string alias;    // local binding
  Location loc;
};

struct PyArg {
  std::string keyword;      // empty for positional
  std::string literal;      // literal value text (string unquoted) when literal
  bool is_literal = false;
  std::string kind;         // "string", "integer", "float", "true", "false", "none", "tuple", "other"
  std::vector<std::string> items;  // literal tuple/list string items
  Location loc;
};

struct PyCall {
  std::string callee;        // dotted as written: "FastLanguageModel.from_pretrained"
  std::string resolved;      // import-resolved: "unsloth.FastLanguageModel.from_pretrained"
  std::vector<PyArg> args;
  Location loc;
};

struct PyAssign {
  std::string target;        // dotted as written: "u.HAS_FLASH_ATTENTION"
  std::string resolved;      // "unsloth.models._utils.HAS_FLASH_ATTENTION"
  std::string value;         // literal text when literal
  bool is_literal = false;
  int scope_depth = 0;
  Location loc;
};

struct PythonFacts {
  FactList<PyImport> imports;
  FactList<PyCall> calls;      // source order
  FactList<PyAssign> assigns;  // source order
  FactList<std::pair<std::string, Location>> strings;  // string literals (for model ids)
};

// ---- CI ---------------------------------------------------------------------

// A CI job: the lines it spans and the runner labels it asks for (GitHub `runs-on:`,
// GitLab `tags:`; none for GitLab's shared runners). `resolved` is false when a label
// is an expression sparkcheck cannot read.
struct CiJob {
  std::string system;  // "github", "gitlab"
  std::string name;
  int first = 0, last = 0;
  std::vector<std::string> labels;
  bool resolved = true;
};

// ---- values written in one place and used in another -------------------------

// A word written in one place and used in another: a command held in a shell variable
// (`CMD="vllm serve --tp 2"` ... `exec $CMD`), a compose build arg that a Dockerfile uses.
// Facts carry the place where the value is written; the engine adds `used` as a related
// place to a finding at `written`.
struct Expansion {
  Location written, used;
  std::string what;  // the related place's message: "expanded here ($CMD)"
};

// ---- everything one file yields ------------------------------------------

// A Markdown heading: its line, level (1-6; 7 for a paragraph that is all bold, a label) and
// text. Code under a heading that names another platform (query::other_platform_section) is
// not a Spark setup. A shell branch on the machine (`if [[ $(uname -m) == x86_64 ]]`) is a
// section of level 8 and deeper titled by its test; `negated` when the branch runs where the
// test fails (`!=`, an `else`). A section with an empty title closes the one before it.
struct Section {
  int line = 0, level = 0;
  std::string title;
  bool negated = false;
};

struct FileFacts {
  FileKind kind = FileKind::Unknown;
  bool lockfile = false;                  // uv.lock, poetry.lock, pylock.toml, conda-lock...
  FactList<Install> installs;
  FactList<IndexUrl> indexes;             // file-level index URLs (requirements, uv config)
  FactList<Image> images;                 // one per Dockerfile stage
  FactList<EnvSetting> env;
  FactList<FileRef> refs;
  FactList<Command> commands;
  FactList<ConfigEntry> config;
  PythonFacts python;
  FactList<Command> sbatch;               // #SBATCH directives as pseudo-commands
  // Shell variables holding 2+ words with a `--flag` (`ENGINE_ARGS=( ... )`, `VLLM_ARGS="..."`),
  // their program unknown: argv[0] is the variable's name, then its words where written.
  FactList<Command> arg_lists;
  // Markdown: (first, last) line of each code block read; suppression comments count only there.
  FactList<std::pair<int, int>> code_lines;
  FactList<Section> sections;             // Markdown headings, in order
  FactList<std::string> front_matter;     // Markdown: the front matter's top-level "key: value" lines
  FactList<CiJob> ci_jobs;                // CI files: where each job is and what runs it
  FactList<Expansion> expansions;         // words whose value is written elsewhere (see Expansion)
  FactList<BuildSpec> builds;             // compose services' `build:`
  FactList<ComposeService> services;      // compose services (see ComposeService)
  std::map<std::string, std::string> locked;  // lock file: normalised name -> version
};

// A file's facts as a project keeps them: most files yield none (library code the prefilter
// skips), so an empty FileFacts is not stored per file but shared, one per kind (about 450
// bytes a file saved). Reading (* and ->) never allocates; edit() does, on first write.
class FactsBox {
 public:
  FactsBox() = default;
  explicit FactsBox(FileFacts f) { *this = std::move(f); }
  FactsBox(const FactsBox& o) : p_(o.p_ ? std::make_unique<FileFacts>(*o.p_) : nullptr), kind_(o.kind_) {}
  FactsBox(FactsBox&&) noexcept = default;
  FactsBox& operator=(const FactsBox& o) { return *this = FactsBox(o); }
  FactsBox& operator=(FactsBox&&) noexcept = default;
  FactsBox& operator=(FileFacts f);  // stores f, or only its kind when it holds nothing else

  const FileFacts& operator*() const { return p_ ? *p_ : empty_of(kind_); }
  const FileFacts* operator->() const { return &**this; }
  FileFacts& edit();  // for writing: allocates an empty one on first write
  bool stored() const { return p_ != nullptr; }
  void compact();  // back to the shared empty one when nothing but the kind is set

 private:
  static const FileFacts& empty_of(FileKind k);
  std::unique_ptr<FileFacts> p_;
  FileKind kind_ = FileKind::Unknown;  // when p_ is null
};

// Nothing but the kind: no list, map or flag set.
bool facts_empty(const FileFacts& f);

}  // namespace sc

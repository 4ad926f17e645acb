// SPDX-License-Identifier: Apache-2.0
// The lint run: walk -> read -> classify -> parse -> link -> rules -> findings.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "analysis/project.h"

namespace sc {

// A glob from a configuration file: matched against the file's path relative
// to `base` (the config file's directory). An empty base means the display path.
struct ScopedGlob {
  std::string pattern;
  std::string base;
  bool matches(const std::string& abs_path, const std::string& display) const;
};

struct PerFileIgnore {
  ScopedGlob glob;
  std::set<std::string> rules;  // canonical ids
  std::string origin;           // "FILE:LINE", for the SARIF justification
};

class ParseCache;
struct WalkedFile;

struct LintOptions {
  std::vector<std::string> paths;     // files or directories; default "."
  std::string root;                   // display paths relative to this; default: cwd or common parent
  bool no_ignore = false;             // do not honour .gitignore
  bool follow_symlinks = false;       // follow links whose target is inside the linted directories
  std::optional<std::string> stdin_text;   // with stdin_filename: lint this text as that file
  std::string stdin_filename;
  // absolute path -> text read instead of the file on disk (an editor's unsaved buffers)
  std::map<std::string, std::string> overlays;
  std::set<std::string> select;       // empty: all rules
  std::set<std::string> ignore;
  std::vector<std::string> exclude;   // glob patterns on display paths
  std::vector<std::string> own_files; // sparkcheck's own files (the baseline): not linted unless named
  size_t max_file_bytes = 10u * 1024 * 1024;  // larger files are skipped with a notification
  size_t jobs = 0;                    // parser threads; 0 = one per core (at most 8)
  LintTarget target;                  // Sparks in the cluster; judge library test code or not
  bool prefilter = true;              // skip parsing files without trigger words (knowledge/triggers.yaml)
  // called after each file is read and parsed (files done, total), from the parser threads
  std::function<void(size_t, size_t)> progress;
  // ---- configuration (linter/config), suppressions and baseline ----
  std::vector<ScopedGlob> exclude_scoped;        // config `exclude`; applied to named files too
  std::vector<PerFileIgnore> per_file_ignores;   // matching findings are suppressed ("external")
  std::map<std::string, Level> severity;         // rule id -> level override
  bool inline_ignore = true;                     // honour `# sparkcheck: ignore[...]` comments
  bool fingerprints = true;                      // fill Finding::fingerprint (reads each flagged line)
  bool allow_reasonless_suppressions = false;
  std::optional<std::set<std::string>> baseline; // fingerprints: matching findings are dropped
  std::string baseline_base;                     // baseline fingerprints use paths relative to this dir
  // Parsed files kept between runs (the language server); null: every file is parsed.
  ParseCache* reuse = nullptr;
  // The on-disk facts cache (engine/facts_cache.h), off unless set; never used with standard
  // input, overlays or `reuse`. cache_dir empty: <root>/.sparkcheck_cache, else the user cache.
  bool disk_cache = false;
  std::string cache_dir;
  // Git repositories side by side under a root in no work tree are linted one at a time, each
  // as its own project (engine/units.h); false: the whole tree is one project.
  bool split_repositories = true;
  // ---- set by a split run for each of its units ----
  std::string unit;                          // the unit's folder (display path): names its cache file
  std::vector<WalkedFile>* unit_files = nullptr;  // the unit's files, walked already (taken by the run)
  std::vector<std::string> unit_walks;       // and the repositories it walks (absolute)
  // LintResult::linted lists the files (--show-files, JUnit, the probe); else only counted.
  bool list_linted = true;
};

// What stat says of a file on disk. A write changes its ctime (which no tool can set back), a
// replacement its inode; size -1: unknown, or changed too recently to trust the clock.
struct DiskStamp {
  int64_t dev = 0, ino = 0, size = -1, ctime_ns = 0;
  bool operator==(const DiskStamp&) const = default;
};

// Reading's notes (a byte-order mark) and the parser's, for a file; most files have none.
struct FileNotes {
  std::vector<Notification> read, parse;
};

// What besides its bytes and its display path decides what reading and parsing make of a
// file, as bits: the parser's kind (the low byte), a buffer or the disk, the reading options.
namespace cache_key {
constexpr uint32_t kKind = 0xFF, kBuffer = 1u << 8, kInlineIgnore = 1u << 9, kReasonless = 1u << 10,
                   kPrefilter = 1u << 11;
constexpr uint32_t kAll = kKind | kBuffer | kInlineIgnore | kReasonless | kPrefilter;
inline FileKind kind(uint32_t key) { return static_cast<FileKind>(key & kKind); }
}  // namespace cache_key

// One file as parsed in an earlier run. It is for the display path its file carries
// (file->src.path()) and for its key; its content hash is the file's.
struct CacheEntry {
  std::shared_ptr<const ParsedFile> file;
  std::unique_ptr<const FileNotes> notes;  // null when there are none (an entry is moved, never copied)
  DiskStamp disk;                          // equal on the next run: the file is not even read
  uint32_t key = 0;                        // cache_key bits
  // Where the disk cache file it was decoded from holds its body (decode_cache); length 0:
  // none (an entry made anew). Saving copies those bytes instead of encoding the file again.
  uint32_t loaded_at = 0, loaded_len = 0;
  const std::vector<Notification>& read_notes() const { return notes ? notes->read : kNone; }
  const std::vector<Notification>& parse_notes() const { return notes ? notes->parse : kNone; }
  static inline const std::vector<Notification> kNone;
};

// Cache entries by absolute path (interned, the file's abs_path): a vector sorted by path, so
// that an entry costs its own bytes (no tree node); looked up by binary search.
class CacheEntries {
 public:
  using Item = std::pair<PathRef, CacheEntry>;
  using iterator = std::vector<Item>::iterator;
  using const_iterator = std::vector<Item>::const_iterator;
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }
  void reserve(size_t n) { items_.reserve(n); }
  Item& at(size_t i) { return items_[i]; }
  const Item& at(size_t i) const { return items_[i]; }
  // The index of the entry for `abs` (a PathRef or any string), size() when there is none.
  template <class K> size_t index_of(const K& abs) const {
    auto it = std::lower_bound(items_.begin(), items_.end(), abs, [](const Item& i, const K& k) { return i.first < k; });
    return it != items_.end() && it->first == abs ? static_cast<size_t>(it - items_.begin()) : items_.size();
  }
  template <class K> iterator find(const K& abs) { return items_.begin() + static_cast<ptrdiff_t>(index_of(abs)); }
  template <class K> const_iterator find(const K& abs) const { return items_.begin() + static_cast<ptrdiff_t>(index_of(abs)); }
  template <class K> void erase(const K& abs) {
    if (size_t i = index_of(abs); i < items_.size()) items_.erase(items_.begin() + static_cast<ptrdiff_t>(i));
  }
  CacheEntry& operator[](PathRef abs);  // made (in order) when missing
  // Adds an entry after all others; false (nothing added) unless `abs` sorts after the last.
  bool append(PathRef abs, CacheEntry e);
  // Keeps the entries whose index `keep` marks, in place, and adds `items` (in any order; of a
  // path given twice, one stays).
  void keep_and_add(const std::vector<bool>& keep, std::vector<Item> items);
  // Adds the entries of `other` for paths not here; `other` is left empty.
  void merge(CacheEntries& other);
  // The entries for which `in` holds, moved into the result, removed from here (both stay sorted).
  CacheEntries split_off(const std::function<bool(PathRef)>& in);

 private:
  std::vector<Item> items_;
};

// What parsing made of each file in the last run, kept by its owner between runs. A file
// whose bytes (or editor buffer), kind, display path and reading options are unchanged gets
// its facts (shared, not copied) instead of a new parse; the walk, the links and the rules still run
// over the whole project. Entries hold the facts as parsed, before link() adds to them.
class ParseCache {
 public:
  using Entry = CacheEntry;
  size_t hits = 0, misses = 0;  // of the last run
  CacheEntries entries;         // files gone from the last run dropped
};

// What a run did with the disk cache (LintOptions::disk_cache), for -v.
struct CacheReport {
  bool used = false;
  std::string file;   // the cache file (read or written)
  std::string note;   // why it was ignored or not written; empty when all went well
  size_t loaded = 0;  // entries read from disk
  size_t hits = 0, misses = 0;
  bool saved = false;
  double load_ms = 0, save_ms = 0;
  size_t more_files = 0;  // a split run (engine/units.h): further cache files, one per unit
};

struct LintResult {
  Project project;
  std::vector<Finding> findings;          // sorted by path, line, col, rule
  std::vector<Notification> notifications;
  std::vector<PathRef> linted;            // display paths of files parsed (LintOptions::list_linted)
  size_t files_linted = 0;                // how many files were parsed
  bool complete = true;                   // false: the run could not finish (e.g. path missing)
  bool input_error = false;               // bad suppression comment (exit 2)
  size_t baselined = 0;                   // findings dropped because the baseline has them
  bool baseline_applied = false;          // a baseline filtered this run (SARIF baselineState)
  CacheReport cache;
  size_t units = 1;                       // projects linted one after another (engine/units.h)
};

LintResult run_lint(const LintOptions& opt);

// Fingerprint stable under line moves: rule + path + normalised text of the
// flagged line + occurrence index of that text within the file.
void assign_fingerprints(LintResult& r);
// The same fingerprints (in r.findings order) with paths relative to `base`
// (an absolute directory; empty = display paths). Baselines use the baseline
// file's directory, so they match wherever sparkcheck is run from.
std::vector<std::string> fingerprints_relative_to(const LintResult& r, const std::string& base);
// A finding's display path made relative to `base`.
std::string path_relative_to(const LintResult& r, const std::string& display, const std::string& base);

}  // namespace sc

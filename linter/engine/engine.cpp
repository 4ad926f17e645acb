// SPDX-License-Identifier: Apache-2.0
#include "engine/engine.h"
#include "core/path_names.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <map>
#include <new>
#include <set>
#include <thread>
#include <tuple>

#include "core/parse_budget.h"
#include "core/registry.h"
#include "core/suppress.h"
#include "core/walk.h"
#include "engine/facts_cache.h"
#include "engine/prefilter.h"
#include "engine/units.h"
#include "knowledge/knowledge.h"
#include "query/packages.h"

namespace sc {

namespace {
namespace fs = std::filesystem;

// Takes one rule's findings: fills the rule id and keeps one finding per line (the most
// severe; the first on a tie), merging the related places of the ones it drops; a dropped
// finding at another column (another package of one pip line) becomes a related place too.
class Collector : public Reporter {
 public:
  void start(std::string rule) {
    rule_ = std::move(rule);
    by_line_.clear();
  }
  void report(Finding f) override {
    f.rule = rule_;
    auto key = std::make_pair(f.loc.path, f.loc.range.line);
    auto it = by_line_.find(key);
    if (it == by_line_.end()) {
      order_.push_back(key);
      by_line_.emplace(key, std::move(f));
      return;
    }
    Finding& kept = it->second;
    if (static_cast<int>(f.level) > static_cast<int>(kept.level)) std::swap(kept, f);
    if (f.loc.range.col != kept.loc.range.col && f.message != kept.message)
      kept.related.insert(std::find_if(kept.related.begin(), kept.related.end(),
                                       [](const Related& r) { return !starts_with(r.message, "also on this line: "); }),
                          Related{f.loc, "also on this line: " + f.message});
    kept.related.insert(kept.related.end(), f.related.begin(), f.related.end());
  }
  void note(Notification n) override { notes.push_back(std::move(n)); }
  void finish() {
    found.reserve(found.size() + order_.size());  // exact: no doubling slack at the run's peak
    for (auto& key : order_) {
      Finding& f = by_line_.at(key);
      std::vector<Related> rel;
      std::set<std::tuple<std::string, int, int>> seen;  // one related place per line; "also" ones per column
      for (auto& r : f.related) {
        int col = starts_with(r.message, "also on this line: ") ? r.loc.range.col : 0;
        if (r.loc.range.valid() && seen.insert({r.loc.path, r.loc.range.line, col}).second) rel.push_back(r);
      }
      f.related = std::move(rel);
      found.push_back(std::move(f));
    }
    order_.clear();
    by_line_.clear();
  }
  std::vector<Finding> found;
  std::vector<Notification> notes;

 private:
  std::string rule_;
  std::vector<std::pair<std::string, int>> order_;
  std::map<std::pair<std::string, int>, Finding> by_line_;
};

std::string mb(size_t n) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MB", static_cast<double>(n) / 1e6);
  return b;
}

const char* special_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// The first line that is not valid UTF-8 (1-based), for the message.
size_t first_bad_utf8_line(const std::string& text) {
  size_t line = 1, ls = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; ls = i + 1; continue; }
    size_t e = text.find('\n', i);
    if (!valid_utf8(std::string_view(text).substr(ls, (e == std::string::npos ? text.size() : e) - ls))) break;
    i = e == std::string::npos ? text.size() : e - 1;
  }
  return line;
}

// Content checks after reading: no NUL bytes, valid UTF-8; a byte-order mark is dropped.
bool usable_text(const WalkedFile& wf, std::string& text, std::vector<Notification>& notes) {
  if (text.find('\0') != std::string::npos) {
    notes.push_back({Level::Warning, wf.display, {}, "not linted: binary content (NUL bytes)", "binary-file"});
    return false;
  }
  if (!valid_utf8(text)) {
    size_t line = first_bad_utf8_line(text);
    Notification n{Level::Warning, wf.display, {static_cast<int>(line), 1, static_cast<int>(line), 2},
                   "not linted: not valid UTF-8 (line " + std::to_string(line) + "); re-save the file as UTF-8",
                   "not-utf8"};
    notes.push_back(n);
    return false;
  }
  if (starts_with(text, "\xEF\xBB\xBF")) {
    text.erase(0, 3);
    notes.push_back({Level::Note, wf.display, {1, 1, 1, 2}, "UTF-8 byte-order mark at the start of the file (ignored for linting; some tools, e.g. older Docker and bash, choke on it)", "bom"});
  }
  return true;
}

// Notes why `wf` is not linted; false, for the caller to return.
bool not_read(std::vector<Notification>& notes, const WalkedFile& wf, const std::string& msg, const std::string& id,
              Level l = Level::Warning) {
  notes.push_back({l, wf.display, {}, msg, id});
  return false;
}

// The size to read: the walk's status (a regular file then), else the open file's. False,
// with a notification, when it is no regular file or over the limit.
bool size_to_read(const WalkedFile& wf, int fd, size_t max_bytes, size_t& size, std::vector<Notification>& notes) {
  auto fail = [&](const std::string& msg, const std::string& id, Level l = Level::Warning) {
    return not_read(notes, wf, msg, id, l);
  };
  struct stat st;
  if (wf.size >= 0) {
    st.st_size = wf.size;  // a file swapped since the walk reads as what it is now, within max_bytes
  } else {
    if (fstat(fd, &st) != 0) return fail(std::string("cannot stat file: ") + std::strerror(errno), "read-error", Level::Error);
    if (!S_ISREG(st.st_mode))
      return fail(std::string("not linted: the path is ") + special_kind(st.st_mode) + ", not a regular file", "not-regular-file");
  }
  size = static_cast<size_t>(st.st_size);
  if (size > max_bytes)
    return fail("not linted: file is " + mb(size) + ", over the " + mb(max_bytes) + " limit (raise it with --max-file-size)",
                "file-too-large");
  return true;
}

// Reads a file once; returns false (with a notification) when it cannot be linted.
bool read_file(const WalkedFile& wf, size_t max_bytes, std::string& text, ContentHash& hash,
               std::vector<Notification>& notes) {
  auto fail = [&](const std::string& msg, const std::string& id, Level l = Level::Warning) {
    return not_read(notes, wf, msg, id, l);
  };
  int fd = open(wf.abs.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (wf.explicit_arg ? 0 : O_NOFOLLOW));
  if (fd < 0) return fail(std::string("cannot read file: ") + std::strerror(errno), "read-error", Level::Error);
  size_t size = 0;
  if (!size_to_read(wf, fd, max_bytes, size, notes)) return close(fd), false;
  // Straight into the string: its size as stat gave it, one byte more to see growth at once.
  size_t have = 0;
  text.resize(size + 1);
  for (;;) {
    if (have == text.size()) text.resize(std::min(text.size() * 2, max_bytes + 1));
    size_t want = text.size() - have;
    ssize_t n = read(fd, text.data() + have, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      close(fd);
      return fail(std::string("read failed: ") + std::strerror(e), "read-error", Level::Error);
    }
    if (n == 0) break;
    have += static_cast<size_t>(n);
    if (have > max_bytes) {
      close(fd);
      return fail("not linted: file grew over the " + mb(max_bytes) + " limit while reading", "file-too-large");
    }
    if (have == size && static_cast<size_t>(n) < want) break;  // the size stat gave, and not a byte more: the end
  }
  close(fd);
  text.resize(have);
  hash = content_hash(text);
  return usable_text(wf, text, notes);
}


std::string abs_of(const Project& p, const std::string& display) {
  if (!display.empty() && display[0] == '/') return display;
  return p.root == "/" ? "/" + display : p.root + "/" + display;
}

void sort_findings(std::vector<Finding>& v) {
  std::stable_sort(v.begin(), v.end(), [](const Finding& a, const Finding& b) {
    if (a.loc.path != b.loc.path) return a.loc.path < b.loc.path;
    if (a.loc.range.line != b.loc.range.line) return a.loc.range.line < b.loc.range.line;
    if (a.loc.range.col != b.loc.range.col) return a.loc.range.col < b.loc.range.col;
    return a.rule < b.rule;
  });
}

// The per-file-ignores entry that silences `rule` in the file `display`, or null.
const PerFileIgnore* per_file_ignored(const LintResult& res, const LintOptions& opt, const std::string& display,
                                      const std::string& rule) {
  for (const auto& p : opt.per_file_ignores)
    if (p.rules.count(rule) && p.glob.matches(abs_of(res.project, display), display)) return &p;
  return nullptr;
}

// Inline suppressions, then the meta rule unused-suppression for ids that silenced nothing.
void apply_inline_suppressions(LintResult& res, const LintOptions& opt, const std::set<std::string>& ran) {
  bool meta_on = (opt.select.empty() || opt.select.count(kUnusedSuppression)) && !opt.ignore.count(kUnusedSuppression);
  std::vector<Finding> unused;
  for (const auto& pf : res.project.files) {
    if (!pf->suppression_problems().empty()) res.input_error = true;
    for (const auto& n : pf->suppression_problems()) res.notifications.push_back(n);
    if (pf->suppressions().empty()) continue;
    std::vector<SuppressDirective> dirs = pf->suppressions();  // this run's use counts (the file is shared)
    apply_suppressions(dirs, res.findings);
    if (!meta_on) continue;
    const std::string& path = pf->src.path();
    auto more = unused_suppressions(dirs, [&](const std::string& rule) {
      return ran.count(rule) && !per_file_ignored(res, opt, path, rule);
    });
    for (auto& f : more) unused.push_back(std::move(f));
  }
  for (auto& f : unused) res.findings.push_back(std::move(f));
}

void apply_per_file_ignores(LintResult& res, const LintOptions& opt) {
  for (auto& f : res.findings) {
    if (!f.suppressions.empty()) continue;
    if (const PerFileIgnore* p = per_file_ignored(res, opt, f.loc.path, f.rule))
      f.suppressions.push_back({"per-file-ignores \"" + p->glob.pattern + "\" (" + p->origin + ")", {}, "external"});
  }
}

// Severity overrides, inline suppressions, unused suppressions, per-file-ignores.
void apply_policy(LintResult& res, const LintOptions& opt, const std::set<std::string>& ran) {
  if (opt.inline_ignore) apply_inline_suppressions(res, opt, ran);
  for (auto& f : res.findings) {
    auto it = opt.severity.find(f.rule);
    if (it != opt.severity.end()) f.level = it->second;
  }
  if (!opt.per_file_ignores.empty()) apply_per_file_ignores(res, opt);
}

}  // namespace

bool ScopedGlob::matches(const std::string& abs_path, const std::string& display) const {
  if (base.empty()) return glob_match(pattern, display);
  std::string b = base;
  if (b.size() > 1 && b.back() == '/') b.pop_back();
  if (b == "/") return glob_match(pattern, abs_path.substr(1));
  if (!starts_with(abs_path, b + "/")) return false;
  return glob_match(pattern, abs_path.substr(b.size() + 1));
}

namespace {

// A line's text with runs of blanks made one space and leading/trailing blanks dropped.
std::string normalised_line(std::string_view l) {
  std::string line;
  bool sp = false;
  for (char c : l) {
    if (c == ' ' || c == '\t' || c == '\r') { sp = !line.empty(); continue; }
    if (sp) line += ' ';
    sp = false;
    line += c;
  }
  return line;
}

// The normalised text of a flagged line: from the file's line memo when remembered, else read
// (a released file is re-read) and remembered within the memo's bounds.
std::string flagged_line_text(const ParsedFile& pf, int line1) {
  if (!pf.src.released()) return normalised_line(pf.src.line(line1));  // a kept text needs no memo
  LineMemo& memo = pf.memo();
  auto at = std::lower_bound(memo.lines.begin(), memo.lines.end(), line1,
                             [](const auto& e, int l) { return e.first < l; });
  if (at != memo.lines.end() && at->first == line1) return at->second;
  std::string text = normalised_line(pf.src.line(line1));
  // Only non-empty text: an empty line may be a re-read that failed (the file changed).
  if (!text.empty() && text.size() <= LineMemo::kMaxBytes && memo.lines.size() < LineMemo::kMaxLines) {
    memo.lines.insert(at, {line1, text});
    memo.grown = true;
  }
  return text;
}

}  // namespace

std::vector<std::string> fingerprints_relative_to(const LintResult& r, const std::string& base) {
  // primaryLocationLineHash-style: hash of rule, path and the flagged line's
  // whitespace-normalised text, plus the occurrence index of that triple.
  // The path is the display path, or relative to `base` when given.
  std::vector<std::string> out;
  out.reserve(r.findings.size());
  std::map<std::string, int> seen;
  for (const auto& f : r.findings) {
    const ParsedFile* pf = r.project.find(f.loc.path);
    std::string line = pf ? flagged_line_text(*pf, f.loc.range.line) : std::string();
    std::string path = base.empty() ? f.loc.path.str() : path_relative_to(r, f.loc.path, base);
    std::string key = f.rule + '\x1f' + path + '\x1f' + line;
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : key) { h ^= c; h *= 1099511628211ull; }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    out.push_back(std::string(hex) + ":" + std::to_string(++seen[key]));
  }
  return out;
}

std::string path_relative_to(const LintResult& r, const std::string& display, const std::string& base) {
  std::string abs = abs_of(r.project, display);
  std::string rel = fs::path(abs).lexically_relative(fs::path(base).lexically_normal()).generic_string();
  return rel.empty() ? abs : rel;
}

void assign_fingerprints(LintResult& r) {
  std::vector<std::string> fp = fingerprints_relative_to(r, "");
  for (size_t i = 0; i < fp.size(); ++i) r.findings[i].fingerprint = fp[i];
}

namespace {

bool is_under(const std::string& a, const std::string& r) {
  return a == r || starts_with(a, r == "/" ? "/" : r + "/");
}

// The lint root: the current directory when every path is below it, else the
// common parent of the paths. Display paths (and SARIF URIs) are relative to it.
std::string lint_root(const LintOptions& opt, const std::vector<std::string>& paths) {
  std::error_code ec;
  std::string cwd = fs::current_path(ec).generic_string();
  std::string root = opt.root.empty() ? cwd : fs::absolute(opt.root, ec).lexically_normal().generic_string();
  if (opt.root.empty()) {
    std::vector<std::string> abs;
    for (auto& p : paths) {
      std::string a = fs::absolute(p, ec).lexically_normal().generic_string();
      if (a.size() > 1 && a.back() == '/') a.pop_back();
      abs.push_back(a);
    }
    bool all_under_cwd = std::all_of(abs.begin(), abs.end(), [&](const std::string& a) { return is_under(a, cwd); });
    if (!all_under_cwd) {
      // common parent of the named paths (a named directory is its own root)
      struct stat st;
      root = abs[0];
      if (stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) root = fs::path(root).parent_path().generic_string();
      for (auto& a : abs)
        while (!is_under(a, root) && root != "/") root = fs::path(root).parent_path().generic_string();
    }
  }
  if (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

// The display path of the folder the named paths share (a file's folder), "" for the root;
// a split run's unit folder when there is one.
std::string project_top(const LintOptions& opt, const std::string& root, const std::vector<std::string>& paths) {
  if (!opt.unit.empty() && opt.unit != ".") return opt.unit;
  std::error_code ec;
  std::string top;
  for (size_t i = 0; i < paths.size(); ++i) {
    fs::path a = fs::absolute(paths[i], ec).lexically_normal();
    if (!fs::is_directory(a, ec)) a = a.parent_path();
    std::string rel = fs::path(a).lexically_relative(root).generic_string();
    if (rel == "." || rel.empty() || starts_with(rel, "..")) return "";
    if (!rel.empty() && rel.back() == '/') rel.pop_back();
    while (i > 0 && !top.empty() && rel != top && !starts_with(rel, top + "/"))
      top = top.find('/') == std::string::npos ? "" : top.substr(0, top.rfind('/'));
    if (i == 0) top = rel;
    if (top.empty()) return "";
  }
  return top;
}

// The files to lint: standard input as one file, or the walk of the paths. With `repositories`,
// the walk does not enter a repository but lists it there (engine/units.h).
// The walk's files less sparkcheck's own (same device and inode), unless named on the command line.
void drop_own_files(const std::vector<std::string>& own, std::vector<WalkedFile>& files) {
  for (const auto& path : own) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) continue;
    std::erase_if(files, [&](const WalkedFile& wf) {
      return !wf.explicit_arg && wf.dev == static_cast<int64_t>(st.st_dev) && wf.ino == static_cast<int64_t>(st.st_ino);
    });
  }
}

std::vector<WalkedFile> walk_files(const LintOptions& opt, const std::vector<std::string>& paths, LintResult& res,
                                   std::vector<std::string>* repositories = nullptr,
                                   const std::vector<std::string>& link_roots = {}) {
  const std::string& root = res.project.root;
  std::vector<WalkedFile> files;
  if (opt.stdin_text) {
    std::error_code ec;
    std::string abs = fs::absolute(opt.stdin_filename.empty() ? "stdin" : opt.stdin_filename, ec).lexically_normal().generic_string();
    files.push_back({abs, display_path(abs, root), true});
  } else {
    WalkOptions wo{paths, root, opt.no_ignore, opt.exclude, opt.follow_symlinks, repositories != nullptr, link_roots};
    // config globs relative to the lint root also prune the walk
    for (const auto& g : opt.exclude_scoped)
      if (g.base.empty() || fs::path(g.base).lexically_normal().generic_string() == root) wo.exclude.push_back(g.pattern);
    WalkResult wr = walk(wo);
    files = std::move(wr.files);
    drop_own_files(opt.own_files, files);
    files.shrink_to_fit();  // kept through parsing: no doubling slack
    res.notifications = std::move(wr.notes);
    res.complete = wr.complete;
    if (repositories) *repositories = std::move(wr.repositories);
  }
  if (!opt.exclude_scoped.empty()) {
    std::erase_if(files, [&](const WalkedFile& wf) {
      for (const auto& g : opt.exclude_scoped)
        if (g.matches(wf.abs, wf.display)) return true;
      return false;
    });
  }
  return files;
}

// One file on its way through the engine.
// One per walked file, all alive until the project is built: kept small (the text read is
// the worker's, not the job's; the flags sit together).
struct Job {
  const WalkedFile* wf = nullptr;
  const Parser* parser = nullptr;
  std::shared_ptr<const ParsedFile> pf;  // shared with a ParseCache when LintOptions::reuse is set
  // Reading's notes, and the parser's (kept with the facts in a ParseCache); most files have none.
  std::unique_ptr<FileNotes> notes;
  FileNotes& add_notes() {
    if (!notes) notes = std::make_unique<FileNotes>();
    return *notes;
  }
  const std::vector<Notification>& read_notes() const { return notes ? notes->read : kNone; }
  const std::vector<Notification>& parse_notes() const { return notes ? notes->parse : kNone; }
  void set_notes(const std::vector<Notification>& read, const std::vector<Notification>& parse) {
    if (!read.empty() || !parse.empty()) add_notes() = {read, parse};
  }
  static inline const std::vector<Notification> kNone;
  // With LintOptions::reuse only: the file's stamp, taken before reading it, when it is known
  // (`stamped`) and not the walk's status (most files), and the index of its ParseCache entry.
  std::unique_ptr<DiskStamp> stamp;
  static constexpr uint32_t kNoEntry = UINT32_MAX;
  uint32_t entry = kNoEntry;
  bool parse = false;
  bool reused = false;   // pf is a ParseCache entry's
  bool unread = false;   // and its stamp matched: the entry stays as it is
  bool stamped = false;  // the stamp is known
  DiskStamp walk_stamp() const { return {wf->dev, wf->ino, wf->size, wf->ctime_ns}; }
  DiskStamp stamp_taken() const { return !stamped ? DiskStamp{} : stamp ? *stamp : walk_stamp(); }
};

// The index of the file's ParseCache entry (LintOptions::reuse), kNoEntry when it has none.
uint32_t entry_index(const WalkedFile& wf, const LintOptions& opt) {
  if (!opt.reuse) return Job::kNoEntry;
  size_t at = opt.reuse->entries.index_of(wf.abs);
  return at < opt.reuse->entries.size() && at < Job::kNoEntry ? static_cast<uint32_t>(at) : Job::kNoEntry;
}

const CacheEntry* entry_of(const Job& job, const LintOptions& opt) {
  return opt.reuse && job.entry != Job::kNoEntry ? &opt.reuse->entries.at(job.entry).second : nullptr;
}

// The first bytes of an extension-less file, for shebang sniffing ("" when unreadable).
std::string file_head(const WalkedFile& wf) {
  std::string head;
  int fd = open(wf.abs.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0) return head;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    char b[256];
    ssize_t n = read(fd, b, sizeof b);
    if (n > 0) head.assign(b, static_cast<size_t>(n));
  }
  close(fd);
  return head;
}

// The parser of each kind, null for a kind two parsers share.
const Parser* parser_of_kind(FileKind kind) {
  const Parser* found = nullptr;
  for (const Parser* p : parsers())
    if (kind == p->kind()) {
      if (found) return nullptr;
      found = p;
    }
  return found;
}

// Is a file that no parser claims by name read for a shebang? Extension-less names are, and so
// are scripts named with dots (`start.tp2.serve`, `run.node1`); a known data, source or binary
// extension is not (one open per file saved on big trees).
bool sniffed_name(std::string_view name) {
  static const std::set<std::string, std::less<>> not_scripts = {
      "c", "cc", "cpp", "cxx", "h", "hh", "hpp", "cu", "cuh", "go", "rs", "java", "kt", "js", "mjs", "ts", "tsx",
      "jsx", "css", "scss", "html", "htm", "xml", "svg", "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "pdf",
      "zip", "gz", "tgz", "bz2", "xz", "zst", "tar", "whl", "so", "a", "o", "dll", "bin", "pt", "pth", "ckpt",
      "safetensors", "onnx", "gguf", "npy", "npz", "pkl", "parquet", "arrow", "csv", "tsv", "jsonl", "log", "txt",
      "rst", "tex", "lock", "sum", "mod", "pyc", "wav", "mp3", "mp4", "ttf", "woff", "woff2", "patch", "diff"};
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return true;
  if (dot == 0) return false;  // dotfiles: named by their parsers (.env, .envrc)
  return !not_scripts.count(lower(name.substr(dot + 1)));
}

// The parser an earlier run chose for this path, read off its ParseCache entry's key. A name
// that is not sniffed is classified by its path alone, so the choice still holds.
const Parser* reused_classification(const WalkedFile& wf, const CacheEntry* e) {
  const std::string& display = wf.display;
  if (!e || sniffed_name(base_name(display))) return nullptr;
  if (!e->file || e->file->src.path() != wf.display) return nullptr;
  return parser_of_kind(cache_key::kind(e->key));
}

const Parser* classify(const WalkedFile& wf, const LintOptions& opt, const CacheEntry* entry) {
  if (const Parser* p = reused_classification(wf, entry)) return p;
  FileInfo info{wf.display, base_name(wf.display), {}};
  const Parser* parser = parser_for(info);
  // no name match: sniff a shebang (extension-less scripts, `start.tp2.serve`)
  if (!parser && !opt.stdin_text && sniffed_name(base_name(wf.display))) {
    std::string head = file_head(wf);
    info.head = head;
    parser = parser_for(info);
  }
  return parser;
}

// Step 1 (in order): classify each file; the workers read it (once) just before parsing.
std::vector<Job> classify_files(const std::vector<WalkedFile>& files, const LintOptions& opt) {
  std::vector<Job> jobs(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const WalkedFile& wf = files[i];
    Job& job = jobs[i];
    job.wf = &wf;
    job.entry = entry_index(wf, opt);
    job.parser = classify(wf, opt, entry_of(job, opt));
    if (!job.parser) {
      if (wf.explicit_arg)
        job.add_notes().read.push_back({Level::Warning, wf.display, {}, "not linted: sparkcheck has no parser for this kind of file", "unknown-kind"});
      continue;
    }
    job.parse = true;
  }
  return jobs;
}

template <class T> void shrink(std::vector<T>& v) {
  if (v.capacity() > v.size()) std::vector<T>(std::make_move_iterator(v.begin()), std::make_move_iterator(v.end())).swap(v);
}
template <class T> void shrink(FactList<T>& v) {
  if (!v.empty()) shrink(v.edit());
  else v.clear();  // unmade again
}

void shrink_command(Command& c) {
  shrink(c.argv);
  shrink(c.env);
}

// Facts stay for the whole run: the spare capacity of their lists goes once they are taken.
void shrink_to_fit(FileFacts& f) {
  for (Install& in : f.installs) shrink(in.packages);
  for (Command& c : f.commands) shrink_command(c);
  for (Command& c : f.sbatch) shrink_command(c);
  for (Command& c : f.arg_lists) shrink_command(c);
  for (PyCall& c : f.python.calls) shrink(c.args);
  shrink(f.installs), shrink(f.indexes), shrink(f.images), shrink(f.env), shrink(f.refs);
  shrink(f.commands), shrink(f.sbatch), shrink(f.arg_lists), shrink(f.config), shrink(f.code_lines), shrink(f.sections), shrink(f.ci_jobs);
  shrink(f.front_matter);
  shrink(f.python.imports), shrink(f.python.calls), shrink(f.python.assigns), shrink(f.python.strings);
}

// Inline suppression comments are read with the facts, while the text is there.
void read_suppressions(ParsedFile& pf, const LintOptions& opt) {
  const std::string& t = pf.src.text();
  if (!opt.inline_ignore || !memmem(t.data(), t.size(), "sparkcheck", 10)) return;  // glibc's memmem: no per-'s' stop
  const auto* only = pf.facts->kind == FileKind::Markdown ? &pf.facts->code_lines.all() : nullptr;
  std::vector<Notification> problems;
  auto found = parse_suppressions(pf.src, opt.allow_reasonless_suppressions, problems, only);
  pf.set_suppressions(std::move(found), std::move(problems));
}

// Once its facts are taken a file's text goes (outputs re-read the lines they show), unless a
// rule reads the text itself or it came from stdin or an editor's buffer (nothing to re-read).
void drop_text(ParsedFile& pf, const LintOptions& opt, size_t bytes_read) {
  if (opt.stdin_text || opt.overlays.count(pf.abs_path)) return;
  for (TextNeed need : text_needs())
    if (need(pf.facts->kind, pf.src.text())) return;
  pf.src.release(pf.abs_path, pf.content_hash, bytes_read);
}

// The text to lint: standard input, an editor's buffer (LintOptions::overlays) or the file on disk.
bool job_text(const WalkedFile& wf, const LintOptions& opt, std::string& text, ContentHash& hash,
              std::vector<Notification>& notes) {
  if (opt.stdin_text) {
    text = *opt.stdin_text;
    hash = content_hash(text);
    return true;
  }
  auto overlay = opt.overlays.find(wf.abs);
  if (overlay == opt.overlays.end()) return read_file(wf, opt.max_file_bytes, text, hash, notes);
  if (overlay->second.size() > opt.max_file_bytes) {
    notes.push_back({Level::Warning, wf.display, {}, "not linted: the buffer is " + mb(overlay->second.size()) +
                     ", over the " + mb(opt.max_file_bytes) + " limit", "file-too-large"});
    return false;
  }
  text = overlay->second;
  hash = content_hash(text);
  return usable_text(wf, text, notes);
}

// A file whose parse spent its memory budget: what it gave is dropped (it may be any part of
// the file), the notification names it, and the run goes on with the other files.
void over_budget(const WalkedFile& wf, const std::string& why, FileFacts& facts, ParseDiag& diag) {
  FileKind kind = facts.kind;
  facts = FileFacts{};
  facts.kind = kind;
  diag.notes.clear();
  diag.error(wf.display, {}, "not linted: parsing the file " + why + " (a generated or hostile file?)", "parse-budget");
}

// Parses the file's text into job.pf; the parser's notes go to the job's parse notes.
void parse_fresh(Job& job, std::string text, const ContentHash& hash, const LintOptions& opt, const Prefilter& filter) {
  const WalkedFile& wf = *job.wf;
  auto pf = std::make_shared<ParsedFile>();
  pf->abs_path = wf.abs;
  pf->content_hash = hash;
  size_t bytes_read = text.size() + 3;  // a byte-order mark may have been dropped
  bool crlf = text.find("\r\n") != std::string::npos;
  FileFacts facts;
  facts.kind = job.parser->kind();
  bool wanted = filter.wanted(facts.kind, text);
  pf->src = SourceFile(wf.display, std::move(text));
  ParseDiag diag;
  if (facts.kind == FileKind::Notebook)
    diag.python_wanted = [&filter](std::string_view code) { return filter.embedded_python_wanted(code); };
  if (facts.kind == FileKind::Python && wanted && filter.trims_python())  // parsed around its trigger lines
    diag.python_lines = [&filter](std::string_view code) { return filter.python_lines(code); };
  // The file's memory budget (core/parse_budget.h): a file that spends it fails alone.
  ParseBudget budget(ParseBudget::for_size(pf->src.text().size()));
  try {
    ParseBudget::Scope scope(budget);
    if (wanted) job.parser->parse(pf->src, facts, diag);
    for (PostParsePass pass : post_parse_passes()) pass(facts);
    if (wanted) filter.trim(pf->src, facts);  // after the passes: they read every call
    shrink_to_fit(facts);
  } catch (const BudgetExceeded& e) {
    over_budget(wf, "used more than " + mb(e.limit) + ", its budget as a " + mb(pf->src.text().size()) + " file", facts, diag);
  } catch (const std::bad_alloc&) {
    over_budget(wf, "ran out of memory", facts, diag);
  } catch (const std::exception& e) {
    diag.error(wf.display, {}, std::string("internal error while parsing: ") + e.what(), "internal-error");
  }
  pf->facts = std::move(facts);
  if (crlf && (pf->facts->kind == FileKind::Shell))
    diag.notes.push_back({Level::Warning, wf.display, {}, "CRLF line endings: bash reads the carriage returns as part of each command ($'\\r': command not found); convert to LF", "crlf"});
  if (!diag.notes.empty()) job.add_notes().parse = std::move(diag.notes);
  read_suppressions(*pf, opt);
  drop_text(*pf, opt, bytes_read);
  job.pf = std::move(pf);
}

// What besides its bytes and display path decides what reading and parsing make of a file.
uint32_t entry_key(const Job& job, const LintOptions& opt) {
  bool buffer = opt.stdin_text || opt.overlays.count(job.wf->abs);
  uint32_t key = static_cast<uint32_t>(job.parser->kind()) & cache_key::kKind;
  if (buffer) key |= cache_key::kBuffer;
  if (opt.inline_ignore) key |= cache_key::kInlineIgnore;
  if (opt.allow_reasonless_suppressions) key |= cache_key::kReasonless;
  if (opt.prefilter && prefilter_enabled_by_env()) key |= cache_key::kPrefilter;
  return key;
}

// The job's ParseCache entry when it is for this file as the job reads it (display path, kind,
// buffer or disk, reading options); null otherwise.
const CacheEntry* matching_entry(const Job& job, const LintOptions& opt) {
  const CacheEntry* e = entry_of(job, opt);
  return e && e->file && e->file->src.path() == job.wf->display && e->key == entry_key(job, opt) ? e : nullptr;
}

// The file as parsed in an earlier run, when nothing that decides it changed (shared, not copied:
// link() copies a file before adding to its facts).
bool reuse_parsed(Job& job, const LintOptions& opt, const ContentHash& hash) {
  const CacheEntry* e = matching_entry(job, opt);
  if (!e || e->file->content_hash != hash) return false;
  job.pf = e->file;
  if (!e->parse_notes().empty()) job.add_notes().parse = e->parse_notes();
  job.reused = true;
  return true;
}

// The file's stamp, taken before it is read; unknown for buffers, non-regular files and files
// changed in the last two seconds (a write within the clock's tick would leave the same ctime).
DiskStamp disk_stamp(const WalkedFile& wf, const LintOptions& opt) {
  if (opt.stdin_text || opt.overlays.count(wf.abs)) return {};
  DiskStamp s{wf.dev, wf.ino, wf.size, wf.ctime_ns};  // the walk's status (Job::walk_stamp), when it took one
  struct stat st;
  if (s.size < 0) {
    if ((wf.explicit_arg ? stat(wf.abs.c_str(), &st) : lstat(wf.abs.c_str(), &st)) != 0 || !S_ISREG(st.st_mode)) return {};
    s = {static_cast<int64_t>(st.st_dev), static_cast<int64_t>(st.st_ino), static_cast<int64_t>(st.st_size),
         static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  if (s.ctime_ns + 2000000000 > static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec) return {};
  return s;
}

// The file as parsed in an earlier run without reading it: its stamp is unchanged.
bool reuse_unread(Job& job, const LintOptions& opt) {
  if (!opt.reuse) return false;
  DiskStamp stamp = disk_stamp(*job.wf, opt);
  if (stamp.size < 0) return false;
  const CacheEntry* e = matching_entry(job, opt);
  if (e && e->disk == stamp) {
    job.pf = e->file;
    job.set_notes(e->read_notes(), e->parse_notes());
    return job.reused = job.unread = true;
  }
  job.stamped = true;
  if (stamp != job.walk_stamp()) job.stamp = std::make_unique<DiskStamp>(stamp);
  return false;
}

void parse_job(Job& job, const LintOptions& opt, const Prefilter& filter) {
  if (reuse_unread(job, opt)) return;
  ContentHash hash;
  std::string text;
  std::vector<Notification> notes;
  bool ok = job_text(*job.wf, opt, text, hash, notes);
  if (!notes.empty()) job.add_notes().read = std::move(notes);
  if (!ok) return;
  if (!reuse_parsed(job, opt, hash)) parse_fresh(job, std::move(text), hash, opt, filter);
}

// Parser threads: --jobs (LintOptions::jobs), else $SPARKCHECK_JOBS, else one per core (at most 8).
size_t thread_count(const LintOptions& opt) {
  if (opt.jobs > 0) return opt.jobs;
  if (const char* env = std::getenv("SPARKCHECK_JOBS")) {
    size_t n = 0;
    std::string_view v(env);
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && n > 0) return std::min<size_t>(n, 64);
  }
  return std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
}

// Step 2 (parallel): read and parse. Parsers are stateless; each job owns its output.
void parse_files(std::vector<Job>& jobs, const LintOptions& opt) {
  // no file to parse (an empty directory): the knowledge tables are not even loaded
  bool any = std::any_of(jobs.begin(), jobs.end(), [](const Job& j) { return j.parse; });
  const Prefilter filter(any && opt.prefilter && prefilter_enabled_by_env());
  size_t n_threads = thread_count(opt);
  if (jobs.size() < 16) n_threads = 1;
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      if (jobs[i].parse) parse_job(jobs[i], opt, filter);
      if (opt.progress) opt.progress(done.fetch_add(1) + 1, jobs.size());
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < n_threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
}

// The job's notes for its cache entry (copied: the job's go to the result).
std::unique_ptr<const FileNotes> entry_notes(const Job& job) {
  if (!job.notes || (job.notes->read.empty() && job.notes->parse.empty())) return nullptr;
  return std::make_unique<const FileNotes>(*job.notes);
}

// Step 3 (in order): the parsed files become the project, then linked.
// The run's parsed files become the cache for the next one (shared: link() adds facts to copies).
// A reused entry stays where it is (a file read again takes this run's stamp and notes); the
// others are made; entries of files this run did not parse are dropped.
void remember_parsed(const std::vector<Job>& jobs, const LintOptions& opt, ParseCache& cache) {
  std::vector<bool> kept(cache.entries.size());
  std::vector<CacheEntries::Item> made;
  made.reserve(static_cast<size_t>(std::count_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.pf && !j.reused; })));
  cache.hits = cache.misses = 0;
  for (const Job& job : jobs) {
    if (!job.pf) continue;
    ++(job.reused ? cache.hits : cache.misses);
    DiskStamp stamp = job.stamp_taken();
    if (!job.reused) {
      made.push_back({job.wf->abs, CacheEntry{job.pf, entry_notes(job), stamp, entry_key(job, opt)}});
      continue;
    }
    kept[job.entry] = true;
    if (job.unread) continue;
    CacheEntry& e = cache.entries.at(job.entry).second;
    e.disk = stamp;
    e.notes = entry_notes(job);
  }
  cache.entries.keep_and_add(kept, std::move(made));
}

void build_project(std::vector<Job>& jobs, const LintOptions& opt, LintResult& res) {
  if (opt.reuse) remember_parsed(jobs, opt, *opt.reuse);
  size_t parsed = static_cast<size_t>(std::count_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.pf != nullptr; }));
  res.files_linted = parsed;
  if (opt.list_linted) res.linted.reserve(parsed);
  res.project.files.reserve(parsed);  // no doubling slack at the peak
  for (auto& job : jobs) {
    if (job.notes) {
      for (auto& n : job.notes->read) res.notifications.push_back(std::move(n));
      for (auto& n : job.notes->parse) res.notifications.push_back(std::move(n));
    }
    if (!job.pf) continue;
    if (opt.list_linted) res.linted.push_back(job.pf->src.path());
    res.project.files.push_back(std::move(job.pf));
  }
}

// Step 4: every selected rule over the project; returns the ids that ran.
std::set<std::string> check_rules(const LintOptions& opt, LintResult& res) {
  Collector col;
  std::set<std::string> ran;
  for (const Rule* r : rules()) {
    std::string id(r->id());
    if (!opt.select.empty() && !opt.select.count(id)) continue;
    if (opt.ignore.count(id)) continue;
    ran.insert(id);
    if (res.project.files.empty()) continue;  // rules read files' facts: nothing to read, nothing to load
    col.start(id);
    try {
      r->check(res.project, col);
      col.finish();
    } catch (const std::exception& e) {
      res.notifications.push_back({Level::Error, "", {}, "internal error in rule " + id + ": " + e.what(), "internal-error"});
      res.complete = false;
    }
  }
  res.findings = std::move(col.found);
  for (auto& n : col.notes) res.notifications.push_back(std::move(n));
  return ran;
}

// A CI job (or SkyPilot task) that asks for no runner label / accelerator of knowledge
// `spark-runner-labels` (or names its runner by an expression) is not known to run on a
// Spark: the findings inside it are notes.
bool off_spark_job(const CiJob& j) {
  const auto& spark = knowledge::table("spark-runner-labels");
  return std::none_of(j.labels.begin(), j.labels.end(), [&](const std::string& l) { return spark.match(l); });
}

std::string runner_of(const CiJob& j) {
  if (!j.labels.empty()) return "runner " + j.labels.front();
  return j.resolved ? "a shared runner" : "a runner named by an expression";
}

// The off-Spark job holding `line` of `f`, or null.
const CiJob* off_spark_job_at(const ParsedFile& f, int line) {
  for (const CiJob& j : f.facts->ci_jobs)
    if (j.first <= line && line <= j.last && off_spark_job(j)) return &j;
  return nullptr;
}

// The off-Spark CI job that installs requirements file `f`, when every install of it is in one.
const CiJob* only_installed_off_spark(const Project& p, const ParsedFile& f) {
  auto it = p.installed_by.find(&f);
  if (it == p.installed_by.end() || it->second.empty()) return nullptr;
  const CiJob* job = nullptr;
  for (const Project::Installer& in : it->second) {
    const CiJob* j = in.file && !in.dockerfile && in.install ? off_spark_job_at(*in.file, in.install->loc.range.line) : nullptr;
    if (!j) return nullptr;
    job = j;
  }
  return job;
}

std::string off_spark_reason(const CiJob& j, bool installed) {
  if (j.system == "skypilot") return " (this SkyPilot task asks for " + j.labels.front() + ", not a Spark)";
  return std::string(installed ? " (installed only by CI job " : " (CI job ") + j.name + (installed ? ", which runs on " : " runs on ") +
         runner_of(j) + ", not known to be a Spark)";
}

void lower_off_spark(LintResult& res) {
  for (Finding& f : res.findings) {
    const ParsedFile* pf = f.level == Level::Note ? nullptr : res.project.find(f.loc.path);
    if (!pf) continue;
    const CiJob* j = off_spark_job_at(*pf, f.loc.range.line);
    bool installed = !j && pf->facts->kind == FileKind::Requirements;
    if (installed) j = only_installed_off_spark(res.project, *pf);
    if (!j) continue;
    f.level = Level::Note;
    std::string m = f.message.str();
    size_t end = headline_end(m);  // the reason belongs to the headline, before the explanation
    m.insert(end == std::string::npos ? m.size() : end, off_spark_reason(*j, installed));
    f.message = m;
  }
}

// A Markdown copy of an outside page (query::copied_page: a source URL and a retrieval date in
// its front matter) holds someone else's commands, not the project's: no finding there.
void drop_copied_pages(LintResult& res) {
  auto copied = [&](const Finding& f) {
    const ParsedFile* pf = res.project.find(f.loc.path);
    return pf && pf->facts->kind == FileKind::Markdown && query::copied_page(*pf->facts);
  };
  res.findings.erase(std::remove_if(res.findings.begin(), res.findings.end(), copied), res.findings.end());
}

// A finding at a word whose value is written there but used elsewhere (a command held in a
// shell variable, a compose build arg read by a Dockerfile) names the place of use.
bool within(const Range& inner, const Range& outer) {
  auto before = [](int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
  return before(outer.line, outer.col, inner.line, inner.col) &&
         before(inner.line, inner.col, outer.end_line, outer.end_col - 1);
}

void add_use_sites(LintResult& res) {
  std::map<std::string, std::vector<const Expansion*>> by_path;
  for (const auto& f : res.project.files)
    for (const Expansion& x : f->facts->expansions) by_path[x.written.path].push_back(&x);
  if (by_path.empty()) return;
  for (Finding& f : res.findings) {
    auto it = by_path.find(f.loc.path);
    if (it == by_path.end()) continue;
    std::set<std::pair<int, int>> seen;
    for (const Expansion* x : it->second)
      if (within(f.loc.range, x->written.range) && seen.insert({x->used.range.line, x->used.range.col}).second)
        f.related.push_back({x->used, x->what});
  }
}

// Sorted, and the same finding reported twice (a file reached through two contexts) kept once.
void sort_and_dedupe(std::vector<Finding>& findings) {
  for (auto& f : findings)
    if (f.loc.path.empty()) f.loc.path = "?";
  sort_findings(findings);
  findings.erase(std::unique(findings.begin(), findings.end(),
                             [](const Finding& a, const Finding& b) {
                               return a.rule == b.rule && a.loc.path == b.loc.path && a.loc.range == b.loc.range &&
                                      a.message == b.message;
                             }),
                 findings.end());
}

// Last step: findings recorded in the baseline are counted and dropped.
void apply_baseline(const LintOptions& opt, LintResult& res) {
  res.baseline_applied = true;
  std::vector<std::string> keys = fingerprints_relative_to(res, opt.baseline_base);
  std::vector<Finding> kept;
  for (size_t i = 0; i < res.findings.size(); ++i) {
    if (res.findings[i].suppressions.empty() && opt.baseline->count(keys[i])) ++res.baselined;
    else kept.push_back(std::move(res.findings[i]));
  }
  res.findings = std::move(kept);
}

// The files of a run: walked, or those of a unit (walked already, and its repository's walk).
std::vector<WalkedFile> unit_files(const LintOptions& opt, const std::vector<std::string>& paths, LintResult& res) {
  if (!opt.unit_files) return walk_files(opt, paths, res);
  std::vector<WalkedFile> files = std::move(*opt.unit_files);
  if (opt.unit_walks.empty()) return files;
  std::vector<WalkedFile> walked = walk_files(opt, opt.unit_walks, res, nullptr, paths);
  if (files.empty()) return walked;
  std::set<std::string_view> named;  // files named on the command line inside the repository
  for (const WalkedFile& wf : files) named.insert(wf.display.str());
  for (WalkedFile& wf : walked)
    if (!named.count(wf.display.str())) files.push_back(std::move(wf));
  return files;
}

// walk -> read -> parse -> link; the walk's and the parse jobs' records go before linking.
void read_project(const LintOptions& opt, const std::vector<std::string>& paths, LintResult& res) {
  {
    std::vector<WalkedFile> files = unit_files(opt, paths, res);
    std::vector<Job> jobs = classify_files(files, opt);
    parse_files(jobs, opt);
    build_project(jobs, opt, res);
  }
  res.project.link();
  for (auto& n : res.project.notes) res.notifications.push_back(n);
}

// Repositories side by side (engine/units.h): only a one-shot run over a root in no git work
// tree splits (an editor's workspace stays one project).
bool may_split(const LintOptions& opt, const std::string& root) {
  return opt.split_repositories && !opt.unit_files && !opt.reuse && !opt.stdin_text && opt.overlays.empty() &&
         !in_git_work_tree(root);
}

// The walk (which lists the repositories it meets instead of entering them), then each unit
// linted as a run of its own (cache included), one after another. Split, a unit's paths are
// interned in a scope of their own and what the run keeps of it waits as bytes (UnitSpill):
// the next unit starts in the memory this one freed.
LintResult lint_units(const LintOptions& opt, const std::vector<std::string>& paths, LintResult res) {
  res.project.target = opt.target;
  std::vector<std::string> repositories;
  std::vector<WalkedFile> walked = walk_files(opt, paths, res, &repositories);
  std::vector<LintUnit> units = split_into_units(std::move(walked), res.project.root, repositories);
  if (units.size() == 1) {
    LintOptions one = opt;
    one.unit_files = &units[0].files;
    one.unit_walks = std::move(units[0].walks);
    add_unit_result(res, run_lint(one), nullptr, opt.list_linted);
    return res;
  }
  UnitSpill spill;
  for (LintUnit& u : units) {
    LintOptions one = opt;
    one.unit_files = &u.files;
    one.unit_walks = std::move(u.walks);
    one.unit = u.dir;
    {
      PathRef::Scope scope;
      add_unit_result(res, run_lint(one), &spill, opt.list_linted);
      std::vector<WalkedFile>().swap(u.files);
    }
    malloc_trim(0);  // the unit's freed pages go back to the system, not only to malloc
  }
  spill.take(res);
  res.units = units.size();
  sort_findings(res.findings);
  return res;
}

}  // namespace

// walk -> read -> parse -> link -> check -> suppress (policy) -> fingerprint -> baseline
LintResult run_lint(const LintOptions& opt) {
  LintResult res;
  std::vector<std::string> paths = opt.paths.empty() ? std::vector<std::string>{"."} : opt.paths;
  res.project.root = lint_root(opt, paths);
  res.project.top = opt.stdin_text ? "" : project_top(opt, res.project.root, paths);
  if (may_split(opt, res.project.root)) return lint_units(opt, paths, std::move(res));
  if (opt.disk_cache && !opt.reuse && !opt.stdin_text && opt.overlays.empty())
    return lint_with_disk_cache(opt, res.project.root);
  res.project.target = opt.target;
  read_project(opt, paths, res);
  std::set<std::string> ran = check_rules(opt, res);
  lower_off_spark(res);
  drop_copied_pages(res);
  add_use_sites(res);
  sort_and_dedupe(res.findings);
  apply_policy(res, opt, ran);
  sort_findings(res.findings);
  if (opt.fingerprints) assign_fingerprints(res);
  if (opt.baseline) apply_baseline(opt, res);
  return res;
}

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Source text, positions and ranges shared by every parser, rule and output.
#pragma once
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sc {

// A path, interned: one string per distinct path in a process-wide pool that only grows
// (safe from any thread), so copying a path copies a pointer. Reads like a const
// std::string; made from a string it interns it (a lock and a hash: keep one per file).
class PathRef {
 public:
  PathRef() = default;
  PathRef(std::string_view s) : p_(intern(s)) {}
  PathRef(const std::string& s) : p_(intern(s)) {}
  PathRef(const char* s) : p_(intern(s)) {}

  const std::string& str() const { return *p_; }
  operator const std::string&() const { return *p_; }
  operator std::string_view() const { return *p_; }
  bool empty() const { return p_->empty(); }
  size_t size() const { return p_->size(); }
  const char* data() const { return p_->data(); }
  const char* c_str() const { return p_->c_str(); }

  // Interned: equal paths are the same string.
  friend bool operator==(PathRef a, PathRef b) { return a.p_ == b.p_; }
  friend std::strong_ordering operator<=>(PathRef a, PathRef b) {
    return a.p_ == b.p_ ? std::strong_ordering::equal : *a.p_ <=> *b.p_;
  }
  // Against any string-like value, without interning it.
  template <class S> requires(!std::is_same_v<S, PathRef> && std::is_convertible_v<const S&, std::string_view>)
  friend bool operator==(PathRef a, const S& b) { return std::string_view(*a.p_) == std::string_view(b); }
  template <class S> requires(!std::is_same_v<S, PathRef> && std::is_convertible_v<const S&, std::string_view>)
  friend std::strong_ordering operator<=>(PathRef a, const S& b) { return std::string_view(*a.p_) <=> std::string_view(b); }
  friend std::string operator+(PathRef a, std::string_view b) { return std::string(*a.p_).append(b); }
  friend std::string operator+(std::string_view a, PathRef b) { return std::string(a).append(*b.p_); }
  friend std::ostream& operator<<(std::ostream& os, PathRef p);

  // While a Scope lives (one at a time, made and ended with no other thread interning), a
  // path not interned before goes to the scope's own pool, freed when it ends: a run over
  // several projects (engine/units.h) keeps one project's paths at a time. A PathRef made in
  // the scope is not valid after it (what outlives it is kept as text, engine/UnitSpill).
  class Scope {
   public:
    Scope();
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };

 private:
  static const std::string* intern(std::string_view s);
  static const std::string kEmpty;
  const std::string* p_ = &kEmpty;
};

// 1-based line and column; columns count Unicode code points; end is exclusive.
struct Range {
  int line = 0, col = 0, end_line = 0, end_col = 0;
  bool valid() const { return line > 0; }
  bool operator==(const Range&) const = default;
};

// A place in a linted file. `path` is the display path: relative to the
// lint root, '/'-separated, exactly what outputs print.
struct Location {
  PathRef path;
  Range range;
};

// A file's bytes as read (before a byte-order mark is dropped), digested with BLAKE2b-256
// (libsodium): the engine's ParsedFile::content_hash, what decides that a cached parse is
// still the file's, and what a released SourceFile checks when it re-reads. A cryptographic
// digest, so that no crafted file can pass for another and reuse its facts.
struct ContentHash {
  std::array<uint64_t, 4> words{};
  bool operator==(const ContentHash&) const = default;
};
ContentHash content_hash(std::string_view bytes);

// One file's text. A SourceFile may also be a *view* of part of another file
// (a notebook cell, a Dockerfile RUN body): then `line_map` translates the
// view's lines to lines/columns of the real file.
class SourceFile {
 public:
  SourceFile();
  SourceFile(PathRef display_path, std::string text);
  SourceFile(const SourceFile& o);
  SourceFile(SourceFile&&) noexcept;
  SourceFile& operator=(const SourceFile& o);
  SourceFile& operator=(SourceFile&&) noexcept;
  ~SourceFile();

  const PathRef& path() const { return path_; }
  const std::string& text() const;

  // Drops the text and line index once the facts are taken (memory stays flat as the tree
  // grows). Later calls re-read `abs_path` on demand, one released file at a time (the
  // previous one is dropped again; not thread-safe: rules and outputs run on one thread).
  // A re-read file whose bytes no longer hash to `hash` reads as empty: no line of it is shown.
  void release(PathRef abs_path, const ContentHash& hash, size_t size);
  bool released() const { return !reload_path_.empty(); }
  size_t reload_size() const { return size_; }  // the bound of a re-read (released files)

  // Byte offsets -> range in the real file.
  Range range(size_t begin, size_t end) const;
  Location loc(size_t begin, size_t end) const { return {path_, range(begin, end)}; }

  int line_count() const;
  std::string_view line(int line1) const;  // without the newline
  // Byte offset of a line's start; out-of-range lines clamp to the first and past the last.
  size_t line_start(int line1) const;
  // Which 1-based line holds byte offset `off`.
  int line_of(size_t off) const;
  // Byte offsets of a range of this file (not of a view); false when it lies outside the text.
  bool offsets(const Range& r, size_t& begin, size_t& end) const;

  // For views: view line i (0-based) starts at real line map[i].line, and
  // byte offset 0 of that view line is at real column map[i].col_bytes
  // (0-based bytes within the real line, used to convert columns).
  struct LineMapEntry { int line; size_t col_bytes; std::string_view real_line; };
  void set_line_map(std::vector<LineMapEntry> m);

 private:
  // The text, its line index and column memo: absent while the file is released, so a
  // released file (most of a tree) costs its paths, hash and size alone.
  struct Body;
  PathRef path_;
  PathRef reload_path_;  // set by release()
  ContentHash hash_;
  size_t size_ = 0;  // bytes as read, the bound of a re-read
  mutable std::unique_ptr<Body> body_;
  mutable bool loaded_ = true;
  bool ascii_ = true;  // all bytes < 0x80: columns are byte offsets + 1
  const Body& b() const;  // the body (an empty one for a file made without text)
  Body& own_body();
  int cols_in_line_(std::string_view ln, size_t bytes, bool ascii) const;
  void index_lines_();
  const SourceFile& restored_() const;
  friend struct Restorer;
  Range map_(int vline, size_t vcol, int vend_line, size_t vend_col) const;
};

// A 64-bit hash (fast, not collision-resistant): cache file names and checksums against damage.
uint64_t hash_bytes(std::string_view bytes);
// Its steps, for hashes taken over bytes as they stream by (the facts cache's checksum):
// the start value, one 8-byte word mixed in, and the finish.
constexpr uint64_t kHashStart = 0x243F6A8885A308D3ull, kHashWordMul = 0x9E3779B97F4A7C15ull;
inline uint64_t hash_mix(uint64_t h, uint64_t word) {
  h ^= word * kHashWordMul;
  return (h << 31 | h >> 33) * 0xC2B2AE3D27D4EB4Full;
}
inline uint64_t hash_finish(uint64_t h) {
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

// Count of code points in the first `bytes` bytes of s (for columns).
int utf8_cols(std::string_view s, size_t bytes);
bool valid_utf8(std::string_view s);
std::string trim(std::string_view s);
std::string lower(std::string_view s);
// Where `needle` (lower-case ASCII) first occurs in s ignoring ASCII case, npos if nowhere.
size_t find_nocase(std::string_view s, std::string_view needle, size_t from = 0);
bool starts_with(std::string_view s, std::string_view p);
bool ends_with(std::string_view s, std::string_view p);
std::vector<std::string> split(std::string_view s, char sep);

}  // namespace sc

template <> struct std::hash<sc::PathRef> {
  size_t operator()(sc::PathRef p) const noexcept { return std::hash<std::string_view>{}(p); }
};

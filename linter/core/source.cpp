// SPDX-License-Identifier: Apache-2.0
#include "core/source.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <ostream>

#include <sodium.h>

#include "core/read_file.h"

namespace sc {

const std::string PathRef::kEmpty;

namespace {
// The interned paths: strings in a deque (they never move) and an open-addressing table of
// 8-byte (hash, index) slots. A lookup compares stored hashes before touching a string, and
// growing re-slots by the stored hashes alone: a walk interning 400,000 new paths stays linear
// (a node-based set cost 10x the time for 4x the paths, in cache misses).
class PathPool {
 public:
  const std::string* intern(std::string_view s) {
    uint32_t h = static_cast<uint32_t>(std::hash<std::string_view>{}(s)) | 1;  // 0 marks an empty slot
    if ((strings_.size() + 1) * 4 > slots_.size() * 3) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.hash == 0) {
        slot = {h, static_cast<uint32_t>(strings_.size())};
        return &strings_.emplace_back(s);
      }
      if (slot.hash == h && strings_[slot.index] == s) return &strings_[slot.index];
    }
  }
  // The interned string equal to `s`, or null.
  const std::string* find(std::string_view s) const {
    if (slots_.empty()) return nullptr;
    uint32_t h = static_cast<uint32_t>(std::hash<std::string_view>{}(s)) | 1;
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.hash == 0) return nullptr;
      if (slot.hash == h && strings_[slot.index] == s) return &strings_[slot.index];
    }
  }

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t index = 0;  // into strings_
  };
  void grow() {
    std::vector<Slot> old(std::max<size_t>(1024, slots_.size() * 2));
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Slot& o : old) {
      if (o.hash == 0) continue;
      size_t i = o.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = o;
    }
  }
  std::deque<std::string> strings_;
  std::vector<Slot> slots_;
};

// The lasting pool (never destroyed: paths stay valid in static destructors) and the scope's.
struct Pools {
  std::mutex mu;
  PathPool lasting;
  std::unique_ptr<PathPool> scoped;
};
Pools& pools() {
  static auto* p = new Pools();
  return *p;
}
}  // namespace

const std::string* PathRef::intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mu);
  if (!p.scoped) return p.lasting.intern(s);
  if (const std::string* found = p.lasting.find(s)) return found;
  return p.scoped->intern(s);
}

PathRef::Scope::Scope() {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mu);
  if (p.scoped) throw std::logic_error("PathRef::Scope: one at a time");
  p.scoped = std::make_unique<PathPool>();
}

PathRef::Scope::~Scope() {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mu);
  p.scoped.reset();
}

std::ostream& operator<<(std::ostream& os, PathRef p) { return os << p.str(); }

struct SourceFile::Body {
  std::string text;
  std::vector<size_t> line_starts;
  std::vector<LineMapEntry> line_map;
  // last column computed (line text, byte, cols): makes left-to-right scans of long lines
  // linear, in this file's lines and in the original lines a view maps to
  std::string_view memo_line;
  size_t memo_byte = 0;
  int memo_cols = 0;
};

SourceFile::SourceFile() = default;
SourceFile::SourceFile(SourceFile&&) noexcept = default;
SourceFile& SourceFile::operator=(SourceFile&&) noexcept = default;

SourceFile::SourceFile(PathRef display_path, std::string text) : path_(display_path), body_(std::make_unique<Body>()) {
  body_->text = std::move(text);
  index_lines_();
}

SourceFile::SourceFile(const SourceFile& o)
    : path_(o.path_), reload_path_(o.reload_path_), hash_(o.hash_), size_(o.size_),
      body_(o.body_ ? std::make_unique<Body>(*o.body_) : nullptr), loaded_(o.loaded_), ascii_(o.ascii_) {}

SourceFile& SourceFile::operator=(const SourceFile& o) {
  if (this != &o) *this = SourceFile(o);
  return *this;
}

// Reading never makes a body (a SourceFile may be read from several threads): a file made
// without text reads as this empty one. Writing (the text, the line map) makes its own.
const SourceFile::Body& SourceFile::b() const {
  static const Body empty;
  return body_ ? *body_ : empty;
}

SourceFile::Body& SourceFile::own_body() {
  if (!body_) body_ = std::make_unique<Body>();
  return *body_;
}

const std::string& SourceFile::text() const { return restored_().b().text; }
int SourceFile::line_count() const { return static_cast<int>(restored_().b().line_starts.size()); }
void SourceFile::set_line_map(std::vector<LineMapEntry> m) { own_body().line_map = std::move(m); }

size_t SourceFile::line_start(int line1) const {
  const Body& s = restored_().b();
  if (line1 < 1) return 0;
  return line1 > line_count() ? s.text.size() : s.line_starts[static_cast<size_t>(line1) - 1];
}

namespace {
// Bytes [i, end) of s up to the first non-ASCII 8-byte word: the index where the scan stopped.
size_t skip_ascii_words(std::string_view s, size_t i) {
  for (uint64_t v; i + 8 <= s.size(); i += 8) {
    std::memcpy(&v, s.data() + i, 8);
    if (v & 0x8080808080808080ull) break;
  }
  return i;
}
}  // namespace

void SourceFile::index_lines_() {
  Body& bd = own_body();
  const std::string& t = bd.text;
  bd.line_starts.assign(1, 0);
  const char* d = t.data();
  const char* end = d + t.size();
  for (const char* p = d; (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))); ++p)
    bd.line_starts.push_back(static_cast<size_t>(p - d) + 1);
  size_t i = skip_ascii_words(t, 0);
  ascii_ = std::none_of(t.begin() + static_cast<long>(i), t.end(),
                        [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// The one released file whose text is loaded again (outputs and rules visit files one after
// another, so one slot keeps memory bounded without re-reading a file per line).
struct Restorer {
  static std::mutex& mu() { static std::mutex m; return m; }
  static std::atomic<SourceFile*>& slot() { static std::atomic<SourceFile*> s{nullptr}; return s; }
  static void drop(SourceFile& f) {
    f.body_.reset();
    f.loaded_ = false;
  }
  static void load(SourceFile& f) {
    std::lock_guard<std::mutex> lock(mu());
    if (f.loaded_) return;
    if (SourceFile* prev = slot().exchange(&f); prev && prev != &f) drop(*prev);
    std::string text, error;
    if (!read_regular_file(f.reload_path_, text, error, f.size_) || content_hash(text) != f.hash_)
      text.clear();  // gone or changed since it was linted: no line of it is shown
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    f.own_body().text = std::move(text);
    f.index_lines_();
    f.loaded_ = true;
  }
  static void forget(SourceFile* f) {
    if (slot().load() != f) return;
    std::lock_guard<std::mutex> lock(mu());
    SourceFile* expected = f;
    slot().compare_exchange_strong(expected, nullptr);
  }
};

SourceFile::~SourceFile() { Restorer::forget(this); }

void SourceFile::release(PathRef abs_path, const ContentHash& hash, size_t size) {
  Restorer::forget(this);
  reload_path_ = abs_path;
  hash_ = hash;
  size_ = size;
  Restorer::drop(*this);
}

const SourceFile& SourceFile::restored_() const {
  if (!loaded_) Restorer::load(const_cast<SourceFile&>(*this));
  return *this;
}

ContentHash content_hash(std::string_view s) {
  static const bool ready = sodium_init() >= 0;  // picks the fastest implementation; thread-safe
  (void)ready;
  ContentHash h;
  crypto_generichash(reinterpret_cast<unsigned char*>(h.words.data()), sizeof h.words,
                     reinterpret_cast<const unsigned char*>(s.data()), s.size(), nullptr, 0);
  return h;
}

uint64_t hash_bytes(std::string_view s) {
  uint64_t h = kHashStart ^ (s.size() * kHashWordMul);
  size_t i = 0;
  for (uint64_t v; i + 8 <= s.size(); i += 8) {
    std::memcpy(&v, s.data() + i, 8);
    h = hash_mix(h, v);
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  return hash_finish(hash_mix(h, tail));
}

int SourceFile::cols_in_line_(std::string_view ln, size_t bytes, bool ascii) const {
  bytes = std::min(bytes, ln.size());
  if (ascii || !body_) return static_cast<int>(bytes);  // no body: no text, nothing but ASCII
  Body& m = *body_;  // its column memo (mutable, as every column computation is one thread's)
  bool same = m.memo_line.data() == ln.data() && m.memo_line.size() == ln.size();
  if (same && m.memo_byte <= bytes) {
    m.memo_cols += utf8_cols(ln.substr(m.memo_byte), bytes - m.memo_byte);
  } else {
    m.memo_cols = utf8_cols(ln, bytes);
  }
  m.memo_line = ln;
  m.memo_byte = bytes;
  return m.memo_cols;
}

std::string_view SourceFile::line(int line1) const {
  const Body& s = restored_().b();
  if (line1 < 1 || line1 > line_count()) return {};
  size_t b = s.line_starts[line1 - 1];
  size_t e = line1 < line_count() ? s.line_starts[line1] - 1 : s.text.size();
  std::string_view v(s.text.data() + b, e - b);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

int SourceFile::line_of(size_t off) const {
  const Body& s = restored_().b();
  auto it = std::upper_bound(s.line_starts.begin(), s.line_starts.end(), off);
  return static_cast<int>(it - s.line_starts.begin());
}

// Byte offset of a 1-based line and column (code points); npos past the line's end.
static size_t col_offset(std::string_view ln, size_t start, int col) {
  size_t i = 0;
  int cp = 1;
  for (; cp < col && i < ln.size(); ++cp) {
    ++i;
    while (i < ln.size() && (static_cast<unsigned char>(ln[i]) & 0xC0) == 0x80) ++i;
  }
  return cp < col ? std::string_view::npos : start + i;
}

bool SourceFile::offsets(const Range& r, size_t& begin, size_t& end) const {
  if (!b().line_map.empty() || r.line < 1 || r.end_line < r.line || r.end_line > line_count() || r.col < 1 || r.end_col < 1)
    return false;
  begin = col_offset(line(r.line), line_start(r.line), r.col);
  end = col_offset(line(r.end_line), line_start(r.end_line), r.end_col);
  return begin != std::string_view::npos && end != std::string_view::npos && begin <= end;
}

Range SourceFile::map_(int vl, size_t vc, int vel, size_t vec) const {
  // vl/vel are 1-based view lines, vc/vec are 0-based byte columns in the view line.
  const std::vector<LineMapEntry>& map = b().line_map;
  auto conv = [&](int l, size_t c, int& out_line, int& out_col) {
    if (!map.empty() && l >= 1 && l <= static_cast<int>(map.size())) {
      const auto& m = map[l - 1];
      out_line = m.line;
      size_t real_bytes = m.col_bytes + c;
      out_col = cols_in_line_(m.real_line, real_bytes, false) + 1 +
                static_cast<int>(real_bytes > m.real_line.size() ? real_bytes - m.real_line.size() : 0);
    } else {
      out_line = l;
      out_col = cols_in_line_(line(l), c, ascii_) + 1;
    }
  };
  Range r;
  conv(vl, vc, r.line, r.col);
  conv(vel, vec, r.end_line, r.end_col);
  if (r.end_line < r.line || (r.end_line == r.line && r.end_col < r.col)) {
    r.end_line = r.line;
    r.end_col = r.col;
  }
  return r;
}

Range SourceFile::range(size_t begin, size_t end) const {
  const Body& s = restored_().b();
  begin = std::min(begin, s.text.size());
  end = std::max(begin, std::min(end, s.text.size()));
  int l = line_of(begin), el = line_of(end);
  return map_(l, begin - s.line_starts[l - 1], el, end - s.line_starts[el - 1]);
}

int utf8_cols(std::string_view s, size_t bytes) {
  int n = 0;
  for (size_t i = 0; i < bytes && i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  return n;
}

bool valid_utf8(std::string_view s) {
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) { i = std::max(i + 1, skip_ascii_words(s, i)); continue; }
    int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || (len == 2 && c < 0xC2) || (len == 4 && c > 0xF4) || i + len > n) return false;
    for (int k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    unsigned char c1 = s[i + 1];
    if (len == 3 && ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0))) return false;
    if (len == 4 && ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))) return false;
    i += len;
  }
  return true;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r)  // ASCII only, as std::tolower in the "C" locale (no other is ever set)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

// Anchored on the needle's first byte that has no case (a digit, `_`), found with memchr;
// a needle of letters only is scanned byte by byte.
size_t find_nocase(std::string_view s, std::string_view needle, size_t from) {
  if (needle.empty()) return from <= s.size() ? from : std::string_view::npos;
  auto same = [&](size_t at) {
    for (size_t k = 0; k < needle.size(); ++k)
      if (std::tolower(static_cast<unsigned char>(s[at + k])) != needle[k]) return false;
    return true;
  };
  size_t anchor = 0;
  while (anchor < needle.size() && std::isalpha(static_cast<unsigned char>(needle[anchor]))) ++anchor;
  if (anchor == needle.size()) {
    for (size_t at = from; at + needle.size() <= s.size(); ++at)
      if (same(at)) return at;
    return std::string_view::npos;
  }
  for (size_t p = from + anchor; p < s.size();) {
    const void* hit = std::memchr(s.data() + p, needle[anchor], s.size() - p);
    if (!hit) break;
    p = static_cast<const char*>(hit) - s.data();
    size_t at = p - anchor;
    if (at + needle.size() <= s.size() && same(at)) return at;
    ++p;
  }
  return std::string_view::npos;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

}  // namespace sc

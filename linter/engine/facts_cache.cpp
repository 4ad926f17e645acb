// SPDX-License-Identifier: Apache-2.0
#include "engine/facts_cache.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "engine/prefilter.h"

namespace sc {

namespace {

// Bump when the encoding changes; a cache of another format is ignored.
constexpr uint32_t kFormat = 6;  // 6: BLAKE2b-256 content hashes
constexpr std::string_view kMagic = "SPKFACTS";

// The last value of each enum written to the cache (a larger one read back is an error).
// Adding an enumerator at the end needs the new last one here.
template <class E> constexpr int kLast = -1;
template <> constexpr int kLast<FileKind> = static_cast<int>(FileKind::CMake);
template <> constexpr int kLast<Installer> = static_cast<int>(Installer::CondaEnvFile);
template <> constexpr int kLast<IndexRole> = static_cast<int>(IndexRole::CondaChannel);
template <> constexpr int kLast<EnvOrigin> = static_cast<int>(EnvOrigin::Sed);
template <> constexpr int kLast<RefKind> = static_cast<int>(RefKind::Dockerfile);
template <> constexpr int kLast<CommandContext> = static_cast<int>(CommandContext::Kubernetes);
template <> constexpr int kLast<Level> = static_cast<int>(Level::Error);
static_assert(kLast<FileKind> <= static_cast<int>(cache_key::kKind), "a file kind must fit the cache key's kind bits");

// Every struct the cache holds, by size: a field added to one of them changes its size and
// fails here until fields() below writes it (then update the number). libstdc++, 64-bit only.
#if defined(__GLIBCXX__) && __SIZEOF_POINTER__ == 8
static_assert(sizeof(Range) == 16 && sizeof(Location) == 24);
static_assert(sizeof(Requirement) == 280, "serialize the new Requirement field in facts_cache.cpp");
static_assert(sizeof(IndexUrl) == 96, "serialize the new IndexUrl field in facts_cache.cpp");
static_assert(sizeof(Install) == 184, "serialize the new Install field in facts_cache.cpp");
static_assert(sizeof(Image) == 104, "serialize the new Image field in facts_cache.cpp");
static_assert(sizeof(EnvSetting) == 96, "serialize the new EnvSetting field in facts_cache.cpp");
static_assert(sizeof(FileRef) == 104, "serialize the new FileRef field in facts_cache.cpp");
static_assert(sizeof(BuildSpec) == 80, "serialize the new BuildSpec field in facts_cache.cpp");
static_assert(sizeof(ComposeService) == 168, "serialize the new ComposeService field in facts_cache.cpp");
static_assert(sizeof(Word) == 96, "serialize the new Word field in facts_cache.cpp");
static_assert(sizeof(Command) == 80, "serialize the new Command field in facts_cache.cpp");
static_assert(sizeof(ConfigEntry) == 96, "serialize the new ConfigEntry field in facts_cache.cpp");
static_assert(sizeof(PyImport) == 120, "serialize the new PyImport field in facts_cache.cpp");
static_assert(sizeof(PyArg) == 152, "serialize the new PyArg field in facts_cache.cpp");
static_assert(sizeof(PyCall) == 112, "serialize the new PyCall field in facts_cache.cpp");
static_assert(sizeof(PyAssign) == 128, "serialize the new PyAssign field in facts_cache.cpp");
static_assert(sizeof(PythonFacts) == 32, "serialize the new PythonFacts field in facts_cache.cpp");
static_assert(sizeof(CiJob) == 104, "serialize the new CiJob field in facts_cache.cpp");
static_assert(sizeof(Expansion) == 80, "serialize the new Expansion field in facts_cache.cpp");
static_assert(sizeof(Section) == 48, "serialize the new Section field in facts_cache.cpp");
static_assert(sizeof(FileFacts) == 216, "serialize the new FileFacts field in facts_cache.cpp");
static_assert(sizeof(SuppressDirective) == 96, "serialize the new SuppressDirective field in facts_cache.cpp");
static_assert(sizeof(Notification) == 120, "serialize the new Notification field in facts_cache.cpp");
static_assert(sizeof(DiskStamp) == 32, "serialize the new DiskStamp field in facts_cache.cpp");
static_assert(sizeof(ParsedFile) - sizeof(SourceFile) == 88, "serialize the new ParsedFile field in facts_cache.cpp");
#endif

// The structs' sizes, mixed: a cache written by a build with other structs is ignored.
uint64_t layout_id() {
  const size_t sizes[] = {sizeof(Requirement), sizeof(IndexUrl), sizeof(Install), sizeof(Image), sizeof(EnvSetting),
                          sizeof(FileRef), sizeof(BuildSpec), sizeof(ComposeService), sizeof(Word), sizeof(Command),
                          sizeof(ConfigEntry), sizeof(PyImport), sizeof(PyArg), sizeof(PyCall), sizeof(PyAssign),
                          sizeof(CiJob), sizeof(Expansion), sizeof(Section), sizeof(FileFacts), sizeof(SuppressDirective),
                          sizeof(Notification), sizeof(ParsedFile)};
  return hash_bytes(std::string_view(reinterpret_cast<const char*>(sizes), sizeof sizes));
}

// The GNU build-id in one PT_NOTE segment [p, end), as hex; empty when it holds none.
std::string build_id_note(const char* p, const char* end) {
  constexpr auto align4 = [](uint32_t n) { return (n + 3) & ~3U; };
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
    const char* name = p + sizeof(ElfW(Nhdr));
    const char* desc = name + align4(note->n_namesz);
    if (desc + note->n_descsz > end) break;
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
      std::string hex;
      for (uint32_t k = 0; k < note->n_descsz; ++k) {
        const auto byte = static_cast<unsigned char>(desc[k]);
        hex += "0123456789abcdef"[byte >> 4];
        hex += "0123456789abcdef"[byte & 15];
      }
      return hex;
    }
    p = desc + align4(note->n_descsz);
  }
  return {};
}

// The running binary's GNU build-id (the linker's hash of its code): two installs of one build
// (the hook's wheel, a .deb) share a cache, any rebuild with other code starts a new one.
// Empty when the binary has no build-id note.
std::string build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        auto& hex = *static_cast<std::string*>(out);
        for (int i = 0; i < info->dlpi_phnum && hex.empty(); ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          hex = build_id_note(p, p + ph.p_memsz);
        }
        return 1;  // the first object is the program itself
      },
      &id);
  return id;
}

// The version and the build-id; without a build-id the binary's size and modification time,
// so a rebuild of the same version (parsers changed, not yet committed) starts a new cache.
const std::string& tool_id() {
  static const std::string id = [] {
    std::string v = SPARKCHECK_VERSION;
    if (std::string b = build_id(); !b.empty()) return v + " " + b;
    struct stat st;
    if (stat("/proc/self/exe", &st) == 0)
      v += " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    return v;
  }();
  return id;
}

// Lines and columns of a file of `size` bytes lie within [0, size + 2] (a generous bound).
bool plausible(const Range& r, size_t bound) {
  auto in = [&](int v) { return v >= 0 && static_cast<size_t>(v) <= bound; };
  return in(r.line) && in(r.col) && in(r.end_line) && in(r.end_col);
}

// One entry's fields out: unsigned LEB128 varints, signed ones zigzagged. Locations carry no
// path: a flag says "the entry's own file" or "none"; an entry naming another file (or a
// range past its size) is marked foreign and left out.
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  std::string display;
  size_t bound = 0;
  bool foreign = false;

  void u(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void s(int64_t v) { u((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void fixed64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  void fixed32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  void operator()(std::string& v) {
    u(v.size());
    out_.append(v);
  }
  void raw(std::string_view bytes) { out_.append(bytes); }
  void operator()(bool& v) { out_.push_back(v ? 1 : 0); }
  void operator()(int& v) { s(v); }
  void operator()(int64_t& v) { s(v); }
  void operator()(size_t& v) { u(v); }
  template <class E> requires std::is_enum_v<E> void operator()(E& e) { u(static_cast<uint64_t>(e)); }
  void path(std::string_view p) {
    if (!p.empty() && p != display) foreign = true;
    out_.push_back(p.empty() ? 0 : 1);
  }
  void operator()(Range& r) {
    if (!plausible(r, bound)) foreign = true;
    s(r.line), s(r.col), s(r.end_line), s(r.end_col);
  }
  void operator()(Location& l) {
    path(l.path);
    (*this)(l.range);
  }
  template <class T> void operator()(std::vector<T>& v) {
    u(v.size());
    for (T& x : v) (*this)(x);
  }
  template <class T> void operator()(FactList<T>& v) {
    u(v.size());
    for (T& x : v) (*this)(x);
  }
  template <class A, class B> void operator()(std::pair<A, B>& p) { (*this)(p.first), (*this)(p.second); }
  void operator()(std::map<std::string, std::string>& m) {
    u(m.size());
    for (auto& [k, v] : m) (*this)(const_cast<std::string&>(k)), (*this)(v);
  }
  template <class T> requires std::is_class_v<T> void operator()(T& t) { fields(*this, t); }

 private:
  std::string& out_;
};

// The mirror of Writer: every read bounds-checked; the first bad value sets `bad` and every
// later read returns zeros, so decoding runs to its end without touching memory it should not.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in), budget_(std::min<size_t>(in.size() * 40 + (1u << 20), size_t(1) << 30)) {}
  PathRef display;  // the entry's own file
  size_t bound = 0;
  bool bad = false;

  size_t left() const { return in_.size() - pos_; }
  size_t pos() const { return pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  uint64_t u() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && !bad; shift += 7) {
      if (pos_ >= in_.size()) break;
      auto b = static_cast<unsigned char>(in_[pos_++]);
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    bad = true;
    return 0;
  }
  int64_t s() {
    uint64_t v = u();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  uint64_t fixed(int bytes) {
    if (bad || left() < static_cast<size_t>(bytes)) return bad = true, 0;
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_++])) << (8 * i);
    return v;
  }
  uint64_t fixed64() { return fixed(8); }
  uint32_t fixed32() { return static_cast<uint32_t>(fixed(4)); }
  // A count of things that each take at least one byte: never more than the bytes left.
  size_t count() {
    uint64_t n = u();
    if (n > left()) bad = true;
    return bad ? 0 : static_cast<size_t>(n);
  }
  void operator()(std::string& v) {
    size_t n = count();
    if (!spend(n)) return;
    v = std::string(in_.data() + pos_, n);  // a new string: cheaper than assign's replace
    pos_ += n;
  }
  void operator()(bool& v) {
    uint64_t b = u();
    if (b > 1) bad = true;
    v = b == 1;
  }
  void operator()(int& v) {
    int64_t x = s();
    if (x < INT32_MIN || x > INT32_MAX) bad = true;
    v = bad ? 0 : static_cast<int>(x);
  }
  void operator()(int64_t& v) { v = s(); }
  void operator()(size_t& v) { v = static_cast<size_t>(u()); }
  template <class E> requires std::is_enum_v<E> void operator()(E& e) {
    static_assert(kLast<E> >= 0, "name the enum's last value in kLast");
    uint64_t v = u();
    if (v > static_cast<uint64_t>(kLast<E>)) bad = true;
    e = bad ? E{} : static_cast<E>(v);
  }
  bool path_flag() {
    uint64_t flag = u();
    if (flag > 1) bad = true;
    return flag == 1;
  }
  void path(std::string& p) { p = path_flag() ? display.str() : std::string(); }
  void path(PathRef& p) { p = path_flag() ? display : PathRef(); }  // no allocation
  void operator()(Range& r) {
    (*this)(r.line), (*this)(r.col), (*this)(r.end_line), (*this)(r.end_col);
    if (!plausible(r, bound)) bad = true;
  }
  void operator()(Location& l) {
    path(l.path);
    (*this)(l.range);
  }
  template <class T> void operator()(std::vector<T>& v) {
    size_t n = count();
    if (!spend(n * sizeof(T))) return;
    v.resize(n);
    for (T& x : v) (*this)(x);
  }
  template <class T> void operator()(FactList<T>& v) {
    std::vector<T> all;
    (*this)(all);
    v = std::move(all);  // an empty list stays unmade
  }
  // Memory the decoded facts may take: a forged count of tiny records must not blow it up.
  bool spend(size_t bytes) {
    if (bytes > budget_) bad = true;
    else budget_ -= bytes;
    return !bad;
  }
  template <class A, class B> void operator()(std::pair<A, B>& p) { (*this)(p.first), (*this)(p.second); }
  void operator()(std::map<std::string, std::string>& m) {
    for (size_t n = count(); n > 0 && spend(sizeof(std::string) * 2 + 32); --n) {
      std::string k, v;
      (*this)(k), (*this)(v);
      m[std::move(k)] = std::move(v);
    }
  }
  template <class T> requires std::is_class_v<T> void operator()(T& t) { fields(*this, t); }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  size_t budget_;  // bytes: 40 times the input (records are about 10 times their encoding), at most 1 GiB
};

// ---- the fields of each struct, in one order for writing and reading -------------------

template <class A> void fields(A& a, Requirement& r) {
  a(r.name), a(r.raw), a(r.extras), a(r.specifier), a(r.exact_version), a(r.local_version);
  a(r.marker), a(r.url), a(r.hashed), a(r.has_upper_bound), a(r.loc);
}
template <class A> void fields(A& a, IndexUrl& i) { a(i.url), a(i.role), a(i.loc), a(i.by_source), a(i.source_markers); }
template <class A> void fields(A& a, Install& i) {
  a(i.tool), a(i.packages), a(i.requirement_files), a(i.constraint_files), a(i.indexes), a(i.no_deps);
  a(i.upgrade), a(i.torch_backend), a(i.torch_backend_value), a(i.stage), a(i.loc), a(i.no_index);
  a(i.local_project), a(i.reference_only);
}
template <class A> void fields(A& a, Image& i) {
  a(i.ref), a(i.stage_name), a(i.stage), a(i.from_stage), a(i.unused), a(i.parent_stage), a(i.no_gpu), a(i.loc);
}
template <class A> void fields(A& a, EnvSetting& e) { a(e.name), a(e.value), a(e.origin), a(e.stage), a(e.loc); }
template <class A> void fields(A& a, FileRef& r) { a(r.target), a(r.kind), a(r.dest), a(r.stage), a(r.loc); }
template <class A> void fields(A& a, BuildSpec& b) { a(b.dockerfile), a(b.args), a(b.loc); }
template <class A> void fields(A& a, ComposeService& s) {
  a(s.name), a(s.env), a(s.dockerfile), a(s.image), a(s.mounts), a(s.first_command), a(s.end_command), a(s.gpu);
}
template <class A> void fields(A& a, Word& w) { a(w.text), a(w.raw), a(w.resolved), a(w.loc); }
template <class A> void fields(A& a, Command& c) { a(c.argv), a(c.env), a(c.stage), a(c.context), a(c.loc); }
// Written as its list of parts; read back into one and interned.
template <class A> void fields(A& a, KeyPath& k) {
  KeyPath::Parts parts;
  if constexpr (std::is_same_v<A, Writer>) parts = k.parts();
  a(parts);
  if constexpr (std::is_same_v<A, Reader>) k = parts;
}
template <class A> void fields(A& a, ConfigEntry& e) {
  a(e.path), a(e.value), a(e.scalar), a(e.document), a(e.key_loc), a(e.value_loc);
}
template <class A> void fields(A& a, PyImport& i) { a(i.module), a(i.name), a(i.alias), a(i.loc); }
template <class A> void fields(A& a, PyArg& g) {
  a(g.keyword), a(g.literal), a(g.is_literal), a(g.kind), a(g.items), a(g.loc);
}
template <class A> void fields(A& a, PyCall& c) { a(c.callee), a(c.resolved), a(c.args), a(c.loc); }
template <class A> void fields(A& a, PyAssign& s) {
  a(s.target), a(s.resolved), a(s.value), a(s.is_literal), a(s.scope_depth), a(s.loc);
}
template <class A> void fields(A& a, PythonFacts& p) { a(p.imports), a(p.calls), a(p.assigns), a(p.strings); }
template <class A> void fields(A& a, CiJob& j) {
  a(j.system), a(j.name), a(j.first), a(j.last), a(j.labels), a(j.resolved);
}
template <class A> void fields(A& a, Expansion& x) { a(x.written), a(x.used), a(x.what); }
template <class A> void fields(A& a, Section& s) { a(s.line), a(s.level), a(s.title), a(s.negated); }
template <class A> void fields(A& a, FileFacts& f) {
  a(f.kind), a(f.installs), a(f.indexes), a(f.images), a(f.env), a(f.refs), a(f.commands), a(f.config);
  a(f.python), a(f.sbatch), a(f.arg_lists), a(f.code_lines), a(f.sections), a(f.front_matter), a(f.ci_jobs), a(f.expansions), a(f.builds), a(f.services);
  a(f.lockfile), a(f.locked);
}
template <class A> void fields(A& a, SuppressDirective::Id& i) { a(i.rule), a(i.range), a(i.used); }
template <class A> void fields(A& a, SuppressDirective& d) {
  a(d.file_scope), a(d.ids), a(d.reason), a(d.loc), a(d.first_line), a(d.last_line);
}
template <class A> void fields(A& a, Notification& n) {
  a.path(n.path);
  a(n.level), a(n.range), a(n.message), a(n.id);
}
template <class A> void fields(A& a, DiskStamp& d) { a(d.dev), a(d.ino), a(d.size), a(d.ctime_ns); }

// Indexes between facts point inside their lists.
bool consistent(const FileFacts& f) {
  for (const Image& im : f.images)
    if (im.parent_stage < -1 || im.parent_stage >= static_cast<int>(f.images.size())) return false;
  for (const ComposeService& s : f.services)
    if (s.first_command > s.end_command || s.end_command > f.commands.size()) return false;
  return true;
}

// A display path the cache may name: relative, below the root, no "." or ".." segment.
bool safe_display(const std::string& d) {
  if (d.empty() || d[0] == '/' || d.find('\0') != std::string::npos) return false;
  std::string_view v(d);
  for (size_t i = 0;;) {  // every entry is checked on a warm run: no list of parts is built
    size_t e = std::min(v.find('/', i), v.size());
    std::string_view seg = v.substr(i, e - i);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (e == v.size()) return true;
    i = e + 1;
  }
}

std::string abs_in(const std::string& root, const std::string& display) {
  return root == "/" ? "/" + display : root + "/" + display;
}

constexpr uint64_t kMaxSourceBytes = uint64_t(1) << 40;

void write_source(Writer& w, const SourceFile& src) {
  bool released = src.released();
  w(released);
  if (released) w.u(src.reload_size());
  else w(const_cast<std::string&>(src.text()));
  w.bound = (released ? src.reload_size() : src.text().size()) + 2;
}

// An entry's body as loaded (CacheEntry::loaded_at), when it still holds the entry's file: it
// starts with the file's content hash. Empty otherwise.
std::string_view loaded_body(const CacheEntry& e, const LoadedBytes* loaded) {
  const LineMemo* memo = e.file->line_memo.get();
  const ContentHash& hash = e.file->content_hash;
  if (!loaded || !*loaded || e.loaded_len < sizeof hash.words || (memo && memo->grown)) return {};
  std::string_view body = (*loaded)(e.loaded_at, e.loaded_len);
  bool same = body.size() == e.loaded_len && std::memcmp(body.data(), hash.words.data(), sizeof hash.words) == 0;
  return same ? body : std::string_view();
}

// One entry: its display path, key, stamp, then its body: the file's hash and text (or size),
// notes, facts, suppressions and line memo.
void write_entry(Writer& w, const std::string& display, const CacheEntry& e, const LoadedBytes* loaded) {
  auto& pf = const_cast<ParsedFile&>(*e.file);  // Writer reads through the same fields() as Reader
  w.display = display;
  w(w.display), w.u(e.key), w(const_cast<DiskStamp&>(e.disk));
  if (std::string_view body = loaded_body(e, loaded); !body.empty()) return w.raw(body);  // as loaded (checked then)
  for (uint64_t word : pf.content_hash.words) w.fixed64(word);
  write_source(w, pf.src);
  w(const_cast<std::vector<Notification>&>(e.parse_notes())), w(const_cast<std::vector<Notification>&>(e.read_notes()));
  w(const_cast<FileFacts&>(*pf.facts));
  w(const_cast<std::vector<SuppressDirective>&>(pf.suppressions()));
  w(const_cast<std::vector<Notification>&>(pf.suppression_problems()));
  std::vector<std::pair<int, std::string>> none;
  const LineMemo* memo = pf.line_memo.get();
  w(pf.src.released() && memo ? pf.line_memo->lines : none);  // a kept text needs no memo
}

// The file as released (re-read on demand from `abs`), or with the text it kept.
std::shared_ptr<ParsedFile> read_source(Reader& r, const std::string& abs) {
  auto pf = std::make_shared<ParsedFile>();
  for (uint64_t& word : pf->content_hash.words) word = r.fixed64();
  bool released = false;
  r(released);
  uint64_t size = 0;
  std::string text;
  if (released) size = r.u();
  else r(text), size = text.size();
  if (size > kMaxSourceBytes) r.bad = true;
  pf->abs_path = abs;
  pf->src = SourceFile(r.display, std::move(text));
  if (released && !r.bad) pf->src.release(pf->abs_path, pf->content_hash, static_cast<size_t>(size));
  r.bound = static_cast<size_t>(size) + 2;
  return pf;
}

// The flagged lines' text (engine.cpp, flagged_line_text): within the memo's bounds, lines
// ascending and inside the file, for a released file only.
void read_line_memo(Reader& r, ParsedFile& pf) {
  std::vector<std::pair<int, std::string>> lines;
  r(lines);
  if (!lines.empty() && !pf.src.released()) r.bad = true;
  if (lines.size() > LineMemo::kMaxLines) r.bad = true;
  for (size_t i = 0; i < lines.size() && !r.bad; ++i) {
    int l = lines[i].first;
    bool ordered = i == 0 || lines[i - 1].first < l;
    if (l < 1 || static_cast<size_t>(l) > r.bound || !ordered || lines[i].second.size() > LineMemo::kMaxBytes ||
        lines[i].second.empty())
      r.bad = true;
  }
  if (!lines.empty()) pf.memo().lines = std::move(lines);
}

// A key a saved entry may hold: a known kind and options, never a buffer (not saved).
bool valid_key(uint64_t key) {
  return (key & ~uint64_t(cache_key::kAll)) == 0 && (key & cache_key::kBuffer) == 0 &&
         static_cast<int>(key & cache_key::kKind) <= kLast<FileKind>;
}

// The entry's notes, made only when there are some.
std::unique_ptr<const FileNotes> read_notes(Reader& r) {
  FileNotes n;
  r(n.parse), r(n.read);
  if (n.parse.empty() && n.read.empty()) return nullptr;
  return std::make_unique<const FileNotes>(std::move(n));
}

// Reads one entry into `cache` (keyed by its absolute path under `root`, after the last one);
// `base` is the payload's offset in the cache file.
void read_entry(Reader& r, const std::string& root, ParseCache& cache, size_t base) {
  std::string display;
  r(display);
  if (r.bad || !safe_display(display)) return void(r.bad = true);
  r.display = display;
  CacheEntry e;
  uint64_t key = r.u();
  if (!valid_key(key)) return void(r.bad = true);
  e.key = static_cast<uint32_t>(key);
  r(e.disk);
  size_t at = r.pos();
  std::string abs = abs_in(root, display);
  if (!r.spend(sizeof(ParsedFile) + sizeof(CacheEntry) + 2 * abs.size())) return;
  std::shared_ptr<ParsedFile> pf = read_source(r, abs);
  e.notes = read_notes(r);
  FileFacts facts;
  std::vector<SuppressDirective> directives;
  std::vector<Notification> problems;
  r(facts), r(directives), r(problems);
  pf->set_suppressions(std::move(directives), std::move(problems));
  read_line_memo(r, *pf);
  pf->facts = std::move(facts);
  if (!consistent(*pf->facts)) r.bad = true;
  if (base + r.pos() <= UINT32_MAX) e.loaded_at = static_cast<uint32_t>(base + at), e.loaded_len = static_cast<uint32_t>(r.pos() - at);
  PathRef path = pf->abs_path;
  e.file = std::move(pf);
  if (!r.bad && !cache.entries.append(path, std::move(e))) r.bad = true;  // out of order, or twice
}

}  // namespace

std::string cache_options_text(const LintOptions& opt) {
  return std::string(opt.inline_ignore ? "ignore" : "no-ignore") + (opt.allow_reasonless_suppressions ? "+reasonless" : "") +
         (opt.prefilter && prefilter_enabled_by_env() ? "+prefilter" : "") + (opt.follow_symlinks ? "+follow" : "") +
         "+max=" + std::to_string(opt.max_file_bytes) + (opt.unit.empty() ? "" : "+unit=" + opt.unit);
}

namespace {

// The checksum of the payload, taken as its bytes go by: any split of them gives the same value.
class StreamSum {
 public:
  void add(std::string_view s) {
    size_ += s.size();
    for (; fill_ > 0 && !s.empty(); s.remove_prefix(1)) take(s[0]);
    for (; s.size() >= 8; s.remove_prefix(8)) mix(word(s.data()));
    for (char c : s) take(c);
  }
  uint64_t done() {
    std::memset(tail_ + fill_, 0, 8 - fill_);
    return hash_finish(hash_mix(hash_mix(h_, word(tail_)), size_));
  }

 private:
  static uint64_t word(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  void take(char c) {
    tail_[fill_++] = c;
    if (fill_ == 8) mix(word(tail_)), fill_ = 0;
  }
  void mix(uint64_t v) { h_ = hash_mix(h_, v); }
  uint64_t h_ = kHashStart, size_ = 0;
  char tail_[8] = {};
  size_t fill_ = 0;
};

constexpr size_t kTrailerBytes = 24, kFlushBytes = 1u << 16;

}  // namespace

uint64_t cache_checksum(std::string_view payload) {
  StreamSum sum;
  sum.add(payload);
  return sum.done();
}

std::string cache_header() {
  std::string out(kMagic), version = tool_id();
  Writer w(out);
  w.fixed32(kFormat), w(version), w.fixed64(layout_id());
  return out;
}

// Made in order, never patched: the header, then the payload handed out about 64 KiB at a
// time (an entry is made whole first: one naming another file is dropped), then the trailer.
void encode_cache(const ParseCache& cache, const std::string& root, const std::string& options,
                  const std::function<void(std::string_view)>& put, size_t* skipped, const LoadedBytes* loaded) {
  std::string out = cache_header(), r = root, o = options;
  out.reserve(2 * kFlushBytes);
  Writer w(out);
  put(out);
  out.clear();
  StreamSum sum;
  uint64_t payload = 0, n = 0, left_out = 0;
  auto flush = [&] { sum.add(out), put(out), payload += out.size(), out.clear(); };
  w(r), w(o);
  for (const auto& [abs, e] : cache.entries) {
    std::string display = e.file ? e.file->src.path().str() : std::string();
    if (!e.file || !safe_display(display) || abs != abs_in(root, display) || (e.key & cache_key::kBuffer)) {
      ++left_out;
      continue;
    }
    size_t mark = out.size();
    w.foreign = false;
    write_entry(w, display, e, loaded);
    if (w.foreign) out.resize(mark), ++left_out;
    else ++n;
    if (out.size() >= kFlushBytes) flush();
  }
  flush();
  w.fixed64(n), w.fixed64(payload), w.fixed64(sum.done());
  put(out);
  if (skipped) *skipped = left_out;
}

std::string encode_cache(const ParseCache& cache, const std::string& root, const std::string& options, size_t* skipped,
                         const LoadedBytes* loaded) {
  std::string all;
  encode_cache(cache, root, options, [&](std::string_view bytes) { all.append(bytes); }, skipped, loaded);
  return all;
}

namespace {

// The header (magic, format, version, layout) and the trailer (entries, payload size and
// checksum). Sets `payload` and `entries`.
bool check_frame(std::string_view bytes, std::string_view& payload, uint64_t& entries, std::string& why) {
  if (bytes.substr(0, kMagic.size()) != kMagic) return why = "not a sparkcheck cache file", false;
  Reader r(bytes.substr(kMagic.size()));
  uint32_t format = r.fixed32();
  if (r.bad || format != kFormat) return why = "written in another cache format", false;
  std::string version;
  r(version);
  if (r.bad || version != tool_id()) return why = "written by another sparkcheck version or build", false;
  uint64_t layout = r.fixed64();
  if (r.bad || layout != layout_id()) return why = "written by another build", false;
  if (r.left() < kTrailerBytes) return why = "truncated (no trailer)", false;
  Reader t(bytes.substr(bytes.size() - kTrailerBytes));
  entries = t.fixed64();
  uint64_t size = t.fixed64(), sum = t.fixed64();
  if (size != r.left() - kTrailerBytes) return why = "truncated or padded (the payload size differs)", false;
  payload = bytes.substr(bytes.size() - kTrailerBytes - size, size);
  if (cache_checksum(payload) != sum) return why = "checksum mismatch", false;
  return true;
}

}  // namespace

bool decode_cache(std::string_view bytes, const std::string& root, const std::string& options, ParseCache& out,
                  std::string& why) {
  out.entries.clear();
  std::string_view payload;
  uint64_t n = 0;
  if (!check_frame(bytes, payload, n, why)) return false;
  Reader r(payload);
  std::string r_root, r_opts;
  r(r_root), r(r_opts);
  if (r.bad || r_root != root || r_opts != options) return why = "written for another root or options", false;
  if (n > r.left()) r.bad = true;  // each entry takes bytes
  size_t base = static_cast<size_t>(payload.data() - bytes.data());
  out.entries.reserve(std::min<size_t>(n, r.left() / 32));  // an entry takes 39 bytes or more
  for (; n > 0 && !r.bad; --n) read_entry(r, root, out, base);
  if (r.bad || !r.at_end()) {
    out.entries.clear();
    return why = "an entry is inconsistent (a count, range, path or index out of bounds)", false;
  }
  return true;
}

}  // namespace sc

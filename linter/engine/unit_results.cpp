// SPDX-License-Identifier: Apache-2.0
// What a split run keeps of each unit (engine/units.h): counts merged at once, the rest
// spilled to bytes and decoded when every unit is done.
#include <algorithm>
#include <set>

#include "analysis/project.h"
#include "engine/units.h"

namespace sc {

namespace {

class Out {
 public:
  explicit Out(std::string& b) : b_(b) {}
  void num(uint64_t v) {
    for (; v >= 0x80; v >>= 7) b_.push_back(static_cast<char>(v | 0x80));
    b_.push_back(static_cast<char>(v));
  }
  void sint(int64_t v) { num((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void str(std::string_view s) {
    num(s.size());
    b_.append(s);
  }
  void range(const Range& r) {
    sint(r.line), sint(r.col), sint(r.end_line), sint(r.end_col);
  }
  void loc(const Location& l) {
    str(l.path);
    range(l.range);
  }

 private:
  std::string& b_;
};

// Reads what Out wrote (the same process wrote it: no bounds beyond the buffer's own).
class In {
 public:
  explicit In(std::string_view b) : b_(b) {}
  bool more() const { return at_ < b_.size(); }
  uint64_t num() {
    uint64_t v = 0;
    for (int shift = 0; at_ < b_.size() && shift < 64; shift += 7) {
      auto c = static_cast<unsigned char>(b_[at_++]);
      v |= static_cast<uint64_t>(c & 0x7F) << shift;
      if (!(c & 0x80)) break;
    }
    return v;
  }
  int sint() {
    uint64_t v = num();
    return static_cast<int>(static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1));
  }
  std::string_view str() {
    size_t n = std::min<size_t>(num(), b_.size() - at_);
    std::string_view s = b_.substr(at_, n);
    at_ += n;
    return s;
  }
  Range range() {
    Range r;
    r.line = sint(), r.col = sint(), r.end_line = sint(), r.end_col = sint();
    return r;
  }
  Location loc() {
    Location l;
    l.path = PathRef(str());
    l.range = range();
    return l;
  }

 private:
  std::string_view b_;
  size_t at_ = 0;
};

enum Tag : uint8_t { kFinding = 1, kFile, kNote, kLinted };

// The unit's files that its findings and notifications name.
std::vector<const ParsedFile*> named_files(const LintResult& unit) {
  std::set<const ParsedFile*> seen;
  std::vector<const ParsedFile*> out;
  auto keep = [&](const std::string& path) {
    if (const ParsedFile* pf = unit.project.find(path); pf && seen.insert(pf).second) out.push_back(pf);
  };
  for (const Finding& f : unit.findings) {
    keep(f.loc.path);
    for (const Related& r : f.related) keep(r.loc.path);
    for (const Fix& fx : f.fixes)
      for (const Edit& e : fx.edits) keep(e.loc.path);
  }
  for (const Notification& n : unit.notifications)
    if (!n.path.empty()) keep(n.path);
  return out;
}

void put_file(Out& o, const ParsedFile& pf) {
  o.str(pf.src.path());
  o.str(pf.abs_path);
  for (uint64_t word : pf.content_hash.words) o.num(word);
  o.num(pf.src.released());
  if (pf.src.released()) o.num(pf.src.reload_size());
  else o.str(pf.src.text());
  const LineMemo* memo = pf.line_memo.get();
  o.num(memo ? memo->lines.size() : 0);
  if (memo)
    for (const auto& [line, text] : memo->lines) o.sint(line), o.str(text);
}

std::shared_ptr<const ParsedFile> take_file(In& in) {
  auto pf = std::make_shared<ParsedFile>();
  PathRef display(in.str());
  pf->abs_path = PathRef(in.str());
  for (uint64_t& word : pf->content_hash.words) word = in.num();
  if (in.num()) {
    size_t size = in.num();
    pf->src = SourceFile(display, "");
    pf->src.release(pf->abs_path, pf->content_hash, size);
  } else {
    pf->src = SourceFile(display, std::string(in.str()));
  }
  if (size_t n = in.num()) {
    LineMemo& memo = pf->memo();
    for (size_t i = 0; i < n; ++i) {
      int line = in.sint();
      memo.lines.emplace_back(line, std::string(in.str()));
    }
  }
  return pf;
}

void put_note(Out& o, const Notification& n) {
  o.num(static_cast<uint64_t>(n.level));
  o.str(n.path);
  o.range(n.range);
  o.str(n.message);
  o.str(n.id);
}

Notification take_note(In& in) {
  Notification n;
  n.level = static_cast<Level>(in.num());
  n.path = in.str();
  n.range = in.range();
  n.message = in.str();
  n.id = in.str();
  return n;
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

}  // namespace

void UnitSpill::put(const LintResult& unit, bool list_linted) {
  std::string block;
  Out o(block);
  auto text = [&](const std::string& t) {
    auto [it, fresh] = text_ids_.try_emplace(t, static_cast<uint32_t>(texts_.size()));
    if (fresh) texts_.push_back(t);
    o.num(it->second);
  };
  for (const ParsedFile* pf : named_files(unit)) o.num(kFile), put_file(o, *pf);
  for (const Finding& f : unit.findings) {
    o.num(kFinding);
    o.str(f.rule);
    o.num(static_cast<uint64_t>(f.level));
    o.loc(f.loc);
    text(f.message);
    text(f.fix);
    o.num(f.fixes.size());
    for (const Fix& fx : f.fixes) {
      o.str(fx.title), o.num(fx.safe), o.num(fx.edits.size());
      for (const Edit& e : fx.edits) o.loc(e.loc), o.str(e.text), o.str(e.old);
    }
    o.num(f.related.size());
    for (const Related& r : f.related) o.loc(r.loc), o.str(r.message);
    o.str(f.fingerprint);
    o.num(f.suppressions.size());
    for (const Suppression& s : f.suppressions) o.str(s.justification), o.loc(s.loc), o.str(s.kind);
  }
  for (const Notification& n : unit.notifications) o.num(kNote), put_note(o, n);
  if (list_linted)
    for (PathRef p : unit.linted) o.num(kLinted), o.str(p);
  block.shrink_to_fit();
  blocks_.push_back(std::move(block));
}

void UnitSpill::take(LintResult& into) {
  std::vector<SharedText> texts(texts_.begin(), texts_.end());
  texts_.clear(), text_ids_.clear();
  for (std::string& block : blocks_) {
    In in(block);
    while (in.more()) {
      switch (in.num()) {
        case kFile: into.project.files.push_back(take_file(in)); break;
        case kNote: into.notifications.push_back(take_note(in)); break;
        case kLinted: into.linted.emplace_back(in.str()); break;
        case kFinding: {
          Finding f;
          f.rule = in.str();
          f.level = static_cast<Level>(in.num());
          f.loc = in.loc();
          f.message = texts.at(in.num());
          f.fix = texts.at(in.num());
          f.fixes.resize(in.num());
          for (Fix& fx : f.fixes) {
            fx.title = in.str(), fx.safe = in.num() != 0;
            fx.edits.resize(in.num());
            for (Edit& e : fx.edits) e.loc = in.loc(), e.text = in.str(), e.old = in.str();
          }
          f.related.resize(in.num());
          for (Related& r : f.related) r.loc = in.loc(), r.message = in.str();
          f.fingerprint = in.str();
          f.suppressions.resize(in.num());
          for (Suppression& s : f.suppressions) s.justification = in.str(), s.loc = in.loc(), s.kind = in.str();
          into.findings.push_back(std::move(f));
          break;
        }
        default: return;  // cannot happen: put() wrote it
      }
    }
    std::string().swap(block);
  }
  blocks_.clear();
}

void add_unit_result(LintResult& into, LintResult unit, UnitSpill* spill, bool list_linted) {
  into.files_linted += unit.files_linted;
  into.complete = into.complete && unit.complete;
  into.input_error = into.input_error || unit.input_error;
  into.baselined += unit.baselined;
  into.baseline_applied = into.baseline_applied || unit.baseline_applied;
  add_cache_report(into.cache, unit.cache);
  if (spill) {
    spill->put(unit, list_linted);
    return;
  }
  for (auto& n : unit.notifications) into.notifications.push_back(std::move(n));
  into.project = std::move(unit.project);
  into.findings = std::move(unit.findings);
  into.linted = std::move(unit.linted);
}

}  // namespace sc

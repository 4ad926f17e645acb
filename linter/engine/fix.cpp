// SPDX-License-Identifier: Apache-2.0
#include "engine/fix.h"

#include <algorithm>
#include <map>

namespace sc {
namespace {

// Byte edits of `fx` in `f`, or false when an edit lies in another file or no longer matches.
bool byte_edits(const ParsedFile& f, const Fix& fx, std::vector<ByteEdit>& out) {
  for (const Edit& e : fx.edits) {
    size_t b = 0, end = 0;
    if (e.loc.path != f.src.path() || !f.src.offsets(e.loc.range, b, end)) return false;
    if (f.src.text().compare(b, end - b, e.old) != 0) return false;
    out.push_back({b, end, e.text});
  }
  return !out.empty();
}

bool overlaps(const ByteEdit& a, const ByteEdit& b) {
  return (a.begin < b.end && b.begin < a.end) || a.begin == b.begin;
}

struct Pending {
  const ParsedFile* file = nullptr;
  std::vector<ByteEdit> taken;
  size_t fixes = 0;
};

void take(Pending& p, const Fix& fx) {
  std::vector<ByteEdit> mine;
  if (!byte_edits(*p.file, fx, mine)) return;
  for (size_t i = 0; i < mine.size(); ++i)  // a fix whose own edits overlap is malformed: never applied
    for (size_t j = 0; j < i; ++j)
      if (overlaps(mine[i], mine[j])) return;
  for (const ByteEdit& m : mine)
    for (const ByteEdit& t : p.taken)
      if (overlaps(m, t)) return;
  for (auto& m : mine) p.taken.push_back(std::move(m));
  ++p.fixes;
}

}  // namespace

const Fix* applicable_fix(const Finding& f, bool unsafe) {
  if (!f.suppressions.empty()) return nullptr;
  for (const Fix& fx : f.fixes)
    if (fix_allowed(fx, unsafe)) return &fx;
  return nullptr;
}

std::string apply_byte_edits(const std::string& text, const std::vector<ByteEdit>& edits) {
  std::string out;
  size_t at = 0;
  for (const ByteEdit& e : edits) {
    out.append(text, at, e.begin - at);
    out += e.text;
    at = e.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

std::vector<FilePatch> plan_fixes(const LintResult& r, bool unsafe) {
  std::map<std::string, Pending> files;
  std::vector<std::string> order;
  for (const Finding& f : r.findings) {
    const Fix* fx = applicable_fix(f, unsafe);
    if (!fx || fx->edits.empty()) continue;
    const ParsedFile* pf = r.project.find(fx->edits.front().loc.path);
    if (!pf || pf->src.text().empty()) continue;
    auto [it, fresh] = files.try_emplace(pf->src.path(), Pending{pf, {}, 0});
    if (fresh) order.push_back(pf->src.path());
    take(it->second, *fx);
  }
  std::vector<FilePatch> patches;
  for (const std::string& path : order) {
    Pending& p = files[path];
    if (p.fixes == 0) continue;
    std::sort(p.taken.begin(), p.taken.end(), [](const ByteEdit& a, const ByteEdit& b) { return a.begin < b.begin; });
    const std::string& before = p.file->src.text();
    std::string after = apply_byte_edits(before, p.taken);
    if (after != before) patches.push_back({path, p.file->abs_path, before, std::move(after), p.taken, p.fixes});
  }
  return patches;
}

}  // namespace sc

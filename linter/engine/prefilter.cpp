#include "engine/prefilter.h"

#include <re2/re2.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "knowledge/knowledge.h"

namespace sc {

struct Prefilter::Impl {
  std::unique_ptr<RE2> python;  // null: parse every Python file
};

namespace {

// One alternation of the table's words (literal, or the entry's RE2 `pattern`), ASCII
// case-insensitive unless `case: exact`.
std::unique_ptr<RE2> alternation(const knowledge::Table& t) {
  std::string pat;
  for (const auto& e : t.entries) {
    const std::string& w = e.get("name");
    if (w.empty()) return nullptr;  // a blank word matches everything: no filter
    if (!pat.empty()) pat += '|';
    bool exact = e.get("case") == "exact";
    const std::string& p = e.get("pattern");
    pat += (exact ? "(?-i:" : "(?:") + (p.empty() ? RE2::QuoteMeta(w) : p) + ")";
  }
  if (pat.empty()) return nullptr;
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  o.set_encoding(RE2::Options::EncodingLatin1);  // bytes: the words are ASCII
  auto re = std::make_unique<RE2>(pat, o);
  return re->ok() ? std::move(re) : nullptr;
}

}  // namespace

Prefilter::Prefilter(bool on) : impl_(new Impl) {
  if (on) impl_->python = alternation(knowledge::table("python-triggers"));
}

Prefilter::~Prefilter() { delete impl_; }

bool Prefilter::wanted(FileKind kind, std::string_view text) const {
  if (kind != FileKind::Python || !impl_->python) return true;
  return RE2::PartialMatch(text, *impl_->python);
}

bool prefilter_enabled_by_env() {
  const char* v = std::getenv("SPARKCHECK_NO_PREFILTER");
  return !v || !*v || std::string(v) == "0";
}

}  // namespace sc

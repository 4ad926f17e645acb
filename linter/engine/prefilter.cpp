#include "engine/prefilter.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "knowledge/knowledge.h"
#include "parsers/python.h"

namespace sc {

struct Prefilter::Impl {
  std::unique_ptr<RE2> python;  // null: parse every Python file
  // The words alone, without the entries that stand for string escapes (`escape: true`),
  // looked for in the escape-decoded text; null when the table marks no such entry.
  std::unique_ptr<RE2> python_words;
};

namespace {

// One alternation of the table's words (literal, or the entry's RE2 `pattern`), ASCII
// case-insensitive unless `case: exact`.
std::unique_ptr<RE2> alternation(const knowledge::Table& t, bool words_only = false) {
  std::string pat;
  for (const auto& e : t.entries) {
    if (words_only && e.get("escape") == "true") continue;
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
  if (!on) return;
  const knowledge::Table& t = knowledge::table("python-triggers");
  impl_->python = alternation(t);
  bool escapes = std::any_of(t.entries.begin(), t.entries.end(), [](const auto& e) { return e.get("escape") == "true"; });
  if (impl_->python && escapes) impl_->python_words = alternation(t, true);
}

Prefilter::~Prefilter() { delete impl_; }

// A string escape only counts when the text, decoded as Python decodes a string literal's
// body, holds a word: the decoding of the whole file decodes every literal's body alike
// (a body starts after a quote, which no escape outside a string can take).
bool Prefilter::wanted(FileKind kind, std::string_view text) const {
  if (kind != FileKind::Python || !impl_->python) return true;
  if (!RE2::PartialMatch(text, *impl_->python)) return false;  // no word, no escape that can spell one
  const RE2* words = impl_->python_words.get();
  if (!words || RE2::PartialMatch(text, *words)) return true;
  return RE2::PartialMatch(py_unescape(text), *words);
}

bool prefilter_enabled_by_env() {
  const char* v = std::getenv("SPARKCHECK_NO_PREFILTER");
  return !v || !*v || std::string(v) == "0";
}

}  // namespace sc

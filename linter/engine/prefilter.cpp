// SPDX-License-Identifier: Apache-2.0
#include "engine/prefilter.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "knowledge/knowledge.h"
#include "parsers/config.h"
#include "parsers/json_quick.h"
#include "parsers/python.h"

namespace sc {

struct Prefilter::Impl {
  std::unique_ptr<RE2> python;  // null: parse every Python file
  // The words alone, without the entries that stand for string escapes (`escape: true`),
  // looked for in the escape-decoded text; null when the table marks no such entry.
  std::unique_ptr<RE2> python_words;
  std::unique_ptr<RE2> json;  // null: parse every JSON file
  std::unique_ptr<RE2> python_names;  // python-fact-names; null: none
};

namespace {

// ASCII case-insensitive, over bytes (the words are ASCII); null when RE2 rejects it.
std::unique_ptr<RE2> compile(const std::string& pat) {
  if (pat.empty()) return nullptr;
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  o.set_encoding(RE2::Options::EncodingLatin1);
  auto re = std::make_unique<RE2>(pat, o);
  return re->ok() ? std::move(re) : nullptr;
}

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
  return compile(pat);
}

// One json-triggers word as a pattern: a word of letters only counts as a name, not followed by a
// letter: after a quote that is not escaped (`"sharing"`, not prose's `\"Sharing is caring`), a
// dot, or a dash that ends no word (`--nnodes`, not `profit-sharing`); others anywhere.
std::string json_word(const std::string& word) {
  bool letters = std::all_of(word.begin(), word.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  std::string w = RE2::QuoteMeta(word);
  if (letters) return "(?:(?:\\A|[^\\\\])\"|\\.|(?:\\A|[^a-z0-9])-)" + w + "(?:[^a-z]|\\z)";
  return RE2::QuoteMeta(word);
}

// json-triggers: its words, and the names of the entries of its `table` entries (of a dotted
// name the last part, which every key path naming it holds); null when a word is blank.
std::unique_ptr<RE2> json_alternation() {
  std::string pat;
  auto add = [&](const std::string& w) {
    if (w.empty()) return false;
    pat += (pat.empty() ? "" : "|") + json_word(w);
    return true;
  };
  for (const auto& e : knowledge::table("json-triggers").entries) {
    if (e.get("table").empty()) {
      if (!add(e.get("name"))) return nullptr;
      continue;
    }
    for (const std::string& n : knowledge::table(e.get("name")).values())
      if (!add(n.substr(n.rfind('.') + 1))) return nullptr;
  }
  return compile(pat);
}

// A json_quick handler that keeps nothing but whether a number has an exponent with '+'.
struct Quiet {
  bool plus_exponent = false;
  // Every key and string that may hold a letter, as written and quoted, one a line: the only
  // text a trigger word can be in (the rest is numbers, literals and punctuation).
  std::string names;
  void raw_string(std::string_view v) {
    if (std::none_of(v.begin(), v.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || (c & 0x80); }))
      return;  // "1", "0.25": no word (a byte >= 0x80 may be a letter RE2's case folding knows)
    names += '"';
    names += v;
    names += "\"\n";
  }
  void number(std::string_view v) {
    if (v.find("e+") != std::string_view::npos || v.find("E+") != std::string_view::npos) plus_exponent = true;
  }
  bool wants_string() const { return false; }
  void null() {}
  void string(const std::string&) {}
  void key(const std::string&) {}
  void start_object(size_t) {}
  void end_object() {}
  void start_array(size_t) {}
  void end_array() {}
};

// Text the JSON parser reads without a note: strict JSON (json_quick) without a number whose
// exponent has '+' (tree-sitter-json's number has none; "4.67E+2" in a string is no number) and
// within the nesting the parser accepts (json_quick fails past kMaxNesting). `names` gets
// Quiet::names.
bool quiet_json(std::string_view text, std::string& names) {
  Quiet q;
  bool quiet = json_quick::check(text, q) && !q.plus_exponent;
  names = std::move(q.names);
  return quiet;
}

}  // namespace

namespace {
// The trigger patterns, compiled once per process (a run over many small repositories makes a
// Prefilter per repository; the knowledge tables do not change).
const Prefilter::Impl& compiled() {
  static const Prefilter::Impl* impl = [] {
    auto* p = new Prefilter::Impl;
    const knowledge::Table& t = knowledge::table("python-triggers");
    p->python = alternation(t);
    bool escapes = std::any_of(t.entries.begin(), t.entries.end(), [](const auto& e) { return e.get("escape") == "true"; });
    if (p->python && escapes) p->python_words = alternation(t, true);
    p->json = json_alternation();
    p->python_names = alternation(knowledge::table("python-fact-names"));
    return p;
  }();
  return *impl;
}
const Prefilter::Impl kOff;
}  // namespace

Prefilter::Prefilter(bool on) : impl_(on ? &compiled() : &kOff) {}

Prefilter::~Prefilter() = default;

// A string escape only counts when the text, decoded as Python decodes a string literal's
// body, holds a word: the decoding of the whole file decodes every literal's body alike
// (a body starts after a quote, which no escape outside a string can take).
bool Prefilter::python_wanted(std::string_view text) const {
  if (!RE2::PartialMatch(text, *impl_->python)) return false;  // no word, no escape that can spell one
  const RE2* words = impl_->python_words.get();
  if (!words || RE2::PartialMatch(text, *words)) return true;
  return RE2::PartialMatch(py_unescape(text), *words);
}

// The text as the JSON parser decodes its strings (json_unescape), except that an escaped quote
// becomes no quote: it opens no key, so prose's \"Sharing is caring keeps no file.
static std::string decoded_for_scan(std::string_view text) {
  std::string t(text);
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] != '\\') continue;
    if (t[i + 1] == '"') t[i + 1] = '\'';
    ++i;  // the escaped character
  }
  return json_unescape(t);
}

// A JSON file whose parse would give a note (a syntax error) is parsed all the same. A valid one
// is scanned in its keys and strings only (a golden-values file of numbers scans a few bytes).
bool Prefilter::json_wanted(std::string_view text) const {
  std::string names;
  if (!quiet_json(text, names) || RE2::PartialMatch(names, *impl_->json)) return true;
  return names.find('\\') != std::string::npos && RE2::PartialMatch(decoded_for_scan(names), *impl_->json);
}

bool Prefilter::embedded_python_wanted(std::string_view code) const {
  return !impl_->python || python_wanted(code);
}

bool Prefilter::wanted(FileKind kind, std::string_view text) const {
  if (kind == FileKind::Python && impl_->python) return python_wanted(text);
  if (kind == FileKind::Json && impl_->json) return json_wanted(text);
  return true;
}

namespace {

// The 1-based lines of a text that hold a match of `re`: one scan, that goes on at the next
// line after each match.
class MatchedLines {
 public:
  MatchedLines(std::string_view text, const RE2& re) {
    re2::StringPiece input(text.data(), text.size()), m;
    int line = 1;
    size_t counted = 0, pos = 0;
    while (pos < text.size() && re.Match(input, pos, text.size(), RE2::UNANCHORED, &m, 1)) {
      size_t at = static_cast<size_t>(m.data() - text.data());
      line += static_cast<int>(std::count(text.begin() + static_cast<long>(counted), text.begin() + static_cast<long>(at), '\n'));
      counted = at;
      marked_.push_back(line);
      size_t nl = text.find('\n', at);
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
  }
  explicit MatchedLines(std::vector<int> lines) : marked_(std::move(lines)) {}
  std::vector<int> take() && { return std::move(marked_); }
  bool any(const Range& r) const {  // an unknown range counts as matched
    if (!r.valid()) return true;
    auto it = std::lower_bound(marked_.begin(), marked_.end(), r.line);
    return it != marked_.end() && *it <= std::max(r.line, r.end_line);
  }

 private:
  std::vector<int> marked_;  // ascending line numbers
};

// The trigger lines python_lines() found last on this thread, with the text they are of: trim()
// of the same file (parsed just before, on the same thread) takes them instead of scanning again.
struct LinesMemo {
  std::string text;
  std::vector<int> lines;
};
thread_local LinesMemo last_lines;

}  // namespace

void Prefilter::trim(const SourceFile& src, FileFacts& f) const {
  if (f.kind != FileKind::Python || !impl_->python) return;
  PythonFacts& py = f.python;
  if (py.calls.empty() && py.assigns.empty() && py.strings.empty()) return;
  const MatchedLines lines = last_lines.text == src.text() ? MatchedLines(std::move(last_lines.lines))
                                                          : MatchedLines(src.text(), *impl_->python);
  last_lines = {};
  const RE2& words = impl_->python_words ? *impl_->python_words : *impl_->python;
  auto holds = [&](std::string_view s) { return !s.empty() && RE2::PartialMatch(s, words); };
  auto named = [&](std::string_view s) { return impl_->python_names && RE2::PartialMatch(s, *impl_->python_names); };
  auto arg_holds = [&](const PyArg& a) { return holds(a.literal) || std::any_of(a.items.begin(), a.items.end(), holds); };
  std::erase_if(py.calls.edit(), [&](const PyCall& c) {
    return !lines.any(c.loc.range) && !named(c.callee) && !named(c.resolved) &&
           std::none_of(c.args.begin(), c.args.end(), arg_holds);
  });
  std::erase_if(py.assigns.edit(), [&](const PyAssign& a) {
    return !lines.any(a.loc.range) && !named(a.target) && !named(a.resolved) && !holds(a.value);
  });
  std::erase_if(py.strings.edit(), [&](const auto& s) { return !lines.any(s.second.range) && !holds(s.first); });
}

bool Prefilter::trims_python() const { return impl_->python != nullptr; }

std::vector<int> Prefilter::python_lines(std::string_view text) const {
  std::vector<int> lines = MatchedLines(text, *impl_->python).take();
  last_lines = {std::string(text), lines};
  if (impl_->python_names) {
    std::vector<int> named = MatchedLines(text, *impl_->python_names).take();
    std::vector<int> both;
    std::merge(lines.begin(), lines.end(), named.begin(), named.end(), std::back_inserter(both));
    lines = std::move(both);
  }
  return lines;
}

bool prefilter_enabled_by_env() {
  const char* v = std::getenv("SPARKCHECK_NO_PREFILTER");
  return !v || !*v || std::string(v) == "0";
}

}  // namespace sc

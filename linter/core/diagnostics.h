// SPDX-License-Identifier: Apache-2.0
// Findings (rule results) and notifications (problems with the run itself).
#pragma once
#include <compare>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/source.h"

namespace sc {

enum class Level { Note, Warning, Error };
const char* level_name(Level l);  // "note" | "warning" | "error"
bool parse_level(const std::string& s, Level& out);

// A finding's message is "headline: explanation". The headline names the problem and where
// it is judged ("torch is not pinned on the host (setup.sh)"); the explanation says why it
// breaks on a Spark. Split at the first ": " or "; " outside brackets and quotes; no split: all
// headline.
size_t headline_end(std::string_view message);  // npos when the message has no explanation
std::string_view headline(std::string_view message);
std::string_view explanation(std::string_view message);  // "" when none

// A finding's message or fix: one string that the findings saying the same can share (a run
// over several projects makes them share it, engine/unit_results.cpp), 16 bytes where a
// std::string takes 32. Reads like a const std::string; set it whole.
class SharedText {
 public:
  SharedText() = default;
  SharedText(std::string s) : p_(s.empty() ? nullptr : std::make_shared<const std::string>(std::move(s))) {}
  SharedText(const char* s) : SharedText(std::string(s)) {}
  SharedText(std::string_view s) : SharedText(std::string(s)) {}
  explicit SharedText(std::shared_ptr<const std::string> p) : p_(std::move(p)) {}

  const std::string& str() const { return p_ ? *p_ : kEmpty; }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  bool empty() const { return !p_ || p_->empty(); }
  size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }
  size_t find(std::string_view s, size_t pos = 0) const { return str().find(s, pos); }
  const std::shared_ptr<const std::string>& shared() const { return p_; }

  friend bool operator==(const SharedText& a, const SharedText& b) { return a.str() == b.str(); }
  friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b) { return a.str() <=> b.str(); }
  template <class S> requires(!std::is_same_v<S, SharedText> && std::is_convertible_v<const S&, std::string_view>)
  friend bool operator==(const SharedText& a, const S& b) { return std::string_view(a.str()) == std::string_view(b); }
  friend std::string operator+(const SharedText& a, std::string_view b) { return std::string(a.str()).append(b); }
  friend std::string operator+(std::string_view a, const SharedText& b) { return std::string(a).append(b.str()); }
  friend std::ostream& operator<<(std::ostream& os, const SharedText& t);

 private:
  static inline const std::string kEmpty;
  std::shared_ptr<const std::string> p_;
};

struct Related {
  Location loc;
  std::string message;  // why this place matters, e.g. "installed by this RUN"
};

struct Suppression {
  std::string justification;
  Location loc;  // the comment that suppressed it
  std::string kind = "inSource";  // SARIF: "inSource" (comment) or "external" (configuration)
};

// One text replacement in a linted file: the text of `loc.range` (1-based lines, columns in
// characters as every Location, end exclusive) becomes `text`. `old` is the text the range
// held when the rule read it: --fix applies the edit only where the file still says that.
struct Edit {
  Location loc;
  std::string text;
  std::string old;
};

// A machine-applicable fix. Safe fixes keep the environment's meaning and apply with
// --fix; unsafe ones change what gets installed and need --unsafe-fixes (ruff's split).
struct Fix {
  std::string title;  // imperative, e.g. "Use 12.1a"
  bool safe = true;
  std::vector<Edit> edits;
};

struct Finding {
  std::string rule;      // "G1" .. "G10"
  Level level = Level::Warning;
  Location loc;
  SharedText message;    // what is wrong and why it breaks on a Spark
  SharedText fix;        // how to fix it (one line)
  std::vector<Fix> fixes;  // edits that apply the fix, where the right edit is certain
  std::vector<Related> related;
  // Stable identity for baselines and SARIF partialFingerprints; filled by the engine.
  std::string fingerprint;
  std::vector<Suppression> suppressions;  // non-empty: suppressed (still emitted in SARIF)
};

// A problem with the run: unreadable file, parse error, include cycle...
struct Notification {
  Level level = Level::Warning;
  std::string path;      // file concerned (display path), may be empty
  Range range;           // may be invalid
  std::string message;
  std::string id;        // short stable id, e.g. "read-error", "parse-error", "include-cycle"
};

}  // namespace sc

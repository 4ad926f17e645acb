// Findings (rule results) and notifications (problems with the run itself).
#pragma once
#include <string>
#include <vector>

#include "core/source.h"

namespace sc {

enum class Level { Note, Warning, Error };
const char* level_name(Level l);  // "note" | "warning" | "error"
bool parse_level(const std::string& s, Level& out);

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
  std::string message;   // what is wrong and why it breaks on a Spark
  std::string fix;       // how to fix it (one line)
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

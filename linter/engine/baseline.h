// SPDX-License-Identifier: Apache-2.0
// Baseline files: today's findings recorded by fingerprint, so that a later
// run reports only new ones (`--write-baseline FILE`, `--baseline FILE`).
#pragma once
#include <ostream>
#include <set>
#include <string>

#include "engine/engine.h"

namespace sc {

struct Baseline {
  std::set<std::string> fingerprints;
};

// Reads FILE. On failure returns false and sets `error` to a message that
// starts with "FILE:LINE:COL:" when a position is known.
bool load_baseline(const std::string& file, Baseline& out, std::string& error);
// Parses baseline text (`file` is only used in messages).
bool parse_baseline(const std::string& text, const std::string& file, Baseline& out, std::string& error);
// Writes every unsuppressed finding of `r` (JSON, sorted, stable across runs),
// with fingerprints and paths relative to `base_dir` (the baseline file's directory).
void write_baseline(const LintResult& r, std::ostream& out, const std::string& base_dir);

}  // namespace sc

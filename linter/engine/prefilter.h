// SPDX-License-Identifier: Apache-2.0
// A cheap test, before parsing, of whether a file can yield a fact any rule reads
// (knowledge/triggers.yaml: Python files and JSON configs). Files that cannot are not
// parsed: their facts stay empty.
#pragma once
#include <string_view>
#include <vector>

#include "core/facts.h"

namespace sc {

class Prefilter {
 public:
  struct Impl;  // the compiled patterns (prefilter.cpp)
  // Loads the trigger tables; call on one thread before parse threads start.
  // `on` false (--no-prefilter / SPARKCHECK_NO_PREFILTER=1): every file is parsed.
  explicit Prefilter(bool on);
  ~Prefilter();
  Prefilter(const Prefilter&) = delete;
  Prefilter& operator=(const Prefilter&) = delete;
  // True when a file of `kind` holding `text` must be parsed. Thread-safe.
  bool wanted(FileKind kind, std::string_view text) const;
  // True when embedded Python code (a notebook's code cells, joined) must be parsed.
  bool embedded_python_wanted(std::string_view code) const;
  // Drops a parsed Python file's calls, assignments and string literals that no rule reads
  // (knowledge python-fact-names says which stay); `src` still holds the text. Imports stay.
  // Nothing is dropped when the filter is off. Thread-safe.
  void trim(const SourceFile& src, FileFacts& facts) const;
  // The lines of a Python file that hold a trigger word or a python-fact-names name (1-based,
  // ascending): the statements trim() can keep. Thread-safe.
  std::vector<int> python_lines(std::string_view text) const;
  // Whether trim() drops anything (the filter is on and has Python trigger words).
  bool trims_python() const;

 private:
  bool python_wanted(std::string_view text) const;
  bool json_wanted(std::string_view text) const;
  const Impl* impl_ = nullptr;  // shared: compiled once
};

// False when the environment asks for every file to be parsed (SPARKCHECK_NO_PREFILTER=1).
bool prefilter_enabled_by_env();

}  // namespace sc

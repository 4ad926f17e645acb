// SPDX-License-Identifier: Apache-2.0
// A memory budget for parsing one file. The engine parses files on several threads; each
// thread has at most one budget at a time (ParseBudget::Scope), for the file it is parsing.
// Code that allocates on the parse's behalf (the tree-sitter allocator, parsers/ts_util.h)
// charges it; once the budget is spent the parse stops and the engine reports that one file
// ("parse-budget") and goes on with the others.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sc {

// Thrown (from C++ code only, never through the C of tree-sitter) when the file's parse has
// spent its budget.
struct BudgetExceeded : std::runtime_error {
  explicit BudgetExceeded(size_t limit_bytes)
      : std::runtime_error("parse budget exceeded"), limit(limit_bytes) {}
  size_t limit;
};

class ParseBudget {
 public:
  // The budget for a file of `bytes`: see parse_budget.cpp.
  static size_t for_size(size_t bytes);

  explicit ParseBudget(size_t limit) : limit_(limit) {}
  ParseBudget(const ParseBudget&) = delete;
  ParseBudget& operator=(const ParseBudget&) = delete;

  // Makes `b` the calling thread's budget for its lifetime (the previous one after).
  class Scope {
   public:
    explicit Scope(ParseBudget& b);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    ParseBudget* prev_;
  };

  // The calling thread's budget, null outside a Scope.
  static ParseBudget* current();

  // Counts bytes taken (negative: given back). Past the limit it marks the budget spent and
  // raises the cancellation flag; it never throws (tree-sitter's C code calls it).
  void charge(int64_t bytes) noexcept {
    used_ += bytes;
    if (used_ > peak_) peak_ = used_;
    if (used_ > static_cast<int64_t>(limit_) && !cancel_) cancel_ = 1;
  }
  bool spent() const { return cancel_ != 0; }
  // Throws BudgetExceeded when spent: for C++ code between steps of a parse.
  void check() const {
    if (spent()) throw BudgetExceeded(limit_);
  }
  // tree-sitter's cancellation flag (ts_parser_set_cancellation_flag): nonzero once spent.
  const size_t* cancel_flag() const { return &cancel_; }
  size_t limit() const { return limit_; }
  int64_t peak() const { return peak_; }

 private:
  size_t limit_;
  int64_t used_ = 0;
  int64_t peak_ = 0;
  size_t cancel_ = 0;
};

}  // namespace sc

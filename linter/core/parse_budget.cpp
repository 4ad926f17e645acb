// SPDX-License-Identifier: Apache-2.0
#include "core/parse_budget.h"

#include <algorithm>

namespace sc {

namespace {
thread_local ParseBudget* t_current = nullptr;
}  // namespace

// 64 times the file's size, at least 64 MB, at most 512 MB (decimal MB). What this stops takes
// hundreds of times its size in tree-sitter alone (heaptrack: a 600 KB `| cat` pipeline 280 MB,
// the 7 MB one 3.6 GB in all). The 64 MB floor leaves a small file far more than its tree
// needs (a 100 KB `y()()()...` chain, a tree of 100000 nested calls: 14 MB), and the ceiling
// keeps the parser threads (at most 8) to a few GB together even when each is on a bomb.
// Only tree-sitter's allocations are counted (parsers/ts_alloc.cpp).
size_t ParseBudget::for_size(size_t bytes) {
  constexpr size_t kMB = 1000 * 1000;
  size_t scaled = bytes > (SIZE_MAX / 64) ? SIZE_MAX : bytes * 64;
  return std::clamp(scaled, 64 * kMB, 512 * kMB);
}

ParseBudget::Scope::Scope(ParseBudget& b) : prev_(t_current) { t_current = &b; }
ParseBudget::Scope::~Scope() { t_current = prev_; }

ParseBudget* ParseBudget::current() { return t_current; }

}  // namespace sc

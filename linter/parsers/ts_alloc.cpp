// SPDX-License-Identifier: Apache-2.0
// tree-sitter's allocator: counts what a parse takes against the calling thread's
// ParseBudget (core/parse_budget.h). tree-sitter 0.20.7 checks no allocation for NULL (its
// default allocator prints a line and exits), so this one never fails one for the budget:
// past the limit it raises the parser's cancellation flag, which ts_parser_parse reads every
// 100 parse actions, and the parse returns NULL (ts::parse throws BudgetExceeded).
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/parse_budget.h"
#include "parsers/ts_util.h"

namespace sc::ts {

namespace {

// The last resort, when the system itself has no memory left: tree-sitter cannot go on from
// a NULL and unwinding through its C frames is not possible, so the run ends with a message.
[[noreturn]] void out_of_memory(size_t bytes) {
  std::fprintf(stderr, "sparkcheck: out of memory: tree-sitter could not get %zu bytes\n", bytes);
  std::fflush(stderr);
  std::_Exit(2);
}

void charge(void* p, int64_t sign) {
  if (ParseBudget* b = ParseBudget::current(); b && p) b->charge(sign * static_cast<int64_t>(malloc_usable_size(p)));
}

void* ts_malloc(size_t n) {
  void* p = std::malloc(n);
  if (!p && n) out_of_memory(n);
  charge(p, 1);
  return p;
}

void* ts_calloc(size_t count, size_t n) {
  void* p = std::calloc(count, n);
  if (!p && count && n) out_of_memory(count * n);
  charge(p, 1);
  return p;
}

void* ts_realloc(void* old, size_t n) {
  int64_t before = old ? static_cast<int64_t>(malloc_usable_size(old)) : 0;
  void* p = std::realloc(old, n);
  if (!p && n) out_of_memory(n);
  if (ParseBudget* b = ParseBudget::current(); b && p) b->charge(static_cast<int64_t>(malloc_usable_size(p)) - before);
  return p;
}

void ts_free(void* p) {
  charge(p, -1);
  std::free(p);
}

}  // namespace

void install_allocator() {
  static std::once_flag once;
  std::call_once(once, [] { ts_set_allocator(ts_malloc, ts_calloc, ts_realloc, ts_free); });
}

}  // namespace sc::ts

// SPDX-License-Identifier: Apache-2.0
// Small helpers shared by the tree-sitter based parsers (shell, python, notebook).
#pragma once
#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/nesting.h"
#include "core/parse_budget.h"
#include "core/registry.h"
#include "core/source.h"

namespace sc::ts {

struct ParserDel { void operator()(TSParser* p) const { ts_parser_delete(p); } };
struct TreeDel { void operator()(TSTree* t) const { ts_tree_delete(t); } };
using ParserPtr = std::unique_ptr<TSParser, ParserDel>;
using TreePtr = std::unique_ptr<TSTree, TreeDel>;

// Makes tree-sitter allocate through the budgeted allocator (parsers/ts_alloc.cpp); once
// per process, before the first parser.
void install_allocator();

// A new parser whose allocations count against the thread's ParseBudget.
inline ParserPtr new_parser() {
  install_allocator();
  return ParserPtr(ts_parser_new());
}

// Parses `text` with `parser`. Under a ParseBudget the parse stops once the budget is spent
// (the cancellation flag) and BudgetExceeded is thrown, also when the tree was done by then.
inline TreePtr parse(TSParser* parser, std::string_view text) {
  ParseBudget* b = ParseBudget::current();
  ts_parser_set_cancellation_flag(parser, b ? b->cancel_flag() : nullptr);
  TreePtr tree(ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size())));
  ts_parser_set_cancellation_flag(parser, nullptr);
  if (b) b->check();
  return tree;
}

// Generated files can nest thousands of levels deep (long && chains, huge
// expressions): walkers stop descending past this depth rather than exhaust the stack.
// AddressSanitizer's frames are several times larger: a lower bound keeps the
// sanitizer builds (tests/hostile, fuzz/) inside the same 8 MB stack. g++ says
// __SANITIZE_ADDRESS__, clang only __has_feature (fuzz_parsers overflowed the
// stack on a 4.7 KB `.b()` chain while clang's ASan build used 2000).
#if defined(__SANITIZE_ADDRESS__)
#define SC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SC_ASAN 1
#endif
#endif
#if defined(SC_ASAN)
constexpr int kMaxDepth = 400;
#else
constexpr int kMaxDepth = 2000;
#endif
struct Nest {  // counts the walker's current depth for its lifetime
  int& n;
  explicit Nest(int& x) : n(x) { ++n; }
  ~Nest() { --n; }
};

// Visits the children of `n` (only the named ones when `named`) with a tree
// cursor: ts_node_child(n, i) and ts_node_next_sibling re-scan from the parent
// in tree-sitter 0.20, which makes index loops quadratic in the child count.
// `f` returns void, or bool (false stops the walk).
template <class F>
void each_child(TSNode n, bool named, F&& f) {
  if (ts_node_is_null(n) || ts_node_child_count(n) == 0) return;
  struct Cursor {
    TSTreeCursor c;
    explicit Cursor(TSNode n) : c(ts_tree_cursor_new(n)) {}
    ~Cursor() { ts_tree_cursor_delete(&c); }
  } cur(n);
  if (!ts_tree_cursor_goto_first_child(&cur.c)) return;
  do {
    TSNode ch = ts_tree_cursor_current_node(&cur.c);
    if (named && !ts_node_is_named(ch)) continue;
    if constexpr (std::is_same_v<decltype(f(ch)), bool>) {
      if (!f(ch)) return;
    } else {
      f(ch);
    }
  } while (ts_tree_cursor_goto_next_sibling(&cur.c));
}
template <class F>
void each_named_child(TSNode n, F&& f) { each_child(n, true, std::forward<F>(f)); }

// The first named child (null when none), without counting them all.
inline TSNode first_named_child(TSNode n) {
  TSNode out{};
  each_named_child(n, [&](TSNode ch) { out = ch; return false; });
  return out;
}

inline bool is(TSNode n, const char* type) {
  return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0;
}

// The system tree-sitter (0.20.7) double-frees on some inputs nested tens of
// thousands deep, and our walkers recurse: such text is never handed to it.
// Reports the file (the line where the bound is passed) and returns true.
// `json`: brackets in strings do not count (max_json_nesting).
inline bool refuse_deep(const SourceFile& src, std::string_view text, ParseDiag& diag, size_t base = 0,
                        bool json = false) {
  NestingScan s = json ? max_json_nesting(text) : max_nesting(text);
  if (s.depth <= kMaxNesting) return false;
  diag.error(src.path(), src.range(base + s.offset, base + s.offset + 1),
             "not parsed: brackets nested more than " + std::to_string(kMaxNesting) + " levels deep",
             "too-deep");
  return true;
}

// First ERROR or MISSING node below `n` (0.20.7 has no ts_node_is_error).
inline bool find_error(TSNode n, TSNode& found, int depth = 0) {
  if (is(n, "ERROR") || ts_node_is_missing(n)) { found = n; return true; }
  if (depth > kMaxDepth) return false;
  bool hit = false;
  each_child(n, false, [&](TSNode ch) {
    hit = ts_node_has_error(ch) && find_error(ch, found, depth + 1);
    return !hit;
  });
  return hit;
}

// "missing X" or "unexpected text" for the first error below `root`; sets `bad`.
inline std::string describe_error(TSNode root, TSNode& bad) {
  bad = root;
  find_error(root, bad);
  return ts_node_is_missing(bad) ? std::string("missing ") + ts_node_type(bad) : "unexpected text";
}

inline void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace sc::ts

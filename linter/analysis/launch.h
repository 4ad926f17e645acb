// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the rules that read launch commands and training code
// (G2, G7, G10): integer literals, program lookup inside wrapped commands,
// test-code paths and the node / GPU-per-node layout type. What each launcher's
// flags mean lives in knowledge/parallelism.yaml and linter/query/layout.h.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"

namespace sc {

// A whole-number literal: "2" / " 2 " / "+2". `value` is empty for anything else
// (variables, "auto", "2.0"); `unreadable` marks digits too large for an int.
struct IntLiteral {
  std::optional<long> value;
  bool unreadable = false;
};
IntLiteral read_int(std::string_view s);
// Shorthand: the value, nullopt for a non-literal or an unreadable one. Never throws.
std::optional<long> int_literal(std::string_view s);

// Index of the first argv word whose base name is one of `progs`, or -1.
int find_program(const Command& c, const std::vector<std::string>& progs, size_t from = 0);
// Index of the word after `-m` when it starts with one of `modules` ("vllm.entrypoints"), or -1.
int find_module(const Command& c, const std::vector<std::string>& modules);

// Files that are test code of a library (tests/, test_*.py, *_test.py, conftest.py):
// they configure nothing a user runs.
bool is_test_path(std::string_view display_path);

// How many nodes and GPUs per node a launch uses; -1 when not stated.
struct Layout {
  int nodes = -1;
  int per_node = -1;
  Location where;  // the flag that stated it
  bool known() const { return nodes >= 0 || per_node >= 0; }
  // Fill a field that is still unknown; the first place stated becomes `where`.
  void set_nodes(long v, const Location& at) { fill(nodes, v, at); }
  void set_per_node(long v, const Location& at) { fill(per_node, v, at); }

 private:
  void fill(int& field, long v, const Location& at);
};
// Merge: fields of `a` win, `b` fills the gaps.
Layout merge(const Layout& a, const Layout& b);

}  // namespace sc

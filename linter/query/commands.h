// SPDX-License-Identifier: Apache-2.0
// Questions about launch commands: which launcher runs, the integer value of a flag.
// Launchers and their flag spellings are data (knowledge/parallelism.yaml).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/launch.h"
#include "core/facts.h"

namespace sc::query {

// An integer read from a flag, an override or a literal. `loc` is where it was read.
struct IntAt {
  long value = 0;
  Location loc;
};

// Integers a rule could not read (digits too large for an int): the rule reports each as a
// note naming the file and line and keeps its other findings.
struct Unreadable {
  std::vector<Location> places;
  void add(const Location& l) { places.push_back(l); }
};

// The value of the last flag among `names` ("--tp 2", "--tp=2", "-N2"), as flag_value does.
std::optional<Word> flag_word(const Command& c, const std::vector<std::string>& names);
bool has_any_flag(const Command& c, const std::vector<std::string>& names);
// Does a word after the program start with one of `names`? A cheap test before flag_word
// and int_flag: false means they find nothing.
bool may_have_flag(const Command& c, const std::vector<std::string>& names);

// The resolved literal value of a flag among `names` (`--tp 2`, `--tp=2`); nullopt when the
// flag is absent, a variable or not a whole number. Never throws; a number too large to read
// is added to `bad` when given.
std::optional<IntAt> int_flag(const Command& c, const std::vector<std::string>& names, Unreadable* bad = nullptr);
// A text as an integer, with the same rules; `at` is where it was written.
std::optional<long> int_text(std::string_view text, const Location& at, Unreadable* bad = nullptr);
// A word as an integer, with the same rules (nullopt for an unresolved word).
std::optional<long> int_word(const Word& w, Unreadable* bad = nullptr);

// Does `c` run the launcher named `name` in the `launchers` knowledge table
// (program and subcommand, or `python -m module`)?
bool runs(const Command& c, std::string_view name);

// The first launcher (in table order) that runs `c`, or "".
std::string launcher_of(const Command& c);

// `c` as its container runs it: the words of `docker run IMAGE ARGS` or of a compose
// service's `command:` go to the image's own entrypoint when the image has one
// (knowledge/containers.yaml image-entrypoints: vllm/vllm-openai runs `vllm serve ARGS`), so
// that entrypoint's words come first. nullopt when `c` runs as written (no such image, or
// its first word is a program of its own: a shell, python, a launcher).
std::optional<Command> entrypoint_launch(const FileFacts& f, const Command& c);

// Hydra-style overrides `key=value` (also `+key=`, `a.b.key=`) that are not flags:
// (key as written, the word) for each word whose key is `key` or ends with ".key".
std::vector<std::pair<std::string, const Word*>> overrides(const Command& c, std::string_view key);

// Does any resolved argument contain one of `words`?
bool mentions(const Command& c, const std::vector<std::string>& words);

}  // namespace sc::query

// SPDX-License-Identifier: Apache-2.0
// What evidence.cpp, words.cpp and commands.cpp share inside G7.
#pragma once
#include <string>
#include <utility>

#include "rules/G7-nvfp4-without-sm121a/evidence.h"

namespace sc::g7 {

// A config key whose value names an output, a run or a document, not what is loaded
// (knowledge naming-config-keys, naming-config-key-patterns).
bool naming_key(const std::string& k);
// "CMAKE_CUDA_ARCHITECTURES=121" of "-DCMAKE_CUDA_ARCHITECTURES:STRING=121" as (name, value);
// empty without `=`.
std::pair<std::string, std::string> definition(const std::string& word);
// A word naming an arch-specific target (`sm_121a`) anywhere: a 12.1a target.
void specific_word(const Word& w, Evidence& ev);
// One command's evidence: NVFP4 uses, arch lists, kernel builds.
void command(const Command& c, Evidence& ev);

}  // namespace sc::g7

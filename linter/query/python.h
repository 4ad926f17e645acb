// SPDX-License-Identifier: Apache-2.0
// Questions about Python calls.
#pragma once
#include <string>
#include <string_view>

#include "core/facts.h"
#include "knowledge/knowledge.h"

namespace sc::query {

// The keyword argument `name` of a call, or null.
const PyArg* kwarg(const PyCall& c, std::string_view name);
// The positional argument at `index` (0-based), or null.
const PyArg* positional(const PyCall& c, size_t index);
// The last name of the import-resolved callee: "vllm.LLM" -> "LLM".
std::string callee_name(const PyCall& c);
// Does a knowledge entry describe this call? `modules` (prefixes of the resolved callee),
// `callees` (last names) must match when present; `not_callees` excludes.
bool call_matches(const PyCall& c, const knowledge::Entry& e);

}  // namespace sc::query

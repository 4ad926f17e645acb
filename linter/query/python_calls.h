// Questions about Python calls: a keyword argument, the first positional argument.
#pragma once
#include <string_view>

#include "core/facts.h"

namespace sc::query {

// The keyword argument `k` of call `c` ("**" for a **kwargs splat), or null.
const PyArg* kwarg(const PyCall& c, std::string_view k);
// Keyword `k`, else the first positional argument, or null.
const PyArg* kwarg_or_first(const PyCall& c, std::string_view k);

}  // namespace sc::query

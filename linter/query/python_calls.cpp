// Questions about Python calls.
#include "query/python_calls.h"

namespace sc::query {

const PyArg* kwarg(const PyCall& c, std::string_view k) {
  for (const auto& a : c.args)
    if (a.keyword == k) return &a;
  return nullptr;
}

const PyArg* kwarg_or_first(const PyCall& c, std::string_view k) {
  if (const PyArg* a = kwarg(c, k)) return a;
  for (const auto& a : c.args)
    if (a.keyword.empty()) return &a;
  return nullptr;
}

}  // namespace sc::query

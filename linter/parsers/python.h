// SPDX-License-Identifier: Apache-2.0
// Python layer: tree-sitter-python -> PythonFacts (imports, calls with literal
// arguments, assignments to imported attributes, string literals, defs).
#pragma once
#include <string_view>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// Parse `src` (a file, or a view such as a notebook cell) and append to `out`.
// Names imported by earlier calls on the same `out` (earlier notebook cells)
// stay bound, so `FLM.from_pretrained` in cell 3 resolves through cell 1's import.
// Syntax errors add a warning to `diag`; the rest of the tree is still used.
void parse_python(const SourceFile& src, PythonFacts& out, ParseDiag& diag);

// A string literal's body as the facts hold it: \n \t \r \\ \' \" and \xHH \uHHHH
// \UHHHHHHHH decoded, a backslash-newline dropped, other escapes kept as written.
std::string py_unescape(std::string_view s);

// True when the `#!` line of `head` names a python interpreter.
bool python_shebang(std::string_view head);

}  // namespace sc

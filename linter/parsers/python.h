// SPDX-License-Identifier: Apache-2.0
// Python layer: tree-sitter-python -> PythonFacts (imports, calls with literal
// arguments, assignments to imported attributes, string literals, defs).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// Parse `src` (a file, or a view such as a notebook cell) and append to `out`.
// Names imported by earlier calls on the same `out` (earlier notebook cells)
// stay bound, so `FLM.from_pretrained` in cell 3 resolves through cell 1's import.
// Syntax errors add a warning to `diag`; the rest of the tree is still used.
void parse_python(const SourceFile& src, PythonFacts& out, ParseDiag& diag);

// A Python file's text to parse only in part: the byte ranges of whole lines that hold the
// statements touching some lines (see python_statements_only), in order; `text` is the file's
// with `pass` written where a kept block lost every statement (same length: offsets hold).
struct PythonPart {
  struct Lines {
    uint32_t begin = 0, end = 0;          // bytes
    uint32_t first_row = 0, end_row = 0;  // 0-based rows of begin and end
    uint32_t end_column = 0;              // 0 unless the text ends without a newline
  };
  std::string text;
  std::vector<Lines> ranges;
};

// The statements that touch `lines` (1-based, ascending), every import, and what keeps them
// valid Python: the headers of their blocks, the rest of their if/try chains, what a kept
// decorator decorates. nullopt where the splitter is unsure of the statements (tabs or form
// feeds in an indentation, a lone carriage return, an unterminated string or bracket, a
// dedent Python rejects): then the file is parsed whole.
std::optional<PythonPart> python_statements_only(std::string_view text, const std::vector<int>& lines);

// A string literal's body as the facts hold it: \n \t \r \\ \' \" and \xHH \uHHHH
// \UHHHHHHHH decoded, a backslash-newline dropped, other escapes kept as written.
std::string py_unescape(std::string_view s);

// True when the `#!` line of `head` names a python interpreter.
bool python_shebang(std::string_view head);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Markdown tables written from knowledge data, so a rule's documentation lists what the rule
// reads. A block in a rule's .md:
//   <!-- knowledge-table TABLE: Header=EXPR; Header=EXPR -->
//   (rows, rewritten by scripts/gen-docs.sh)
//   <!-- /knowledge-table -->
// EXPR: `field` (a scalar, or a list joined with ", "), `code:field` (each value as `code`),
// `field?THEN:ELSE` (THEN when the field is set, else ELSE).
#pragma once
#include <string>
#include <string_view>

namespace sc::knowledge {

// `markdown` with every knowledge-table block's rows written from the data. On a bad block
// (unknown table, unclosed block, empty spec) returns "" and sets `error`.
std::string render_doc_tables(std::string_view markdown, std::string& error);

}  // namespace sc::knowledge

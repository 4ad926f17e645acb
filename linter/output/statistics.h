// SPDX-License-Identifier: Apache-2.0
// `sparkcheck lint --statistics`: how many findings each rule made.
#pragma once
#include <ostream>

#include "engine/engine.h"

namespace sc {

// One line per rule with findings, most first: "COUNT<TAB>ID<TAB>name".
// Suppressed findings are left out; run problems (parse errors...) follow by id.
void write_statistics(const LintResult& r, std::ostream& out);

}  // namespace sc

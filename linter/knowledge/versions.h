// SPDX-License-Identifier: Apache-2.0
// Release version order, and the ranges of knowledge/versions.yaml `broken-combinations`
// (read by lint G8 and probe G8).
#pragma once
#include <string_view>

#include "knowledge/knowledge.h"

namespace sc::knowledge {

// -1, 0, 1 in PEP 440 order: release numbers (missing parts are 0), then a < b < rc < the
// release < .postN; .devN before all of those; a local part ("+cu130") is ignored.
int compare_versions(std::string_view a, std::string_view b);
// Is `version` inside the entry's range: at least `min` (its pre-releases included), at most
// `max`, below `below` and not a pre-release of `below` (each when given)?
bool version_in_range(const Entry& e, std::string_view version);
// Does a PEP 440 specifier (">=2.1,<3", "~=2.9.0", "==2.9.*") allow `version`? A clause it
// cannot read allows it.
bool specifier_allows(std::string_view spec, std::string_view version);

}  // namespace sc::knowledge

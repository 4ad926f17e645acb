// SPDX-License-Identifier: Apache-2.0
// Whether a run linted anything at all: CI must not pass when every file was
// unreadable, skipped as too large, or not a regular file.
#pragma once
#include <string>

#include "engine/engine.h"

namespace sc {

// True (with the reason in `why`) when files were found but none could be linted.
bool nothing_linted(const LintResult& r, std::string& why);

}  // namespace sc

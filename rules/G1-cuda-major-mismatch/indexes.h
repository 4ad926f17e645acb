// SPDX-License-Identifier: Apache-2.0
// G1's checks of what an install names (indexes.cpp).
#pragma once
#include "query/project.h"

namespace sc::g1 {

// A file's wheel indexes (install options, ENV / export of an index variable), +cuXYZ local
// versions, CUDA meta-package pins and CUDA 11 package names.
void version_tags(const Project& p, const ParsedFile& f, Reporter& out);

}  // namespace sc::g1

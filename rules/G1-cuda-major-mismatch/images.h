// SPDX-License-Identifier: Apache-2.0
// G1's base-image check (images.cpp).
#pragma once
#include <set>

#include "query/project.h"

namespace sc::g1 {

// Every Image fact of a file (Dockerfile FROM, docker run, compose image:). `gpu_less_builds`:
// query::built_for_gpu_less_services.
void images(const Project& p, const ParsedFile& f, const std::set<const ParsedFile*>& gpu_less_builds, Reporter& out);

}  // namespace sc::g1

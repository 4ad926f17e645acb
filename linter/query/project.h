// SPDX-License-Identifier: Apache-2.0
// The project model as rules read it: the files with their facts, the links between them
// (Project), and the launch-reading helpers (Layout, read_int, find_program). A rule includes
// this header, never one of analysis/ or parsers/ (tests/scripts/layers.sh, and the build:
// cmake/layers.cmake runs the same check before the rules compile).
#pragma once
#include "analysis/launch.h"
#include "analysis/project.h"

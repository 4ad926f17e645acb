// SPDX-License-Identifier: Apache-2.0
// Building a finding. Rules give the level, place, message, fix and related places;
// the engine fills the rule id, keeps one finding per line and merges related places.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"

namespace sc::query {

inline Finding finding(Level level, const Location& loc, std::string message, std::string fix = {},
                       std::vector<Related> related = {}) {
  Finding f;
  f.level = level;
  f.loc = loc;
  f.message = std::move(message);
  f.fix = std::move(fix);
  f.related = std::move(related);
  return f;
}

}  // namespace sc::query

// SPDX-License-Identifier: Apache-2.0
#include "core/diagnostics.h"

#include <ostream>

namespace sc {

std::ostream& operator<<(std::ostream& os, const SharedText& t) { return os << t.str(); }

const char* level_name(Level l) {
  switch (l) {
    case Level::Note: return "note";
    case Level::Warning: return "warning";
    case Level::Error: return "error";
  }
  return "warning";
}

bool parse_level(const std::string& s, Level& out) {
  if (s == "note") out = Level::Note;
  else if (s == "warning") out = Level::Warning;
  else if (s == "error") out = Level::Error;
  else return false;
  return true;
}

}  // namespace sc

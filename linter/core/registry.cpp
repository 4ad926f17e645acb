#include "core/registry.h"

namespace sc {

std::vector<const Parser*>& parsers() {
  static std::vector<const Parser*> v;
  return v;
}

std::vector<PostParsePass>& post_parse_passes() {
  static std::vector<PostParsePass> v;
  return v;
}

std::vector<const Rule*>& rules() {
  static std::vector<const Rule*> v;
  return v;
}

const Parser* parser_for(const FileInfo& f) {
  const Parser* best = nullptr;
  for (const Parser* p : parsers())
    if (p->accepts(f) && (!best || p->priority() > best->priority())) best = p;
  return best;
}

}  // namespace sc

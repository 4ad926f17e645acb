// SPDX-License-Identifier: Apache-2.0
// Running one rule over a project built from in-memory files, for unit tests.
#pragma once
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/project.h"
#include "core/registry.h"

namespace sc::test {

struct Collected : Reporter {
  std::vector<Finding> findings;
  std::vector<Notification> notes;
  void report(Finding f) override { findings.push_back(std::move(f)); }
  void note(Notification n) override { notes.push_back(std::move(n)); }
  // Lines of `path` with a finding.
  std::vector<int> lines(const std::string& path = "") const {
    std::vector<int> v;
    for (const auto& f : findings)
      if (path.empty() || f.loc.path == path) v.push_back(f.loc.range.line);
    return v;
  }
};

// Parse one in-memory file like the engine does and add it to `p` (link() not called).
inline ParsedFile* add_file(Project& p, const std::string& path, const std::string& text) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  FileInfo fi{path, name, std::string_view(text).substr(0, 4096)};
  const Parser* parser = parser_for(fi);
  REQUIRE(parser != nullptr);
  auto pf = std::make_unique<ParsedFile>();
  pf->src = SourceFile(path, text);
  pf->facts.edit().kind = parser->kind();
  ParseDiag diag;
  parser->parse(pf->src, pf->facts.edit(), diag);
  for (PostParsePass pass : post_parse_passes()) pass(pf->facts.edit());
  pf->facts.compact();
  ParsedFile* added = pf.get();
  p.files.push_back(std::move(pf));
  return added;
}

// Run rule `id` over a linked project.
inline Collected run_rule(std::string_view id, const Project& p) {
  Collected out;
  for (const Rule* r : rules())
    if (r->id() == id) r->check(p, out);
  return out;
}

// Parse (path, text) pairs like the engine does and run rule `id` over them.
inline Collected run_rule(std::string_view id, const std::vector<std::pair<std::string, std::string>>& files) {
  Project p;
  for (const auto& [path, text] : files) add_file(p, path, text);
  p.link();
  return run_rule(id, p);
}

}  // namespace sc::test

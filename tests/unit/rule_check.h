// Running one rule on a project built from in-memory files (for the per-rule unit tests).
#pragma once
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/project.h"
#include "core/registry.h"

namespace sc::test {

struct RuleOutput {
  std::vector<Finding> findings;
  std::vector<Notification> notes;
  // Findings at `line` of `path` whose message contains `text`.
  size_t count(const std::string& path, int line, const std::string& text = "") const {
    size_t n = 0;
    for (const Finding& f : findings)
      if (f.loc.path == path && f.loc.range.line == line && f.message.find(text) != std::string::npos) ++n;
    return n;
  }
};

class Capture : public Reporter {
 public:
  RuleOutput out;
  void report(Finding f) override { out.findings.push_back(std::move(f)); }
  void note(Notification n) override { out.notes.push_back(std::move(n)); }
};

// Parses (path, text) pairs with the registered parsers and post-parse passes, links them.
class MemProject {
 public:
  Project p;
  MemProject(std::initializer_list<std::pair<std::string, std::string>> files) {
    for (const auto& [path, text] : files) add(path, text);
    p.link();
  }
  ParsedFile* add(const std::string& path, const std::string& text) {
    std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    FileInfo fi{path, name, std::string_view(text).substr(0, 4096)};
    const Parser* parser = parser_for(fi);
    REQUIRE(parser != nullptr);
    auto pf = std::make_unique<ParsedFile>();
    pf->src = SourceFile(path, text);
    pf->facts.kind = parser->kind();
    ParseDiag diag;
    parser->parse(pf->src, pf->facts, diag);
    for (PostParsePass pass : post_parse_passes()) pass(pf->facts);
    p.files.push_back(std::move(pf));
    return p.files.back().get();
  }
  RuleOutput run(std::string_view rule_id) const {
    Capture c;
    for (const Rule* r : rules())
      if (r->id() == rule_id) r->check(p, c);
    return c.out;
  }
};

}  // namespace sc::test

// SPDX-License-Identifier: Apache-2.0
// knowledge_docs [--check] FILE.md...: rewrites the knowledge-table blocks of rule docs from
// the knowledge data (knowledge/doc_tables.h). With --check, changes nothing and exits 1 when a
// file is out of date. scripts/gen-docs.sh runs it; tests/scripts/rule_docs.sh checks.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "knowledge/doc_tables.h"

namespace {

bool read(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return static_cast<bool>(in);
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false;
  int rc = 0;
  for (int i = 1; i < argc; ++i) {
    std::string path = argv[i];
    if (path == "--check") {
      check = true;
      continue;
    }
    std::string text, error;
    if (!read(path, text)) {
      std::cerr << "knowledge_docs: cannot read " << path << "\n";
      return 2;
    }
    std::string fresh = sc::knowledge::render_doc_tables(text, error);
    if (!error.empty()) {
      std::cerr << "knowledge_docs: " << path << ": " << error << "\n";
      return 2;
    }
    if (fresh == text) continue;
    if (check) {
      std::cerr << "knowledge_docs: " << path << " lists knowledge data that changed: run scripts/gen-docs.sh\n";
      rc = 1;
    } else if (!(std::ofstream(path, std::ios::binary) << fresh)) {
      std::cerr << "knowledge_docs: cannot write " << path << "\n";
      return 2;
    }
  }
  return rc;
}

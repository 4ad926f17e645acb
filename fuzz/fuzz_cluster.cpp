// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a node's probe report as `sparkcheck cluster` reads it (JSON from another
// machine), then the comparison and all three outputs. Bad input becomes notes; nothing throws.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cluster/cluster.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<sc::cluster::Note> notes;
  auto a = sc::cluster::parse_report(text, "a.json", notes);
  auto b = sc::cluster::parse_report(text, "b.json", notes);
  if (!a || !b) return 0;
  sc::cluster::Comparison c;
  c.nodes = {*a, *b};
  c.notes = notes;
  for (auto& n : c.nodes) sc::cluster::add_derived(n);
  sc::cluster::compare_nodes(c);
  std::ostringstream out;
  sc::cluster::write_text(c, out);
  sc::cluster::write_json(c, out);
  sc::cluster::write_sarif(c, out);
  return 0;
}

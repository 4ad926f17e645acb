// SPDX-License-Identifier: Apache-2.0
#include "output/statistics.h"

#include <algorithm>
#include <map>
#include <vector>

#include "core/rule_docs.h"

namespace sc {
namespace {

void write_counts(const std::map<std::string, size_t>& counts, std::ostream& out, bool rules) {
  std::vector<std::pair<std::string, size_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](auto& x, auto& y) { return x.second > y.second; });
  for (auto& [id, n] : rows) {
    const RuleDoc* d = rules ? find_rule_doc(id) : nullptr;
    out << n << "\t" << id << "\t" << (d ? d->name : rules ? "" : "run problem") << "\n";
  }
}

}  // namespace

void write_statistics(const LintResult& r, std::ostream& out) {
  std::map<std::string, size_t> by_rule, by_note;
  for (auto& f : r.findings)
    if (f.suppressions.empty()) ++by_rule[f.rule];
  for (auto& n : r.notifications) ++by_note[n.id];
  write_counts(by_rule, out, true);
  write_counts(by_note, out, false);
}

}  // namespace sc

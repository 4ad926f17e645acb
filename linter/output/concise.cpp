// SPDX-License-Identifier: Apache-2.0
// `--format concise`: one line per finding, gcc/quickfix style, for vim/emacs
// `errorformat`, VS Code problem matchers and grep:
//   path:line:col: level: [GN] headline
// The headline is the message's first part (core/diagnostics.h): the problem and its place;
// `sparkcheck rule GN`, the text format and SARIF carry the explanation.
#include "output/escape.h"
#include "output/output.h"

namespace sc {
namespace {

std::string one_line(const std::string& s) { return term_safe(s); }

void write_concise(const LintResult& r, std::ostream& out, const OutputOptions& o) {
  for (const auto& f : r.findings) {
    if (!f.suppressions.empty() && !o.show_suppressed) continue;
    const Range& g = f.loc.range;
    out << term_path(f.loc.path) << ":" << (g.valid() ? g.line : 1) << ":" << (g.valid() ? g.col : 1) << ": "
        << level_name(f.level) << ": [" << f.rule << "] " << one_line(std::string(headline(f.message.str())));
    if (!f.suppressions.empty()) out << " (suppressed: " << one_line(f.suppressions[0].justification) << ")";
    out << "\n";
  }
  for (const auto& n : r.notifications) {
    if (n.path.empty()) out << "sparkcheck: ";
    else if (n.range.valid()) out << term_path(n.path) << ":" << n.range.line << ":" << n.range.col << ": ";
    else out << term_path(n.path) << ":1:1: ";
    out << level_name(n.level) << ": [" << n.id << "] " << one_line(n.message) << "\n";
  }
}

}  // namespace
SPARKCHECK_OUTPUT("concise", write_concise);
}  // namespace sc

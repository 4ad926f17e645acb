// SPDX-License-Identifier: Apache-2.0
// Fuzz target: applying fixes (--fix, --diff; engine/fix.h). The file text is linted as
// standard input (nothing is written), then plan_fixes runs on the findings: the rules' own
// fixes, and up to three made-up fixes from the input (any range, matching the text or not),
// as a hostile or buggy rule would hand them over. Checked: each patch's edits are sorted,
// inside the text and not overlapping, `after` is apply_byte_edits(before, edits), and a
// second pass over the fixed text plans again without trouble.
//
// Input layout:  byte 0   file kind (index into kNames); bit 7: --unsafe-fixes
//                byte 1   made-up fixes (b % 4), then 5 bytes each: line, col, end line,
//                         end col, flags (bit 0: `old` is the text at the range; bit 1: safe;
//                         bits 2-4: which replacement text; bit 5: a second edit, one line down)
//                the rest the file's text
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/fix.h"

namespace {

const char* const kNames[] = {"Dockerfile", "requirements.txt", "pyproject.toml", "environment.yml",
                              "train.py",   "launch.sh",        "docker-compose.yml", "README.md",
                              ".github/workflows/ci.yml", "Makefile", "notebook.ipynb", "CMakeLists.txt"};
const char* const kTexts[] = {"", "x", "\n", "torch==2.5.1+cu124", "\xc3\xa9", "a\nb\n", "\"", "12.1a"};

sc::LintResult lint(const std::string& name, const std::string& text) {
  sc::LintOptions opt;
  opt.stdin_text = text;
  opt.stdin_filename = name;
  opt.jobs = 1;
  opt.prefilter = false;
  opt.fingerprints = false;
  return sc::run_lint(opt);
}

void check(const std::vector<sc::FilePatch>& patches) {
  for (const sc::FilePatch& p : patches) {
    size_t at = 0;
    for (const sc::ByteEdit& e : p.edits) {
      if (e.begin < at || e.end < e.begin || e.end > p.before.size()) __builtin_trap();
      at = e.end;
    }
    if (sc::apply_byte_edits(p.before, p.edits) != p.after) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string name = kNames[(data[0] & 0x7F) % (sizeof kNames / sizeof kNames[0])];
  const bool unsafe = (data[0] & 0x80) != 0;
  size_t made = data[1] % 4, at = 2;
  if (size < at + 5 * made) return 0;
  std::string text(reinterpret_cast<const char*>(data + at + 5 * made), size - at - 5 * made);
  sc::LintResult r = lint(name, text);
  const sc::ParsedFile* pf = r.project.find(name);
  for (size_t i = 0; i < made && pf; ++i, at += 5) {
    const uint8_t* b = data + at;
    sc::Fix fx;
    fx.title = "fuzz";
    fx.safe = (b[4] & 2) != 0;
    for (int k = 0; k < ((b[4] & 0x20) ? 2 : 1); ++k) {
      sc::Edit e;
      e.loc.path = name;
      e.loc.range = {b[0] + k, b[1], b[2] + k, b[3]};
      e.text = kTexts[(b[4] >> 2) & 7];
      size_t from = 0, to = 0;
      if ((b[4] & 1) && pf->src.offsets(e.loc.range, from, to)) e.old = pf->src.text().substr(from, to - from);
      fx.edits.push_back(std::move(e));
    }
    sc::Finding f;
    f.rule = "G1";
    f.loc.path = name;
    f.loc.range = {1, 1, 1, 1};
    f.fixes.push_back(std::move(fx));
    r.findings.push_back(std::move(f));
  }
  std::vector<sc::FilePatch> patches = sc::plan_fixes(r, unsafe);
  check(patches);
  if (!patches.empty()) check(sc::plan_fixes(lint(name, patches.front().after), unsafe));
  return 0;
}

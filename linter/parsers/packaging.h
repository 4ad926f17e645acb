// SPDX-License-Identifier: Apache-2.0
// Packaging syntax shared by the requirements / pyproject / conda / Dockerfile / shell
// parsers: PEP 508 requirements, conda match specs, install-command recognition.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"


namespace sc {

struct ParseDiag;

// Turn every install command in f.commands (pip, python -m pip, uv pip, uv add,
// conda/mamba/micromamba install|create) into an Install appended to f.installs.
// Called by the engine on every parsed file.
void derive_installs(FileFacts& f);

// One pip / uv pip option, as every reader of options sees it (install commands, requirements
// files, a conda file's `pip:` list).
enum class PipOption {
  Requirement,    // -r / --requirement FILE
  Constraint,     // -c / --constraint / uv --override / --build-constraint FILE
  IndexUrl,       // -i / --index-url / uv --default-index URL
  ExtraIndexUrl,  // --extra-index-url / uv --index URL
  FindLinks,      // -f / --find-links URL
  TorchBackend,   // uv --torch-backend
  Editable,       // -e / --editable SPEC
  NoDeps,         // --no-deps
  NoIndex,        // --no-index
  Upgrade,        // -U / --upgrade / --force-reinstall / uv --reinstall
  OtherValued,    // an option whose value means nothing to the rules (--target DIR)
  OtherFlag,      // a flag that means nothing to the rules (--pre)
};
// The option a spelling names ("--index-url"), or nullopt when pip and uv take no such option.
std::optional<PipOption> pip_option(std::string_view name);
// Does the option take a value?
bool pip_option_valued(PipOption o);
// Records what the option says in `in`: its value (a requirements file, an index, a backend,
// an editable requirement) or its flag. OtherValued / OtherFlag record nothing.
void apply_pip_option(Install& in, PipOption o, const std::string& value, const Location& loc);

// PEP 503 name normalisation: lower-case, runs of [-_.] -> '-'.
std::string normalize_pkg_name(std::string_view name);

// Parse one PEP 508 requirement ("torch[extra]==2.9.1+cu130 ; marker", "pkg @ URL",
// a wheel URL or file name). Fills every field except loc and hashed.
// Returns false when the text is not a requirement (empty, an option...).
bool parse_requirement(std::string_view text, Requirement& out);

// Parse one conda match spec ("pytorch-cuda=12.1", "cuda-version>=12.4,<13",
// "pytorch=2.5.1=cuda126_*", "conda-forge::numpy 1.26 py311_0"). A CUDA build
// string ("cuda126_...") is reported as local_version "cu126".
bool parse_conda_spec(std::string_view text, Requirement& out);
// A conda environment file by its text: a top-level `dependencies:` with a top-level
// `channels:` or a `- pip:` item (`deps.yml`, `environment_cuda.yaml`...).
bool conda_env_text(std::string_view text);
// Reads a conda environment file into `out` (its installs and config entries).
void parse_conda_env(const SourceFile& src, FileFacts& out, ParseDiag& diag);

// A PEP 508 environment marker as a tree: `or` / `and` nodes over comparisons.
struct MarkerExpr {
  enum class Kind { Or, And, Compare };
  Kind kind = Kind::Compare;
  std::vector<MarkerExpr> terms;  // Or / And
  // Compare: left op right. A side is a variable (left_var / right_var: its name, with a
  // legacy dot read as '_') or a quoted literal; op is ==, !=, <, <=, >, >=, ~=, ===, in, not in.
  std::string left, op, right;
  bool left_var = false, right_var = false;
};

// Parse the text after ';' ("platform_machine == 'x86_64' or (python_version < '3.12' and
// extra == 'gpu')"); nullopt on a syntax error or parentheses nested deeper than 32.
std::optional<MarkerExpr> parse_marker(std::string_view text);

}  // namespace sc

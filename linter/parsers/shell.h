// SPDX-License-Identifier: Apache-2.0
// Shell layer: bash scripts, Slurm batch files, Dockerfile RUN/CMD bodies and
// notebook `!cmd` lines become Command facts (tree-sitter-bash).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// Suffixes of a committed template of a settings file (`cluster.env.example`), which a script
// copies into place before sourcing it: the template stands for the file.
inline constexpr const char* kSettingsTemplateSuffixes[] = {".example", ".sample", ".template", ".dist"};
// The folder a script's own-location idiom names, relative to the script: "." for
// `"$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"` or `$(dirname "$(readlink -f "$0")")`, ".."
// for `"$(dirname "$0")/.."`; nullopt for any other value.
std::optional<std::string> script_dir(std::string_view raw_value);

// The name without such a suffix (`cluster.env.example` -> `cluster.env`), else unchanged.
std::string without_template_suffix(std::string name);

// Parse `src` as bash and append to `out`:
//  - every simple command (in lists, pipelines, subshells, if/for/while/case,
//    functions, command substitutions, and `bash -c '...'` bodies) to out.commands,
//  - variable assignments (`X=1`, `export X=1`, `declare X=1`) to out.env, which
//    also feed the expansion of later words in the same script,
//  - `#SBATCH` directives (before the first command, as Slurm reads them) to
//    out.sbatch, with argv[0] == "#SBATCH".
// `vars` are the variables known before the script starts (Dockerfile ARG/ENV).
// Syntax errors add a warning to `diag`; whatever the tree holds is still used.
void parse_shell(const SourceFile& src, const std::map<std::string, std::string>& vars, int stage,
                 CommandContext context, FileFacts& out, ParseDiag& diag);

// What a file that a script sources (`source models.conf`, `. ./env.sh`) leaves behind once it
// has run: each variable's value, the words it splits into where they are written (a bash
// array's elements too), and where it was last assigned.
struct ShellValue {
  std::string text;
  bool resolved = true;
  Location loc;
};
struct ShellEnv {
  std::map<std::string, std::string> vars;                      // known values
  std::map<std::string, std::vector<ShellValue>> words;         // values of 2+ words
  std::map<std::string, Location> written;                      // every variable it sets
  std::string path;                                             // the sourced file's display path
};
// The sourced files a script names, by the path word's text as written there.
using SourcedFiles = std::map<std::string, ShellEnv>;
// Runs `src` as a sourced file (its own `source` lines are not followed).
ShellEnv shell_env(const SourceFile& src);
// A dotenv file or its template (`.env`, `.env.local`, `presets/x.env`, `.env.example`).
bool dotenv_name(const std::string& path);
// parse_shell where `source X` / `. X` of a file in `sourced` sets its variables from there on;
// a word that reads one records an Expansion naming the assignment.
void parse_shell(const SourceFile& src, const std::map<std::string, std::string>& vars, int stage,
                 CommandContext context, FileFacts& out, ParseDiag& diag, const SourcedFiles* sourced);

// Expand one shell word as written (quote removal, $X / ${X} / ${X:-default}).
// `resolved` is false when it depends on an unknown variable or a command
// substitution; the unresolved pieces stay in the text as written.
struct Expanded {
  std::string text;
  bool resolved = true;
};
// Words (raw and expanded) are cut at this size, marked unresolved: nested $(...)
// and `X=$X$X` doubling cannot grow memory without bound.
constexpr size_t kMaxWordBytes = 16384;
Expanded expand_word(std::string_view raw, const std::map<std::string, std::string>& vars,
                     const std::map<std::string, std::string>* partial = nullptr);

// True when the `#!` line of `head` names sh, bash, zsh, dash or ksh.
bool shell_shebang(std::string_view head);
// The interpreter named by a `#!` line ("bash", "python3"), empty without one.
std::string shebang_interpreter(std::string_view head);

}  // namespace sc

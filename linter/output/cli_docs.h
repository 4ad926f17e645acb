// SPDX-License-Identifier: Apache-2.0
// Shell completions and the man page, rendered from the same command
// definitions as `--help` (linter/cli/main.cpp reads them off CLI11).
#pragma once
#include <string>
#include <vector>

namespace sc {

struct CliOption {
  std::vector<std::string> names;    // "--format", "-f"
  std::string help;
  bool takes_value = false;
  std::vector<std::string> choices;  // empty: any value (completed as a file name)
};

struct CliCommand {
  std::string name, help;
  std::vector<CliOption> options;
  std::vector<std::string> words;  // what its positional arguments take; empty: file names
};

struct CliSpec {
  std::string program, description, footer, version;
  std::vector<CliOption> options;  // before the subcommand (--help, --version)
  std::vector<CliCommand> commands;
};

// Completion script for "bash", "zsh" or "fish"; empty for any other shell.
std::string completion_script(const CliSpec& spec, const std::string& shell);
// sparkcheck(1) in man(7) markup.
std::string man_page(const CliSpec& spec);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// The one git configuration value the walk needs, core.excludesFile, read
// from the repository's own config file (no git process). See docs/gitignore.md.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace sc {

// The last value of `section.key` in git config text (names case-insensitive;
// quotes, escapes and comments as git reads them; subsections and includes are
// not followed). nullopt when the key is not set.
std::optional<std::string> git_config_value(std::string_view text, std::string_view section, std::string_view key);

// The global ignore file that applies to the repository at `top`: its config's
// core.excludesFile ("~/" expanded, relative paths from `top`), else git's
// default $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore). "" when none
// or when `top` holds no `.git`.
std::string excludes_file(const std::string& top);

}  // namespace sc

// SPDX-License-Identifier: Apache-2.0
// Project configuration: `.sparkcheck.yaml` / `.sparkcheck.yml`, or
// `[tool.sparkcheck]` in pyproject.toml, found from the linted path upwards;
// `--config FILE` names one explicitly. Every value remembers where it came from.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "engine/engine.h"

namespace sc {

struct Origin {
  std::string file;  // config file; empty: default or command line
  int line = 0;
  std::string flag;  // command-line flag, e.g. "--fail-on"
  std::string str() const;  // "default" | "FILE:LINE" | "command line (--fail-on)"
  static Origin cli(std::string f) { return {"", 0, std::move(f)}; }
};

template <class T> struct Setting {
  T value{};
  Origin from;
};

struct PerFileIgnoreSetting {
  std::string glob;
  std::vector<std::string> rules;
  Origin from;
};

struct Config {
  std::string file;      // absolute path of the config file read; empty: none
  std::string base_dir;  // globs and the baseline path are relative to this (config dir, else cwd)
  Setting<std::vector<std::string>> select, ignore, exclude;
  std::map<std::string, Setting<Level>> severity;
  std::vector<PerFileIgnoreSetting> per_file_ignores;
  Setting<std::string> fail_on{"note", {}};  // error | warning | note | none
  Setting<std::string> baseline;             // absolute path once loaded; empty: none
  Setting<bool> allow_reasonless_suppressions{false, {}};
  Setting<bool> inline_ignore{true, {}};
  Setting<bool> respect_gitignore{true, {}};
  Setting<double> max_file_size{10, {}};  // MB
  Setting<int> sparks{2, {}};              // target: {sparks: N}: DGX Sparks in the cluster (G10)
  Setting<bool> include_tests{false, {}};  // judge library test code (tests/, test_*.py) too
  Setting<std::string> cache_dir;          // facts cache directory (absolute once loaded); empty: default
  // One line each for standard error: settings of a discovered file that were not applied.
  std::vector<std::string> warnings;
};

// A configuration problem: the message already names the file and line.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The valid top-level keys, in documentation order.
const std::vector<std::string>& config_keys();

// Looks for a configuration in the directory of `start` (a file or directory)
// and its parents. Returns the absolute path, or "" when there is none.
// Stops at the repository root (the directory with .git) or $HOME, whichever is nearer.
std::string find_config(const std::string& start);
// A --max-file-size / max-file-size value: finite, above 0, at most kMaxMegabytes.
constexpr double kMaxMegabytes = 1e6;
bool parse_megabytes(const std::string& text, double& mb);
// A --sparks / target.sparks value: a whole number from 1 to kMaxSparks.
constexpr int kMaxSparks = 4096;
bool parse_sparks(const std::string& text, int& n);

// Reads a configuration file (YAML, or pyproject.toml / *.toml with
// [tool.sparkcheck]). Throws ConfigError on any unknown key or bad value.
// `discovered`: the file was found by find_config, so it belongs to the repository
// being linted, not to the user: its `cache-dir` is ignored (a warning) and its
// `baseline` is an error unless either resolves (symbolic links followed) inside
// the file's directory.
Config load_config(const std::string& file, bool discovered = false);
// Same, from text (for tests); `file` names it in messages and decides the syntax.
Config parse_config(const std::string& text, const std::string& file, bool discovered = false);

// Copies the configuration into lint options (select, ignore, severity, ...).
void apply_config(const Config& c, LintOptions& opt);

// `sparkcheck config`: the effective configuration and each value's origin.
std::string render_config_text(const Config& c);
std::string render_config_json(const Config& c);

// Threshold check used for the exit code: does a finding at `l` fail the run?
bool fails(const std::string& fail_on, Level l);

// Levenshtein distance, for "did you mean" (config keys, command-line names).
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace sc

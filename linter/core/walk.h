// Finding the files to lint: recursive walk, skip lists, symlink-loop safety,
// .gitignore through git itself (`git check-ignore`).
#pragma once
#include <string>
#include <vector>

#include "core/diagnostics.h"

namespace sc {

struct WalkedFile {
  std::string abs;      // absolute path as reached
  std::string display;  // relative to the lint root, '/'-separated
  bool explicit_arg = false;  // named on the command line (not found by walking)
};

struct WalkOptions {
  std::vector<std::string> paths;
  std::string root;                   // absolute
  bool no_ignore = false;
  std::vector<std::string> exclude;   // globs on display paths
};

struct WalkResult {
  std::vector<WalkedFile> files;
  std::vector<Notification> notes;
  bool complete = true;  // false when a named path does not exist
};

WalkResult walk(const WalkOptions& opt);
// Display path of `abs` relative to `root` ('/'-separated; absolute if outside).
std::string display_path(const std::string& abs, const std::string& root);
// Directory names never descended into (VCS, virtualenvs, caches, build outputs).
bool skipped_dir_name(const std::string& name);
// Glob match used by --exclude / per-file-ignores: '*' '?' '[...]', '**' spans dirs;
// a pattern without '/' matches the base name or any path suffix.
bool glob_match(const std::string& pattern, const std::string& path);

// Runs a program (no shell) with stdin from a file (or /dev/null), captures stdout.
// Returns the exit status, or -1 if it could not be started.
int run_capture(const std::vector<std::string>& argv, const std::string& stdin_file,
                std::string& out, const std::string& cwd = "");

}  // namespace sc

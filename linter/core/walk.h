// SPDX-License-Identifier: Apache-2.0
// Finding the files to lint: recursive walk, skip lists; symbolic links are
// not followed unless asked (and then only those whose target stays inside the
// linted directories); only regular files are listed; ignore files are read
// directly (core/gitignore.h, docs/gitignore.md): no git process.
#pragma once
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/source.h"

namespace sc {

// Paths interned at walk time: the parsed file (ParsedFile::abs_path, its source's path) and
// the run's list of linted files share these strings instead of copying them.
struct WalkedFile {
  PathRef abs;      // absolute path as reached
  PathRef display;  // relative to the lint root, '/'-separated
  bool explicit_arg = false;  // named on the command line (not found by walking)
  // The status the walk took (stat for a named file or a followed link, else lstat);
  // size < 0 when unknown or not a regular file.
  int64_t dev = 0, ino = 0, size = -1, ctime_ns = 0;
};

struct WalkOptions {
  std::vector<std::string> paths;
  std::string root;                   // absolute
  bool no_ignore = false;
  std::vector<std::string> exclude;   // globs on display paths
  bool follow_symlinks = false;       // follow links whose real target is inside a walked directory
  // A directory below a walked one that holds `.git` is not entered but listed in
  // WalkResult::repositories (a run over repositories side by side walks each in turn).
  bool stop_at_repositories = false;
  // The directories a link may point into and count as linted (not noted; followed with
  // follow_symlinks); empty: `paths`. A repository's own walk gets the run's paths.
  std::vector<std::string> link_roots;
};

struct WalkResult {
  std::vector<WalkedFile> files;
  std::vector<Notification> notes;
  bool complete = true;  // false when a named path does not exist
  std::vector<std::string> repositories;  // absolute, in walk order (stop_at_repositories)
};

WalkResult walk(const WalkOptions& opt);
// Display path of `abs` relative to `root` ('/'-separated; absolute if outside).
std::string display_path(const std::string& abs, const std::string& root);
// The facts cache's directory in a lint root (engine/facts_cache.h): never walked, never linted.
inline constexpr const char* kCacheDirName = ".sparkcheck_cache";
// True when a path names that directory or lies below it.
bool in_cache_dir(const std::string& abs);
// Directory names never descended into (VCS, virtualenvs, caches, build outputs).
bool skipped_dir_name(const std::string& name);
// Glob match used by --exclude, config exclude and per-file-ignores (core/glob.cpp):
// '*' '?' '[...]' stay within one '/'-separated segment, a '**' segment spans
// directories; a pattern without '/' matches a name at any depth; a match on a
// parent directory covers everything below it.
bool glob_match(const std::string& pattern, const std::string& path);

}  // namespace sc

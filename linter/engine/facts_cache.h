// SPDX-License-Identifier: Apache-2.0
// The on-disk facts cache: a ParseCache kept in one file per (lint root, options that change
// reading and parsing), so that the next `sparkcheck lint` parses only changed files.
// Format (all integers little-endian; strings and lists length-prefixed):
//   header  "SPKFACTS" | u32 format | str tool version | u64 layout
//   payload str root | str options | entry... (in absolute path order)
//   entry   str display | key (CacheEntry::key) | stamp | body: u64 hash | text or size | notes |
//           facts | suppressions | flagged-line memo
//   trailer u64 entries | u64 payload size | u64 checksum (cache_checksum of the payload)
// The trailer comes last so that the file is written as it is made, never held whole.
// A cache written by another version, for another root or options, or that fails any check
// (size, checksum, a count or a range out of bounds, a path that is not the entry's own) is
// ignored as a whole. See docs/cli.md (Facts cache).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/engine.h"

namespace sc {

// The options of a run that change what reading and parsing make of a file.
std::string cache_options_text(const LintOptions& opt);

// The bytes of the cache file an entry was decoded from (CacheEntry::loaded_at, loaded_len),
// for entries saved again unchanged: a view valid until the next call, or an empty one when
// they are no longer at hand (then the entry is encoded anew).
using LoadedBytes = std::function<std::string_view(size_t at, size_t len)>;

// The cache file for the entries of `cache` that belong under `root`, handed to `put` in
// order, a block at a time; entries from buffers, outside the root, or naming another file
// are left out (they are parsed again).
void encode_cache(const ParseCache& cache, const std::string& root, const std::string& options,
                  const std::function<void(std::string_view)>& put, size_t* skipped = nullptr,
                  const LoadedBytes* loaded = nullptr);
// The same, whole in memory.
std::string encode_cache(const ParseCache& cache, const std::string& root, const std::string& options,
                         size_t* skipped = nullptr, const LoadedBytes* loaded = nullptr);
// The bytes every cache file this build writes starts with (magic, format, version, layout):
// a file that starts otherwise is rejected before the rest of it is read.
std::string cache_header();
// The checksum the trailer holds (a 64-bit hash, against damage, not forgery).
uint64_t cache_checksum(std::string_view payload);
// Reads a cache file into `out` (replacing its entries), noting where each entry's body lies
// in `bytes`. False, with `why`, on any inconsistency; `out` is then empty.
bool decode_cache(std::string_view bytes, const std::string& root, const std::string& options, ParseCache& out,
                  std::string& why);

// The folder whose .sparkcheck_cache a run under `root` uses: the top of the git work tree
// holding the linted paths when it is inside the root, else the folder holding them all
// (never the current directory just because the run started there).
std::string cache_home(const LintOptions& opt, const std::string& root);
// The directory for the cache: `dir` when given, else <home>/.sparkcheck_cache when usable,
// else $XDG_CACHE_HOME/sparkcheck (~/.cache/sparkcheck). A missing one counts when it could
// be made; it is made (with a .gitignore of `*` and a CACHEDIR.TAG) only when a cache is
// saved. Not usable: a symbolic link, another user's
// folder, or one holding files git tracks. Empty, with `why`, when none is usable.
std::string cache_dir_for(const std::string& home, const std::string& dir, std::string& why);
// The cache file's path in `dir` for this root and options.
std::string cache_file_in(const std::string& dir, const std::string& root, const std::string& options);

// Reads a cache file without following links; false (with `why`) when it is missing (why
// empty), not a regular file, over the size cap, another user's, or not starting with
// cache_header() (then nothing past the header is read).
bool read_cache_file(const std::string& path, std::string& bytes, std::string& why);
// The entry count a cache file's trailer states, read with the checks of read_cache_file but
// nothing else (untrusted: a number to decide with). 0 when there is no usable cache file.
uint64_t cache_stated_entries(const std::string& path);

// run_lint with the disk cache (LintOptions::disk_cache): load, lint reusing what it holds,
// save when anything changed. `root` is the run's lint root. Fills LintResult::cache.
LintResult lint_with_disk_cache(const LintOptions& opt, const std::string& root);

// SPARKCHECK_NO_CACHE set (to anything but 0): no facts cache, as --no-cache.
bool cache_off_by_env();

// Fills `cache` from the disk cache a CLI run with `opt` under `root` would use, when one
// exists and passes every check; never creates or writes anything (the language server's
// first lint starts warm). Returns the number of entries loaded.
size_t seed_from_disk_cache(const LintOptions& opt, const std::string& root, ParseCache& cache);

constexpr size_t kMaxCacheBytes = 512u << 20;  // a larger cache file is ignored

}  // namespace sc

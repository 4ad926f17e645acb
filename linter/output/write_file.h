// SPDX-License-Identifier: Apache-2.0
// Writing reports without losing them silently: every write, flush and close is
// checked. A file is written to a temporary file beside it and renamed into
// place (a reader never sees half a report; two runs never interleave), and the
// temporary file is removed on SIGINT/SIGTERM. A target that exists and is not
// a regular file (/dev/stdout, a FIFO, /dev/full) is written directly.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace sc {

using Render = std::function<void(std::ostream&)>;

// Renders with `fn` and writes it to `path`, or to standard output when `path`
// is empty, as it is rendered (a file still through a temporary file and rename).
// Returns false with `error` naming the path and the reason.
bool write_report(const std::string& path, const Render& fn, std::string& error);
// A command's report: rendered onto `out` when `path` is empty, else written to the file as
// write_report does; false after printing "COMMAND: why" on `err`.
bool emit_report(const std::string& path, const Render& fn, std::ostream& out, std::ostream& err, const std::string& command);

// --fix: replaces `before` by `after` in the regular file at `path`, unless the file no longer
// holds `before` (the text the lint read; a byte-order mark in front is kept). The file is
// opened without following a link at its name, rewritten through a new temporary file beside
// it (keeping its permission bits) and renamed over it only while the name still holds the
// same file (device, inode): a link or file swapped in meanwhile gives Changed, never a write
// through it.
enum class PatchWrite { Written, Changed, Failed };
PatchWrite write_patch(const std::string& path, const std::string& before, const std::string& after, std::string& error);

// Installs the SIGINT/SIGTERM handlers that remove a temporary file in flight.
void remove_temp_files_on_signals();

// Temporary files other than a report's (which lives beside its target, for the
// rename) are made under $TMPDIR. Registers such a file or empty directory for
// removal on SIGINT/SIGTERM; returns a slot for forget_on_signal, -1 when full.
int remove_on_signal(const std::string& path);
void forget_on_signal(int slot);

// A child process (the leader of its own process group, e.g. the probe's interpreter)
// that SIGINT/SIGTERM are passed on to once remove_temp_files_on_signals is installed:
// the handler signals the group, reaps the child (SIGKILL after a second), then exits.
// 0 forgets it.
void forward_signals_to(int pid);

}  // namespace sc

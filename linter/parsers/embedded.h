// SPDX-License-Identifier: Apache-2.0
// Text embedded in another file (a Markdown code block, a compose `command:`
// string): parsed as a file of its own, then every location moved back onto
// the file that holds it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/registry.h"

namespace sc {

// Where each line of the embedded text sits in the real file: view line i
// (0-based) is real line `lines[i].line`, starting `lines[i].cols` code points in.
struct EmbedMap {
  struct Line { int line = 0; int cols = 0; };
  std::vector<Line> lines;
  // Map line i of `text` onto the real file, given the real line each starts on:
  // the view line is found as a suffix of the real line (the prefix being
  // indentation, a list marker or `> `); when it is not, column 0.
  void add(const SourceFile& real, int real_line, std::string_view view_line);
};

Range embed_range(const EmbedMap& m, Range r);
// Move every location in `f` and `d` through `m`.
void embed_remap(FileFacts& f, ParseDiag& d, const EmbedMap& m);
// Append `from` to `into` (stages of Dockerfile facts shifted by `stage_shift`).
void embed_merge(FileFacts& into, FileFacts&& from, int stage_shift);

// Parse `text` (lines mapped by `m`) with the parser registered for a file named
// `name` ("Dockerfile", "x.yaml"...), remap and merge into `out`. False when no
// parser takes that name.
bool parse_embedded(const SourceFile& real, const std::string& name, std::string text, const EmbedMap& m,
                    FileFacts& out, ParseDiag& diag);

// The lines of a YAML scalar (a compose `command:`, a CI `run:` block): each line of
// `e.value` found in `real` on or after the scalar's first line.
EmbedMap yaml_scalar_map(const SourceFile& real, const ConfigEntry& e);

// An Image fact for a YAML `image:` entry whose value reads `ref` (${TAG:-25.11} takes its
// default); none when the value depends on an unknown variable.
void yaml_image(const ConfigEntry& e, const std::string& ref, FileFacts& out);

// A list-form command (compose `command: [...]`, Kubernetes `command:` + `args:`): no shell
// splits it, so the items are the argv of one Command. Returns the body of `sh -c BODY`, or of
// `[-lc, BODY]` given to an image whose entrypoint is a shell (to be read as a script), or null.
const ConfigEntry* yaml_argv(const std::vector<const ConfigEntry*>& items, CommandContext context,
                             FileFacts& out);

// Parse `text` as a shell script (lines mapped by `m`) with `vars` known, remap and merge
// into `out`; its commands get `context`.
void embed_shell(const SourceFile& real, std::string text, const EmbedMap& m,
                 const std::map<std::string, std::string>& vars, CommandContext context, FileFacts& out,
                 ParseDiag& diag);

}  // namespace sc

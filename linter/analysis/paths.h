// SPDX-License-Identifier: Apache-2.0
// Paths inside images and projects, shared by the analysis links (project.cpp, compose_scripts.cpp).
#pragma once
#include <string>

#include "analysis/project.h"

namespace sc {

// A path written inside a Dockerfile RUN/CMD (container path) -> the project file that a
// COPY/ADD of the stage chain put there (before `before_line` when > 0); with
// `copied_only` false a relative path also resolves in the build context.
const ParsedFile* container_file(const Project& p, const ParsedFile& df, int stage, int before_line,
                                 const std::string& value, bool copied_only = false);
// The script a command runs (`bash FILE`, `source FILE`, `./x.sh`); "" for anything else.
std::string script_of(const Command& c);
// `rel` joined to `dir` and normalised ("a/b" + "../c.sh" -> "a/c.sh").
std::string path_in_dir(const std::string& dir, const std::string& rel);

// The folder part of a path ("a/b/c.sh" -> "a/b"; "c.sh" -> "").
std::string folder_of(const std::string& p);
// The Dockerfile a compose build names, resolved from the compose file's folder.
const ParsedFile* built_dockerfile(const Project& p, const ParsedFile& compose, const BuildSpec& b);

}  // namespace sc

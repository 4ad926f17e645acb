#!/usr/bin/env bash
# Writes the files of a new lint rule: its code and documentation (rules/GN-NAME/), a fixture
# with its expectations (fixtures/GN/) and a unit test (tests/unit/test_GN.cpp). The rule
# they hold builds and passes as written (it flags a Dockerfile base image without a fixed
# tag): replace its check with yours, then its fixture, test and documentation.
#   scripts/new-rule.sh GN NAME [--root DIR]
# NAME: lower case words joined by '-' (latest-image-tag). --root writes below DIR instead of
# the source tree (the scaffold test does). Then: cmake --build build (the globs pick the files
# up), build/fixture_harness fixtures/GN, scripts/gen-docs.sh.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
usage() { echo "usage: scripts/new-rule.sh GN NAME [--root DIR]" >&2; exit 2; }
[ $# -ge 2 ] || usage
id="$1" name="$2" root="$src"
shift 2
if [ $# -gt 0 ]; then
  [ "$1" = "--root" ] && [ $# -eq 2 ] || usage
  root="$2"
fi
[[ "$id" =~ ^G[1-9][0-9]*$ ]] || { echo "new-rule: the id is G and a number (G11), not '$id'" >&2; exit 2; }
[[ "$name" =~ ^[a-z0-9]+(-[a-z0-9]+)*$ ]] || { echo "new-rule: the name is lower-case words joined by '-', not '$name'" >&2; exit 2; }
for d in "$root"/rules/"$id"-*; do
  [ -e "$d" ] && { echo "new-rule: $id exists already: $d" >&2; exit 1; }
done

dir="$root/rules/$id-$name"
mkdir -p "$dir" "$root/fixtures/$id" "$root/tests/unit"

cat > "$dir/$id.cpp" <<EOF
// SPDX-License-Identifier: Apache-2.0
// $id (lint): $name. A Dockerfile base image without a fixed tag (none, or \`latest\`)
// changes under the project: the next build can bring another CUDA or PyTorch.
// Sub-checks: untagged_images.
#include <string>

#include "core/registry.h"
#include "query/finding.h"
#include "query/project.h"

namespace sc {
namespace {

// "ubuntu", "ubuntu:latest": no fixed tag. A digest (@sha256:...) is fixed; a reference
// with a \`\$VAR\` no ARG sets is unknown (empty, or still holding the \`\$\`); \`scratch\` is no image.
bool untagged(const std::string& ref) {
  if (ref.empty() || ref == "scratch") return false;
  if (ref.find('\$') != std::string::npos || ref.find('@') != std::string::npos) return false;
  size_t slash = ref.rfind('/');
  size_t colon = ref.find(':', slash == std::string::npos ? 0 : slash);
  return colon == std::string::npos || ref.substr(colon + 1) == "latest";
}

void untagged_images(const ParsedFile& f, Reporter& out) {
  for (const Image& im : f.facts->images)
    if (!im.from_stage && untagged(im.ref))
      out.report(query::finding(Level::Warning, im.loc, "base image \`" + im.ref + "\` has no fixed tag",
                                "pin a tag such as nvcr.io/nvidia/pytorch:25.11-py3"));
}

class $id : public Rule {
 public:
  std::string_view id() const override { return "$id"; }
  void check(const Project& p, Reporter& out) const override {
    for (const auto& f : p.files) untagged_images(*f, out);
  }
};

}  // namespace

SPARKCHECK_RULE($id);

}  // namespace sc
EOF

cat > "$dir/$id.md" <<EOF
---
id: $id
name: $name
short: "A Dockerfile base image without a fixed tag"
level: warning
precision: high
tags: [docker, images]
---

A Dockerfile whose base image has no tag (or the tag \`latest\`) builds on whatever the
registry holds that day.

## Why it breaks on a Spark

The next build can bring another CUDA major or PyTorch release than the one the project was
tested with (see G1).

## What it catches

- \`FROM IMAGE\` and \`FROM IMAGE:latest\`, not a digest, a \`\$VAR\` still unresolved or \`scratch\`.

## Example

\`\`\`dockerfile
FROM nvcr.io/nvidia/pytorch:latest
\`\`\`

## Fix

Pin a tag, such as \`nvcr.io/nvidia/pytorch:25.11-py3\`.

## Sources

- Docker reference, FROM: https://docs.docker.com/reference/dockerfile/#from
EOF

cat > "$root/fixtures/$id/untagged-image.Dockerfile" <<EOF
# expect: $id
FROM ubuntu
# expect: $id
FROM nvcr.io/nvidia/pytorch:latest AS base
# ok: $id
FROM nvcr.io/nvidia/pytorch:25.11-py3
# ok: $id
FROM base
EOF

cat > "$root/tests/unit/test_$id.cpp" <<EOF
// SPDX-License-Identifier: Apache-2.0
// $id sub-checks, one test each.
#include "launch_rules.h"

using namespace sc;

TEST_CASE("$id untagged_images: no tag or latest; a tag, a digest or a variable is fixed", "[$id]") {
  auto r = test::run_rule("$id", {{"Dockerfile",
                                  "FROM ubuntu\\n"
                                  "FROM ubuntu:latest\\n"
                                  "FROM ubuntu:24.04\\n"
                                  "FROM ubuntu@sha256:0123\\n"
                                  "FROM \$BASE\\n"}});
  CHECK(r.lines() == std::vector<int>{1, 2});
}
EOF

rel() { echo "${1#"$root"/}"; }
echo "new-rule: wrote $(rel "$dir/$id.cpp"), $(rel "$dir/$id.md"), $(rel "$root/fixtures/$id/untagged-image.Dockerfile"), $(rel "$root/tests/unit/test_$id.cpp")"

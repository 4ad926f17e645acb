#!/usr/bin/env bash
# cmake/version.cmake: the version comes from the vX.Y.Z tag (git describe), plus
# the commit off a tag, else the project version; the built binary prints it.
. "$(dirname "$0")/lib.bash"
command -v git >/dev/null || { echo "SKIP: git missing"; exit 77; }
VC="$SC_SOURCE_DIR/cmake/version.cmake"
ver() { (cd "$1" && cmake -DPROJECT_VERSION=9.9.9 -P "$VC" 2>&1 | sed -n 's/^-- sparkcheck version: //p'); }
R="$TMP/repo"; mkdir -p "$R"
check "not a checkout: the project version" [ "$(ver "$R")" = 9.9.9 ]
g() { git -C "$R" -c user.name=t -c user.email=t@t "$@" >/dev/null 2>&1; }
g init -q; echo a > "$R/a"; g add a; g commit -qm one
c1="$(git -C "$R" rev-parse --short=9 HEAD)"
check "checkout without a tag: version+gCOMMIT" [ "$(ver "$R")" = "9.9.9+g$c1" ]
g tag v1.2.3
check "on tag v1.2.3: 1.2.3" [ "$(ver "$R")" = 1.2.3 ]
echo b > "$R/a"; g commit -qam two
c2="$(git -C "$R" rev-parse --short=9 HEAD)"
check "one commit after the tag: 1.2.3+1.gCOMMIT" [ "$(ver "$R")" = "1.2.3+1.g$c2" ]
g tag other-tag
check "tags not named vX.Y.Z are ignored" [ "$(ver "$R")" = "1.2.3+1.g$c2" ]
out="$("$SPARKCHECK" --version)"
proj="$(sed -n 's/^project(sparkcheck VERSION \([0-9.]*\).*/\1/p' "$SC_SOURCE_DIR/CMakeLists.txt")"
check "binary prints 'sparkcheck VERSION' ($out)" grep -Eq "^sparkcheck [0-9]+\.[0-9]+\.[0-9]+" <<<"$out"
if ! git -C "$SC_SOURCE_DIR" describe --tags --match 'v[0-9]*' >/dev/null 2>&1; then
  check "untagged checkout: built version starts with $proj" grep -q "^sparkcheck $proj" <<<"$out"
fi
check "CHANGELOG.md has a section for $proj" grep -q "^## \[$proj\]" "$SC_SOURCE_DIR/CHANGELOG.md"
finish

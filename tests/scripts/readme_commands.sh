#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The commands README.md, docs/install.md and docs/building.md show, run where they can run here: every sparkcheck
# command on a copy of the example project, the install step from a preset build, the scripts
# and presets they name. A command this test does not know how to check fails it, so a new
# documented command must be classified here. Also: every relative link of README.md and
# docs/*.md names a file (and heading) that exists.
. "$(dirname "$0")/lib.bash"
cd "$SC_SOURCE_DIR" || exit 1

# the shell lines of the ```sh blocks, comments and continuation joins removed
commands() {
  python3 - "$@" <<'EOF'
import re, sys
for path in sys.argv[1:]:
    block = False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("```"):
            block = (not block) and line[3:].strip() in ("sh", "bash", "console")
            continue
        if block:
            code = re.sub(r"\s+#\s.*$", "", line).strip()
            if code and not code.startswith("#"):
                print(f"{path}\t{code}")
EOF
}

cp -r examples/spark-finetune "$TMP/project"
mkdir -p "$TMP/home/.local/bin"
presets="$(cmake --list-presets 2>/dev/null)"

# run CMD (a sparkcheck command line) in the project copy; rc 0 or 1 is a run that worked
run_sparkcheck() {
  local cmd="$1" rc
  cmd="${cmd#build/}"; cmd="${cmd#sparkcheck}"
  (cd "$TMP/project" && eval "\"\$SPARKCHECK\" $cmd" </dev/null >"$TMP/out" 2>&1); rc=$?
  [ "$rc" -le 1 ] || { echo "  rc $rc: $(head -c 400 "$TMP/out")"; return 1; }
}

check_command() {
  local file="$1" cmd="$2" part
  case "$cmd" in
    build/sparkcheck\ *|sparkcheck\ *)
      check "$file: $cmd" run_sparkcheck "$cmd" ;;
    "install -m 755 build-release/sparkcheck ~/.local/bin/sparkcheck")
      check "$file: $cmd (this build's binary)" install -m 755 "$SPARKCHECK" "$TMP/home/.local/bin/sparkcheck" ;;
    cmake\ --preset\ *)
      for part in $(echo "$cmd" | grep -oE -- '--preset [a-z0-9-]+' | cut -d' ' -f2 | sort -u); do
        check "$file: preset '$part' exists" grep -q "\"$part\"" <<<"$presets"
      done ;;
    "cmake -S . -B build && cmake --build build")
      check "$file: $cmd (the build this test runs from)" test -x "${SC_BUILD_DIR:?}/sparkcheck" ;;
    "ctest --test-dir build --output-on-failure")
      check "$file: $cmd (this suite)" test -f "${SC_BUILD_DIR:?}/CTestTestfile.cmake" ;;
    ctest\ --preset\ *)
      check "$file: $cmd (test preset)" grep -q '"testPresets"' CMakePresets.json ;;
    scripts/*|.ci/*)
      part="${cmd%% *}"
      check "$file: $part exists and is executable" test -x "$part" ;;
    *)
      fail "$file: no check for the documented command '$cmd' (classify it in $(basename "$0"))" ;;
  esac
}

while IFS=$'\t' read -r file cmd; do
  check_command "$file" "$cmd"
done < <(commands README.md docs/install.md docs/building.md)
check "the installed binary runs from PATH" env PATH="$TMP/home/.local/bin:$PATH" sparkcheck --version
check "README's two commands come first" bash -c \
  'grep -m2 -oE "^scripts/run-[a-z]+\.sh" README.md | tr "\n" " " | grep -qx "scripts/run-example.sh scripts/run-tests.sh "'

# relative links: the file exists; an anchor names a heading of it (GitHub's slug)
links() {
  python3 - <<'EOF'
import os, re, glob
def slug(h):
    h = re.sub(r"[`*_]", "", h.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", h))
def anchors(path):
    return {slug(l.lstrip("#")) for l in open(path, encoding="utf-8") if l.startswith("#")}
for page in ["README.md"] + sorted(glob.glob("docs/*.md")):
    text = re.sub(r"```.*?```", "", open(page, encoding="utf-8").read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(path):
            print(f"{page}: link to missing {target}")
        elif anchor and path.endswith(".md") and anchor not in anchors(path):
            print(f"{page}: link to missing heading {target}")
EOF
}
bad="$(links)"
check "README and docs/ links resolve" test -z "$bad"
[ -z "$bad" ] || echo "$bad"
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The walk's ignore rules against git's own: random trees with .gitignore files
# (directory, negated, anchored, ** and nested patterns) and some ignored files
# tracked anyway (git add -f). What `sparkcheck lint --show-files` lists must be
# exactly what `git ls-files --cached --others --exclude-standard` lists. git runs
# only here, in the test; sparkcheck reads .git/index itself.
. "$(dirname "$0")/lib.bash"
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
export HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e
mkdir -p "$HOME"
trees=${GITIGNORE_TREES:-40}
bad=0
for seed in $(seq 1 "$trees"); do
  T="$TMP/t$seed"
  python3 - "$T" "$seed" <<'PY'
import os, random, sys
root, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
dirs = ["", "build", "src", "src/build", "docs", "a", "a/b", "a/b/c", "gen", "deep/gen", "out"]
names = ["requirements.txt", "Dockerfile", "train.py", "run.sh", "keep.py", "x.sh", "README.md"]
patterns = ["build/", "build", "/build/", "*.py", "!keep.py", "a/**/c", "a/**/*.sh", "/out", "gen/",
            "**/gen", "docs/*.md", "!docs/README.md", "src/", "!src/build/", "*.sh", "!run.sh", "a/b/",
            "\\#x", "Dockerfile", "/a/b/c/", "deep/"]
files = []
for d in dirs:
    for n in rnd.sample(names, rnd.randint(1, 4)):
        files.append(os.path.join(d, n))
for f in files:
    os.makedirs(os.path.join(root, os.path.dirname(f)), exist_ok=True)
    open(os.path.join(root, f), "w").write("torch==2.5.1\n" if f.endswith(".txt") else "echo\n")
for d in rnd.sample(dirs, 3):
    os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, d, ".gitignore"), "w") as g:
        g.write("\n".join(rnd.sample(patterns, rnd.randint(1, 5))) + "\n")
with open(os.path.join(root, "forced.txt"), "w") as g:  # ignored files git tracks anyway
    g.write("\n".join(rnd.sample(files, 3)) + "\n")
PY
  (cd "$T" && git init -q && git add -A && xargs git add -f -- < forced.txt && rm forced.txt) >/dev/null 2>&1
  want="$(cd "$T" && git ls-files --cached --others --exclude-standard | grep -v '\.gitignore$' | grep -v '^forced.txt$' | sort)"
  got="$(cd "$T" && "$SPARKCHECK" lint --no-config --show-files . 2>/dev/null | sort)"
  if [ "$want" != "$got" ]; then
    bad=$((bad + 1))
    [ "$bad" -le 3 ] && { echo "tree $seed differs (< git, > sparkcheck):"; diff <(echo "$want") <(echo "$got") | head -10; }
  fi
done
check "the walk lists what git lists, in $trees random trees" [ "$bad" -eq 0 ]
finish

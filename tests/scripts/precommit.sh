#!/usr/bin/env bash
# The hooks in .pre-commit-hooks.yaml, run by Debian's real pre-commit against a
# scratch git repository: a bad file fails the commit and shows the finding, a
# suppressed one and a clean one pass. The hook repository is a local git repo
# with this checkout's manifest and hook package, and no wheel exists on any
# index (PIP_NO_INDEX): the `sparkcheck` hook installs anyway and builds the
# hook's checkout on its first run (cmake is a stand-in that links the binary
# under test, so the test takes seconds); `sparkcheck-project` lists the wheel
# of the same commit in additional_dependencies (from a local folder) and runs it.
. "$(dirname "$0")/lib.bash"
if [ -n "${SC_EMULATOR:-}" ]; then
  echo "SKIP: cross build: the hook's wheel would carry the aarch64 binary, which pip will not install"
  echo "      on this host and pre-commit cannot exec without binfmt_misc; the native suite runs this test,"
  echo "      scripts/arm64-test.sh installs the aarch64 wheel and runs it under qemu"
  exit 77
fi
command -v pre-commit >/dev/null || { echo "SKIP: pre-commit not installed (scripts/setup.sh --test)"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
export HOME="$TMP/home" PRE_COMMIT_HOME="$TMP/pre-commit-home" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global protocol.file.allow always

# the hook repository: manifest, the pip-installable hook entry (setup.py,
# python/), and the `sparkcheck` wheel it depends on, served from a local
# directory (PIP_NO_INDEX: no network; Debian's setuptools/wheel for the build)
H="$TMP/hooks"
mkdir -p "$H/python"
cp "$SC_SOURCE_DIR/.pre-commit-hooks.yaml" "$SC_SOURCE_DIR/setup.py" "$SC_SOURCE_DIR/CMakeLists.txt" "$H/"
cp -r "$SC_SOURCE_DIR/python/sparkcheck_hook" "$H/python/"
(cd "$H" && git init -q && git add -A && git commit -qm hooks) || { fail "hook repo"; finish; exit 1; }
rev="$(git -C "$H" rev-parse HEAD)"
version="$(sed -n 's/^project(sparkcheck VERSION \([0-9.]*\).*/\1/p' "$SC_SOURCE_DIR/CMakeLists.txt")"
whl="$(SPARKCHECK_COMMIT="$rev" "$SC_SOURCE_DIR/scripts/wheel.sh" "$SPARKCHECK" "$version+test" "$TMP/wheels" 2>&1)"
check "wheel built ($(basename "$whl"))" [ -f "$whl" ] || echo "$whl"
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$TMP/wheels /usr/share/python-wheels" PIP_DISABLE_PIP_VERSION_CHECK=1

# `sparkcheck-system` finds the binary on PATH; the stand-in cmake "builds" by linking it
mkdir -p "$TMP/bin"
ln -s "$SPARKCHECK" "$TMP/bin/sparkcheck"
cat > "$TMP/bin/cmake" <<SH
#!/usr/bin/env bash
echo "\$*" >> "$TMP/cmake-calls"
if [ "\$1" = --build ]; then echo "[100%] Linking CXX executable sparkcheck"; ln -sf "$SPARKCHECK" "\$2/sparkcheck"; fi
SH
chmod +x "$TMP/bin/cmake"
export PATH="$TMP/bin:$PATH"
unset SPARKCHECK

U="$TMP/user"
mkdir -p "$U"
cd "$U" || exit 1
git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $H
    rev: $rev
    hooks:
      - id: sparkcheck
      - id: sparkcheck-project
        additional_dependencies: ["sparkcheck==$version+test"]
      - id: sparkcheck-system
YAML
git add .pre-commit-config.yaml && git commit -qm "pre-commit config" --no-verify
pre-commit install >/dev/null 2>&1; rc=$?
check "pre-commit install" [ "$rc" -eq 0 ]
# cold cache: pre-commit clones the hook repository and pip-installs it; no wheel is needed
t0=$(date +%s.%N)
out="$(pre-commit install-hooks 2>&1)"; rc=$?
t1=$(date +%s.%N)
check "hooks install from a cold cache with no wheel on any index" [ "$rc" -eq 0 ] || echo "$out"
echo "note: cold-cache install-hooks took $(python3 -c "print(round($t1-$t0,1))" ) s"
check "the listed wheel put sparkcheck into one hook environment" [ "$(ls "$PRE_COMMIT_HOME"/repo*/py_env-*/bin/sparkcheck 2>/dev/null | wc -l)" -eq 1 ]
check "the hook package's version carries the commit" bash -c 'ls -d "$1"/repo*/py_env-*/lib/python3*/site-packages/sparkcheck_pre_commit-"$2"+g"${3:0:12}"*.dist-info >/dev/null 2>&1' _ "$PRE_COMMIT_HOME" "$version" "$rev"
check "nothing was built yet" [ ! -e "$TMP/cmake-calls" ]

# 1. a bad file fails the commit, with the finding in the output
cat > accelerate.yaml <<'YAML'
num_machines: 2
parallelism_config:
  parallelism_config_tp_size: 2
YAML
git add accelerate.yaml
out="$(git commit -m bad 2>&1)"; rc=$?
check "bad file: commit fails" [ "$rc" -ne 0 ]
check "bad file: the finding is shown (path:line:col: level: [G10])" grep -Eq 'accelerate\.yaml:3:[0-9]+: error: \[G10\]' <<<"$out"
check "bad file: each hook reported Failed" [ "$(grep -c 'Failed' <<<"$out")" -ge 3 ]
check "bad file: nothing committed" bash -c '! git log --format=%s | grep -qx bad'
check "first run: the wheel-less hook built its checkout once" [ "$(grep -c -- --build "$TMP/cmake-calls" 2>/dev/null)" -eq 1 ]
check "first run: the build line was shown" grep -q 'building sparkcheck, first run only' <<<"$out"
[ "$rc" -ne 0 ] || echo "$out"

# 2. the same finding, suppressed with a reason, passes
cat > accelerate.yaml <<'YAML'
num_machines: 2
parallelism_config:
  # sparkcheck: ignore[G10] -- benchmark of the ConnectX-7 link itself, TP=2 on purpose
  parallelism_config_tp_size: 2
YAML
git add accelerate.yaml
out="$(git commit -m suppressed 2>&1)"; rc=$?
check "suppressed file: commit passes" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || echo "$out"

# 3. a suppression without a reason is refused (exit 2 from sparkcheck)
printf 'num_machines: 2\nparallelism_config:\n  parallelism_config_tp_size: 2  # sparkcheck: ignore[G10]\n' > accelerate.yaml
git add accelerate.yaml
out="$(git commit -m reasonless 2>&1)"; rc=$?
check "reasonless suppression: commit fails" [ "$rc" -ne 0 ]
check "reasonless suppression: the error names file and line" grep -q 'accelerate.yaml:3:[0-9]*: error: \[suppression-missing-reason\]' <<<"$out"
git reset -q --hard HEAD

# 4. a clean file passes
printf 'import torch\nprint(torch.cuda.is_available())\n' > train.py
git add train.py
out="$(git commit -m clean 2>&1)"; rc=$?
check "clean file: commit passes" [ "$rc" -eq 0 ]
check "clean file: hooks ran (Passed)" grep -q 'Passed' <<<"$out"
check "later runs built nothing more" [ "$(grep -c -- --build "$TMP/cmake-calls")" -eq 1 ]
[ "$rc" -eq 0 ] || echo "$out"
finish

#!/usr/bin/env bash
# One command: install what is missing, build, and lint the bundled example project.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
echo "+ build/sparkcheck lint examples/spark-finetune"
rc=0
build/sparkcheck lint examples/spark-finetune || rc=$?
echo "(exit code $rc: 0 = clean, 1 = findings, 2 = error)"
[ "$rc" -le 1 ]

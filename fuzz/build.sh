#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (+ASan/UBSan) and runs each for a
# bounded time. See fuzz/README.md.
#   fuzz/build.sh [SECONDS [TARGET...]]   default: 60 s each, all targets
#   FUZZ_PARALLEL=2 runs two targets at a time; FUZZ_BUILD_ONLY=1 only builds;
#   FUZZ_ARGS adds libFuzzer options (e.g. '-len_control=0 -max_len=1048576': long inputs,
#   up to 1 MB, from the start; a -max_len there replaces the default 65536).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-60}"
shift || true
TARGETS=(parsers config baseline project cache git_index git_config gitignore server fix probe cli cluster)
[ $# -eq 0 ] || TARGETS=("$@")
command -v clang++ >/dev/null || { echo "needs clang (apt-get install clang libclang-rt-14-dev)"; exit 2; }
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSPARKCHECK_FUZZ=ON \
      -DSPARKCHECK_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${TARGETS[@]/#/fuzz_}"
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0

export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# Runs one target: new corpus entries go to build-fuzz/corpus/T (the committed
# seeds in fuzz/corpus/T are only read), crashes to build-fuzz/artifacts/.
run_one() {
  local t=$1 dict=fuzz/parsers.dict
  [ -f "fuzz/$t.dict" ] && dict="fuzz/$t.dict"
  mkdir -p "build-fuzz/corpus/$t" build-fuzz/artifacts
  local rc=0 max_len=-max_len=65536
  [[ "${FUZZ_ARGS:-}" != *-max_len=* ]] || max_len=
  nice -n 19 "build-fuzz/fuzz_$t" -max_total_time="$SECS" $max_len -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 ${FUZZ_ARGS:-} -dict="$dict" -artifact_prefix="build-fuzz/artifacts/$t-" \
    "build-fuzz/corpus/$t" "fuzz/corpus/$t" >"build-fuzz/$t.log" 2>&1 || rc=$?
  echo "fuzz_$t: exit $rc; $(grep -E '^#[0-9]+' "build-fuzz/$t.log" | tail -1)"
  return $rc
}

fails=0
running=0
for t in "${TARGETS[@]}"; do
  run_one "$t" & running=$((running + 1))
  if [ "$running" -ge "${FUZZ_PARALLEL:-1}" ]; then wait -n || fails=$((fails + 1)); running=$((running - 1)); fi
done
while [ "$running" -gt 0 ]; do wait -n || fails=$((fails + 1)); running=$((running - 1)); done
[ "$fails" = 0 ] || { echo "$fails target(s) found a problem: see build-fuzz/*.log and build-fuzz/artifacts/"; exit 1; }

#!/usr/bin/env bash
# Builds the libFuzzer target with clang (+ASan/UBSan) and runs it for a bounded
# time per input kind. Usage: fuzz/build.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-60}"
command -v clang++ >/dev/null || { echo "needs clang (apt-get install clang libclang-rt-14-dev)"; exit 2; }
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSPARKCHECK_FUZZ=ON \
      -DSPARKCHECK_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target fuzz_parsers -j"$(nproc)"
mkdir -p build-fuzz/corpus
find fixtures -type f -size -200k | while read -r f; do cp "$f" "build-fuzz/corpus/$(echo "$f" | tr / _)"; done
build-fuzz/fuzz_parsers -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 build-fuzz/corpus

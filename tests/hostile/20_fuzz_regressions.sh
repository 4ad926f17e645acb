# Inputs the fuzzers found (fuzz/corpus/*/regress-*), replayed through the CLI.
# fuzz-smoke (.github/workflows/ci.yml) replays them in the clang ASan build too.
SEEDS="$(cd "$(dirname "$0")/../../fuzz/corpus" && pwd)"
. "$(dirname "$0")/lib.bash"

# fuzz_config: a glob with invalid UTF-8 made `sparkcheck config` throw from
# JSON quoting (std::terminate). Now a configuration error naming file and line.
tail -c +2 "$SEEDS/config/regress-non-utf8-glob" > repo/.sparkcheck.yaml
lim config repo --format text
expect_rc 2
has '.sparkcheck.yaml:8:' "$T/err"
has 'not valid UTF-8' "$T/err"
lim lint repo
expect_rc 2
has 'not valid UTF-8' "$T/err"
rm repo/.sparkcheck.yaml

# fuzz_parsers: a 4.7 KB `.b()` call chain overflowed the stack of clang's ASan
# build (its walker depth bound was the unsanitized one). Linted, not crashed.
tail -c +2 "$SEEDS/parsers/regress-python-call-chain" > repo/train.py
SPARKCHECK_NO_PREFILTER=1 lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"

# Temporary files (docs/cli.md): the probe's scratch directory is made under
# $TMPDIR and removed when the probe is stopped with SIGTERM mid-check.
. "$(dirname "$0")/lib.bash"
mkdir -p tmp
printf '#!/bin/sh\nexec sleep 30\n' > slow-python && chmod +x slow-python
TMPDIR="$T/tmp" "$SC" probe G1 --python "$T/slow-python" >/dev/null 2>&1 </dev/null & pid=$!
for _ in $(seq 50); do [ -n "$(ls -A tmp)" ] && break; sleep 0.1; done
ls -A tmp | grep -q '^sparkcheck-probe-' || { kill "$pid"; fail "no scratch directory under \$TMPDIR"; }
kill -TERM "$pid"; wait "$pid"
[ -z "$(ls -A tmp)" ] || fail "scratch directory left after SIGTERM: $(ls -A tmp)"

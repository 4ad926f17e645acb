# Row 22: a folder of thousands of repositories (each linted as its own project, engine/units.h)
# finishes in time, cold and warm; odd `.git` entries (a FIFO, a link to a folder outside, a
# folder nobody can read) mark a repository without being read, and hang nothing.
. "$(dirname "$0")/lib.bash"
mkdir clones outside
python3 - <<'PY'
import os
for i in range(3000):
    os.makedirs("clones/r%d/.git" % i)
    open("clones/r%d/requirements.txt" % i, "w").write("torch==2.9.0\nflash-attn\n")
PY
rm -rf clones/r1/.git clones/r2/.git clones/r3/.git
mkfifo clones/r1/.git
ln -s "$T/outside" clones/r2/.git
mkdir -m 000 clones/r3/.git
start=$(date +%s.%N)
LIMIT_S=120 lim lint clones -f json -o "$T/r.json"
finished
echo "3,000 repositories, no cache: $(python3 -c "print(round($(date +%s.%N)-$start,2))") s"
valid_json "$T/r.json"
n=$(json_get "$T/r.json" "len([f for f in d['findings'] if f['rule'] == 'G2'])")
[ "$n" = 3000 ] || fail "expected a G2 finding per repository, got $n"
lim lint -v clones
finished
has "sparkcheck: 3000 projects, linted one after another" "$T/err"
# the facts cache: one file per repository; a warm run in time and with the same findings
unset SPARKCHECK_NO_CACHE
LIMIT_S=120 lim lint clones -f json -o "$T/cold.json"
finished
start=$(date +%s.%N)
LIMIT_S=120 lim lint clones -f json -o "$T/warm.json"
finished
echo "3,000 repositories, warm cache: $(python3 -c "print(round($(date +%s.%N)-$start,2))") s"
cmp -s <(json_get "$T/cold.json" "d['findings']") <(json_get "$T/r.json" "d['findings']") || fail "cold cache findings differ"
cmp -s <(json_get "$T/warm.json" "d['findings']") <(json_get "$T/r.json" "d['findings']") || fail "warm cache findings differ"
[ -z "$(ls -A outside)" ] || fail "something was written through the linked .git"

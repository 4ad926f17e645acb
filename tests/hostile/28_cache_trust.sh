# The facts cache is a hint, never an authority.
# 1. A file crafted to share the old 64-bit content hash (and size) of a clean file must not
#    inherit the clean file's facts: the warm run reports what --no-cache reports.
# 2. A cache folder that git tracks (a committed .sparkcheck_cache) or that another user owns
#    is not read.
# 3. A 500 MB file in the cache's place is rejected on its first bytes, not read whole.
# 4. A FIFO planted at a temporary name in the cache folder does not hang the save.
# 5. The cache goes into the linted folder, not the current directory.
. "$(dirname "$0")/lib.bash"
unset SPARKCHECK_NO_CACHE
LIMIT_S=30

# --- 1: a collision for the old hash (FNV-like, invertible): same size, same hash ---------
python3 - repo <<'PY'
import random, sys
M = (1 << 64) - 1
K1, K2, START = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x243F6A8885A308D3
rotl = lambda h, r: ((h << r) | (h >> (64 - r))) & M
mix = lambda h, w: (rotl(h ^ (w * K1 & M), 31) * K2) & M
def words(h, b):  # mixes in the full 8-byte words of b
    for i in range(0, len(b) // 8 * 8, 8):
        h = mix(h, int.from_bytes(b[i:i + 8], "little"))
    return h
def aligned(line):  # the line, then a comment's start padded to a multiple of 8 bytes
    p = line + b"# "
    return p + b" " * (-len(p) % 8)
pa = aligned(b"FROM nvcr.io/nvidia/pytorch:25.11-py3\n")
pb = aligned(b"FROM nvcr.io/nvidia/pytorch:23.10-py3\n")
a = pa + b"abcdefghABCDEFGH" + b"\n"
start = START ^ (len(a) * K1 & M)
target = words(start, a)  # the state before the tail word ("\n", the same in both)
inv1, inv2 = pow(K1, -1, 1 << 64), pow(K2, -1, 1 << 64)
h = words(start, pb)
rng = random.Random(7)
while True:  # two printable words that bring the bad file's state to the clean one's
    w1 = bytes(rng.randrange(0x21, 0x7f) for _ in range(8))
    x = mix(h, int.from_bytes(w1, "little"))
    w2 = ((rotl(target * inv2 & M, 33) ^ x) * inv1 & M).to_bytes(8, "little")
    if all(0x21 <= c <= 0x7e for c in w2):
        break
b = pb + w1 + w2 + b"\n"
assert len(a) == len(b) and words(start, a) == words(start, b)
open(sys.argv[1] + "/Dockerfile.clean", "wb").write(a)
open("Dockerfile.bad", "wb").write(b)  # outside the tree until swapped in
PY
mv repo/Dockerfile.clean repo/Dockerfile
lim lint repo
expect_rc 0  # clean: cached with no finding
mv Dockerfile.bad repo/Dockerfile
lim lint repo --no-cache
expect_rc 1
lim lint repo -v
expect_rc 1  # the warm run finds the G1 as --no-cache does
has 'G1' "$T/out"

# --- 2: a cache folder git tracks, or another user's, is never read -----------------------
if command -v git >/dev/null; then
  rm -rf g && mkdir g && cd g && git init -q && git config user.email t@t && git config user.name t
  printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > Dockerfile
  cd "$T"
  lim lint g
  expect_rc 1
  (cd g && git add -f .sparkcheck_cache Dockerfile && git commit -qm planted)
  lim lint g -v
  expect_rc 1
  has 'git tracks' "$T/err"
  hasnt '1 hits' "$T/err"
  [ ! -e g/.sparkcheck_cache/.facts-*.tmp ] || fail "temporary file left"
fi
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  rm -rf o && mkdir -p o/.git && printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > o/Dockerfile
  lim lint o
  chown -R nobody o/.sparkcheck_cache
  lim lint o -v
  expect_rc 1
  has 'another user' "$T/err"
  hasnt '1 hits' "$T/err"
fi

# --- 3: a huge file where the cache file goes is rejected on its header ------------------
rm -rf h && mkdir -p h/.git && printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > h/Dockerfile
lim lint h
f=$(ls h/.sparkcheck_cache/facts-*.bin)
rm "$f" && truncate -s 500M "$f"
/usr/bin/time -f '%M' -o "$T/rss" timeout 30 "$SC" lint h -v >"$T/out" 2>"$T/err"
RC=$?
expect_rc 1
rss=$(tail -n 1 "$T/rss")
[ "$rss" -lt 200000 ] || fail "read the 500 MB file: peak RSS ${rss} KB"
has 'cache file ignored' "$T/err"

# --- 4: a FIFO at every name a temporary file could take does not hang the save ---------
rm -rf p && mkdir -p p/.git && printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > p/Dockerfile
lim lint p
for f in p/.sparkcheck_cache/facts-*.bin; do
  n=$(basename "$f")
  for pid in $(seq 1 400); do mkfifo "p/.sparkcheck_cache/.$n.$pid.tmp" 2>/dev/null; done
done
echo 'RUN pip install torch' >> p/Dockerfile  # something to save
lim lint p -v
finished
has 'cache:' "$T/err"

# --- 5: the cache lives in the linted folder ----------------------------------------------
rm -rf w && mkdir -p w/proj/.git && printf 'FROM nvcr.io/nvidia/pytorch:23.10-py3\n' > w/proj/Dockerfile
(cd w && exec timeout 30 "$SC" lint proj >/dev/null 2>&1)
[ -d w/proj/.sparkcheck_cache ] || fail "no cache in the linted folder"
[ ! -e w/.sparkcheck_cache ] || fail "cache written into the current directory"
exit 0

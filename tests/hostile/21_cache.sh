# Row 21 (issue 14): a stranger's repository may hold a .sparkcheck_cache of its own: a link
# to /etc or to a directory elsewhere, a FIFO, a huge or forged cache file. sparkcheck never
# follows the links, never hangs, ignores a bad cache (a -v note) and finds what --no-cache finds.
. "$(dirname "$0")/lib.bash"
unset SPARKCHECK_NO_CACHE SPARKCHECK_CACHE_DIR
export XDG_CACHE_HOME="$T/xdg"
printf 'FROM nvcr.io/nvidia/pytorch:24.01-py3\nRUN pip install flash-attn\n' > repo/Dockerfile
printf 'torch==2.1.0\n' > repo/requirements.txt
cd repo  # lint from inside the repository: it is the lint root
lim lint . --no-cache -f json; cp "$T/out" "$T/want.json"
same_as_no_cache() { lim lint . -v -f json; finished; cmp -s "$T/out" "$T/want.json" || { show; fail "$1: findings differ"; }; }

# a symbolic link to a directory elsewhere: not written through, the user cache is used
mkdir "$T/victim" && ln -s "$T/victim" .sparkcheck_cache
same_as_no_cache "linked cache dir"
[ -z "$(ls -A "$T/victim")" ] || fail "wrote through a linked .sparkcheck_cache"
has "fell back to $T/xdg/sparkcheck" "$T/err"
rm .sparkcheck_cache && ln -s /etc .sparkcheck_cache
same_as_no_cache "cache dir linked to /etc"
rm .sparkcheck_cache && mkfifo .sparkcheck_cache
same_as_no_cache "FIFO cache dir"
rm .sparkcheck_cache

# the cache file itself: a FIFO, a link to /dev/zero, a huge sparse file, truncated, forged
lim lint . -f json; finished
f=$(ls .sparkcheck_cache/facts-*.bin) || fail "no cache file written"
cp "$f" "$T/good.bin"
lim lint . -v -f json; has " 0 misses;" "$T/err"
rm "$f"; mkfifo "$f"; same_as_no_cache "FIFO cache file"; has "cache file ignored" "$T/err"
rm "$f"; ln -s /dev/zero "$f"; same_as_no_cache "cache file linked to /dev/zero"; has "cache file ignored" "$T/err"
rm -f "$f"; truncate -s 3G "$f"; same_as_no_cache "huge cache file"; has "cache file ignored" "$T/err"
rm -f "$f"; head -c 100 "$T/good.bin" > "$f"; same_as_no_cache "truncated cache file"; has "cache file ignored" "$T/err"
printf 'SPKFACTS\002\000\000\000garbage' > "$f"; same_as_no_cache "garbage after the magic"; has "cache file ignored" "$T/err"
# forged with a valid checksum: an entry renamed to a path outside the root, and a huge count
forge() {  # forge OLD NEW: replace bytes in the payload, reseal the checksum
  python3 - "$T/good.bin" "$f" "$1" "$2" <<'PY'
import sys
src, dst, old, new = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode()
b = bytearray(open(src, "rb").read())
M = (1 << 64) - 1
def hb(s):
    k = 0x9E3779B97F4A7C15
    h = 0x243F6A8885A308D3 ^ ((len(s) * k) & M)
    def mix(h, v):
        h ^= (v * k) & M
        return ((((h << 31) | (h >> 33)) & M) * 0xC2B2AE3D27D4EB4F) & M
    i = 0
    while i + 8 <= len(s):
        h = mix(h, int.from_bytes(s[i:i + 8], "little")); i += 8
    h = mix(h, int.from_bytes(bytes(s[i:]) + b"\0" * (8 - (len(s) - i)), "little"))
    h ^= h >> 29; h = (h * 0xBF58476D1CE4E5B9) & M
    return h ^ (h >> 32)
pos, n = 12, 0  # after magic and format: the version's length (varint)
shift = 0
while True:
    c = b[pos]; pos += 1; n |= (c & 0x7F) << shift; shift += 7
    if not c & 0x80: break
head = pos + n + 24
payload = bytes(b[head:])
assert old in payload, "nothing to forge"
payload = payload.replace(old, new)
b = b[:head - 16] + len(payload).to_bytes(8, "little") + hb(payload).to_bytes(8, "little") + payload
open(dst, "wb").write(b)
PY
}
rm -f "$f"; forge "requirements.txt" "../../etc/passwd"; same_as_no_cache "entry renamed out of the root"
has "cache file ignored" "$T/err"
forge "Dockerfile" "/etc/hosts"; same_as_no_cache "entry renamed to an absolute path"; has "cache file ignored" "$T/err"
forge "requirements.txt" "requirements.tx2"; same_as_no_cache "entry for a file that is not there"
# a Dockerfile inside the cache dir is never linted, walked or named
printf 'FROM nvcr.io/nvidia/pytorch:24.01-py3\n' > .sparkcheck_cache/Dockerfile
lim lint . -f json; finished; hasnt "sparkcheck_cache" "$T/out"
lim lint .sparkcheck_cache/Dockerfile -f json; finished; has '"files_linted": 0' "$T/out"; has "inside sparkcheck's cache" "$T/out"
# concurrent runs: every writer renames a whole file; the last one wins, none is torn
rm -f .sparkcheck_cache/facts-*.bin
for i in 1 2 3 4; do "$SC" lint . -f json >/dev/null 2>&1 & done; wait
lim lint . -v -f json; has " 0 misses;" "$T/err"
ls -a .sparkcheck_cache | grep -q '\.tmp$' && fail "temporary cache file left"
true

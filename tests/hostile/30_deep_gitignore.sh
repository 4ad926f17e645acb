# A planted .gitignore of long `**/a/**/a/...` patterns and directories 60 deep made every path
# cost patterns x segments x depth glob steps (the fuzzer's slow unit: 20 s for 59 KB). Runs of
# `**` now match as one, a pattern needing more fixed segments than a path has is skipped, the
# matcher stops once no suffix can match, and one file's patterns hold at most 20,000 segments.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30  # the old matcher: 42 s for 260 files of this tree, about 65 s for these 400
python3 - repo <<'PY'
import os, sys
root = sys.argv[1]
with open(os.path.join(root, ".gitignore"), "w") as f:  # 630 KB, under the 1 MB ignore-file limit
    for i in range(2500):
        f.write("**/a/" * 20 + "a/" * 10 + "x%d.sh\n" % i)
        f.write("**/" * 40 + "y%d\n" % i)
deep = os.path.join(root, *(["a"] * 60))
os.makedirs(deep)
for i in range(400):
    open(os.path.join(deep, "s%d.sh" % i), "w").write("pip install torch\n")
open(os.path.join(deep, "x0.sh"), "w").write("pip install torch\n")
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 's399.sh' "$T/r.json"
hasnt 'x0.sh' "$T/r.json"  # still ignored: **/a/**/a/.../x0.sh matches 60 a/ segments

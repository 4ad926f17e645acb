# Row 14: many small files finish in time (the issue's scale row; timing printed).
. "$(dirname "$0")/lib.bash"
python3 - <<'PY'
import os
for d in range(100):
    os.makedirs("repo/d%d" % d, exist_ok=True)
    for f in range(200):
        open("repo/d%d/f%d.py" % (d, f), "w").write("import os\n")
    open("repo/d%d/requirements.txt" % d, "w").write("torch==2.5.1\n")
PY
start=$(date +%s.%N)
LIMIT_S=120 lim lint repo -f json -o "$T/r.json"
finished
echo "20k files: $(python3 -c "print(round($(date +%s.%N)-$start,2))") s"
valid_json "$T/r.json"

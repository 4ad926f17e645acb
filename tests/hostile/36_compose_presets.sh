# A compose file's script is read again once per settings file Compose may interpolate from
# (.env, --env-file, presets that set its names). Thousands of presets, hundreds of services
# and a large entrypoint stay bounded: at most 64 settings files per compose file and 8 MiB of
# script text read again per script.
. "$(dirname "$0")/lib.bash"
LIMIT_S=60
python3 - <<'PY'
import os
os.makedirs("repo/presets", exist_ok=True)
services = "".join(
    "  s%d:\n    image: ${IMG}\n    environment:\n      - TP_SIZE=${TP_SIZE:-1}\n      - MODEL=${MODEL}\n"
    "      - HEAD_IP=${HEAD_IP}\n    volumes:\n      - ./entry.sh:/entry.sh:ro\n    entrypoint: [bash, /entry.sh]\n" % i
    for i in range(300))
open("repo/docker-compose.yml", "w").write("services:\n" + services)
body = "".join("echo step %d $MODEL $HEAD_IP\n" % i for i in range(20000))
open("repo/entry.sh", "w").write("#!/bin/bash\n" + body + 'vllm serve "$MODEL" --tensor-parallel-size "$TP_SIZE"\n')
for i in range(3000):
    open("repo/presets/p%d.env" % i, "w").write("IMG=vllm/vllm-openai:v0.11.0\nMODEL=m%d\nHEAD_IP=10.0.0.1\nTP_SIZE=2\n" % i)
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has '"G10"' "$T/r.json"

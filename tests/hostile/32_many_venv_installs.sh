# A host venv is skipped by G1/G9 when the Python run after its install only feeds CPU-side
# tooling. That question re-read every later command of the file for each install, so a
# script of 20,000 `pip install torch` + `python3 -c` pairs took the square of its length
# (more than 120 s). Now each file's commands are judged once, walking back from the end.
# G1/G9 then asked "what did an earlier run install, does a later RUN pin it?" by walking all
# runs of the environment for each install (20,000 installs: 15.5 s; 40,000: about 60 s).
# Each environment is now indexed once (query::InstallOrder): 0.8 s.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
mkdir -p repo
repeat_into repo/setup.sh $'python3 -m venv .venv\n. .venv/bin/activate\n' $'pip install torch\npython3 -c "import json"\n' 20000 $'python3 tools.py\n'
printf 'import json\nprint(json.dumps({}))\n' > repo/tools.py
repeat_into repo/gpu.sh $'python3 -m venv .venv\n. .venv/bin/activate\n' $'pip install torch\npython3 -c "import json"\n' 20000 $'python3 train.py\n'
printf 'import torch\ntorch.zeros(1).cuda()\n' > repo/train.py
repeat_into repo/Dockerfile.many $'FROM ubuntu:24.04\n' $'RUN pip install torch transformers==4.57.1 numpy\n' 20000 ''
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'gpu.sh' "$T/r.json"     # its venv runs GPU code: judged
has 'Dockerfile.many' "$T/r.json"  # 20,000 RUNs of one stage: each judged after the ones before
hasnt 'setup.sh' "$T/r.json"  # its venv only feeds tools.py: skipped

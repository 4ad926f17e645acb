# Row 8: numbers too large for int in versions and image tags: the file is
# still linted, other findings are kept, the run does not fail on them.
. "$(dirname "$0")/lib.bash"
printf 'torch==2.5.1+cu99999999999\nnvidia-modelopt\n' > repo/requirements.txt
printf 'FROM nvcr.io/nvidia/pytorch:24.10-py3::x\nFROM nvcr.io/nvidia/pytorch:99999999999.10-py3\nRUN pip install torch==2.5.1+cu99999999999\n' > repo/Dockerfile
echo 'import torch' > repo/a.py
lim lint repo -f json -o "$T/r.json"
finished
[ "$RC" != 2 ] || { show; fail "exit 2 on large numbers"; }
valid_json "$T/r.json"

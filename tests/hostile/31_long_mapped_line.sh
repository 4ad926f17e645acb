# A Dockerfile RUN, a Markdown block or a compose command is parsed as its own text and each
# location mapped back to the original line. The mapping counted the columns of the original
# line from its start for every word, so one 1 MB RUN line took the square of its length
# (6,000 `docker run ... vllm serve` copies: about 45 s). Now the count carries on from the
# last word, as it does in plain files: linear.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
W='docker run --gpus all -e NCCL_SOCKET_IFNAME=enp1s0 nvcr.io/nvidia/vllm:25.11-py3 vllm serve nvidia/Llama-3-NVFP4 --tensor-parallel-size 2 --quantization modelopt_fp4 '
repeat_into repo/Dockerfile $'FROM ubuntu:22.04\nRUN ' "$W" 6000 $'\n'
repeat_into repo/README.md $'```dockerfile\nFROM ubuntu:22.04\nRUN ' "$W" 3000 $'\n```\n'
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'Dockerfile' "$T/r.json"
has 'README.md' "$T/r.json"

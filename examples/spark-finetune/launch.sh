#!/usr/bin/env bash
# Launch the fine-tune inside the container (or on the host, after scripts/setup-host.sh).
set -euo pipefail
export TOKENIZERS_PARALLELISM=false
accelerate launch --num_processes 1 --mixed_precision bf16 train.py "$@"

#!/usr/bin/env bash
# Build the FP4 GEMM extension, quantize the fine-tuned model to NVFP4 and serve it.
set -euo pipefail
export TORCH_CUDA_ARCH_LIST="12.1"     # no arch-specific 12.1a target (sparkcheck G7)
pip install --no-build-isolation -e ./kernels
python -m modelopt_quantize --model out/llama-3b-merged --qformat nvfp4 --export_path out/llama-3b-nvfp4
vllm serve out/llama-3b-nvfp4 --quantization modelopt_fp4 --tensor-parallel-size 2 --distributed-executor-backend ray

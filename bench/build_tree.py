#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the benchmark tree deterministically (same bytes on every run of the same machine).

  bench/build_tree.py OUT [--stdlib-copies N] [--projects N] [--stdlib DIR]
  bench/build_tree.py OUT --small N      (only N small files, for the linearity rows)

OUT/stdlib-K/  copies of a Python standard library (default: the running python3's,
               without site-packages and bytecode);
OUT/projects/pNNN/  generated ML projects: YAML/JSON/TOML configs, launchers, a
               Dockerfile, requirements, library-style Python, notebooks whose
               outputs carry large base64 images, Markdown playbooks.
OUT/small/dNNNN/  with --small N: N small files (100 a directory: Python, YAML, shell,
               requirements, one pyproject.toml each), a few with trigger words.
Nothing is downloaded; the tree is not committed (it is hundreds of MB).
"""
import argparse
import base64
import json
import os
import random
import shutil
import sysconfig

MODELS = ["meta-llama/Llama-3.1-8B", "Qwen/Qwen2.5-7B", "nvidia/Llama-3.1-8B-Instruct-FP4", "mistralai/Mistral-7B-v0.3"]
IMAGES = ["nvcr.io/nvidia/pytorch:25.11-py3", "python:3.11-slim", "nvidia/cuda:12.4.1-devel-ubuntu22.04"]


def copy_stdlib(src, dst):
    def ignore(d, names):
        return [n for n in names if n in ("site-packages", "__pycache__") or n.endswith((".pyc", ".so"))]
    shutil.copytree(src, dst, ignore=ignore, symlinks=False, ignore_dangling_symlinks=True, dirs_exist_ok=True)


def library_module(rng, i):
    lines = [f'"""Helpers for stage {i} (generated)."""', "import math", "import os", ""]
    for f in range(rng.randint(8, 30)):
        args = ", ".join(f"a{k}" for k in range(rng.randint(1, 5)))
        lines += [f"def helper_{i}_{f}({args}, tensor_parallel=None, scale=1.0):",
                  f'    """Scales the inputs; tensor_parallel is passed through."""',
                  f"    total = sum([{args}]) * scale",
                  f"    return math.sqrt(abs(total)) + len(os.sep)", ""]
    return "\n".join(lines) + "\n"


def train_py(rng):
    model = rng.choice(MODELS)
    if rng.random() < 0.3:
        return ("from unsloth import FastLanguageModel\n"
                f'model, tok = FastLanguageModel.from_pretrained("{model}", attn_implementation="sdpa")\n')
    if rng.random() < 0.3:
        return f'from vllm import LLM\nllm = LLM(model="{model}", tensor_parallel_size={rng.choice([1, 2, 4])})\n'
    return f'from transformers import AutoModelForCausalLM\nm = AutoModelForCausalLM.from_pretrained("{model}")\n'


def notebook(rng, image_bytes):
    png = base64.b64encode(rng.randbytes(image_bytes)).decode()
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Fine-tune\n", "Steps below.\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": [f"!pip install {rng.choice(['flash-attn', 'torch==2.5.1', 'transformers'])}\n"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {},
         "outputs": [{"output_type": "display_data", "data": {"image/png": png, "text/plain": ["<Figure>"]},
                      "metadata": {}}],
         "source": ["import matplotlib.pyplot as plt\n", "plt.plot([1, 2, 3])\n"]},
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1) + "\n"


def project_files(rng, p):
    f = {}
    f["Dockerfile"] = (f"FROM {rng.choice(IMAGES)}\nRUN pip install --no-cache-dir -r requirements.txt\n"
                       "COPY . /app\nCMD [\"bash\", \"scripts/train.sh\"]\n")
    f["requirements.txt"] = "\n".join(rng.sample(["torch", "transformers>=4.45", "flash-attn", "peft",
                                                  "accelerate==1.1.0", "datasets", "vllm"], 4)) + "\n"
    f["pyproject.toml"] = f'[project]\nname = "proj{p}"\nversion = "0.1.0"\ndependencies = ["torch"]\n'
    for k in range(5):
        f[f"configs/run{k}.yaml"] = (f"model_name_or_path: {rng.choice(MODELS)}\nlearning_rate: {rng.random():.5f}\n"
                                     f"tensor_parallel_size: {rng.choice([1, 2])}\nbf16: true\n"
                                     + "".join(f"extra_{j}: {j}\n" for j in range(rng.randint(5, 40))))
    for k in range(3):
        f[f"configs/ds{k}.json"] = json.dumps({"zero_optimization": {"stage": rng.choice([2, 3])},
                                               "train_batch_size": rng.choice([8, 16])}, indent=2) + "\n"
    for k in range(4):
        f[f"scripts/launch{k}.sh"] = ("#!/bin/bash\nset -e\nexport NCCL_DEBUG=INFO\n"
                                      f"torchrun --nproc_per_node {rng.choice([1, 8])} train.py --config configs/run{k}.yaml\n")
    f["train.py"] = train_py(rng)
    for k in range(20):
        f[f"src/proj{p}/mod{k}.py"] = library_module(rng, k)
    for k in range(2):
        f[f"notebooks/nb{k}.ipynb"] = notebook(rng, rng.randint(40_000, 120_000))
    for k in range(3):
        f[f"docs/playbook{k}.md"] = (f"# Playbook {k}\n\nRun it:\n\n```bash\npip install vllm\n"
                                     f"vllm serve {rng.choice(MODELS)} --tensor-parallel-size 2\n```\n")
    return f


def small_file(rng, i):
    """One small file of a --small tree: (relative name, text); about 1 in 8 holds a trigger word."""
    kind = i % 10
    hot = rng.random() < 0.125
    if i % 100 == 0:
        return "pyproject.toml", f'[project]\nname = "s{i}"\nversion = "0.1.0"\ndependencies = ["torch"]\n'
    if i % 100 == 1:
        return "requirements.txt", "torch\nflash-attn\n" if hot else "numpy\nrequests\n"
    if kind == 2:
        return f"conf{i}.yaml", f"lr: {rng.random():.4f}\n" + ("tensor_parallel_size: 2\n" if hot else "steps: 10\n")
    if kind == 3:
        return f"run{i}.sh", "#!/bin/bash\n" + ("torchrun --nproc_per_node 8 t.py\n" if hot else "python t.py\n")
    body = f"def f{i}(x):\n    return x * {rng.randint(1, 99)}\n"
    if hot:
        body += f'\nfrom vllm import LLM\nllm = LLM(model="m", tensor_parallel_size={rng.choice([1, 2, 4])})\n'
    return f"m{i}.py", body


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def build_small(out, n):
    rng = random.Random(50)
    for i in range(n):
        rel, text = small_file(rng, i)
        write(os.path.join(out, "small", f"d{i // 100:04d}", rel), text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--stdlib-copies", type=int, default=3)
    ap.add_argument("--projects", type=int, default=320)
    ap.add_argument("--stdlib", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--small", type=int, default=0, help="build only this many small files")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.small:
        return build_small(a.out, a.small)
    for k in range(a.stdlib_copies):
        copy_stdlib(a.stdlib, os.path.join(a.out, f"stdlib-{k}"))
    rng = random.Random(14)
    for p in range(a.projects):
        for rel, text in project_files(rng, p).items():
            write(os.path.join(a.out, "projects", f"p{p:03d}", rel), text)


if __name__ == "__main__":
    main()

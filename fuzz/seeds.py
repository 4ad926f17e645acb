#!/usr/bin/env python3
"""Writes the small seed corpora under fuzz/corpus/<target>/ (fuzz/README.md).

Seeds come from fixtures (small files, with the kind byte each target expects)
and from generated nesting inputs. Every seed stays under 4 KB.
Usage: fuzz/seeds.py   (rewrites fuzz/corpus/, keeping the regression seeds named regress-*)"""
import hashlib
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"
LIMIT = 4096

# fuzz_parsers: kind byte = index into kNames of fuzz_parsers.cpp
PARSER_KINDS = [("Dockerfile", 0), ("requirements", 1), ("pyproject.toml", 2), ("environment.y", 3),
                ("uv.lock", 4), (".yaml", 5), (".yml", 5), (".json", 6), (".toml", 7), (".py", 8),
                (".sh", 9), (".sbatch", 9), (".ipynb", 10), ("poetry.lock", 11)]
# fuzz_project: kind byte = index into kFiles of fuzz_project.cpp
PROJECT = {"Dockerfile": 0, "requirements": 1, "sh": 2, "compose": 3, "py": 4, "md": 5,
           "pyproject": 6, "conda": 7, "workflow": 8, "reqdev": 9, "json": 10, "ipynb": 11,
           "make": 12, "gitignore": 13}


def nest(open_, close, n, inner="x"):
    return open_ * n + inner + close * n


NESTING = {  # kind byte -> texts
    9: ["{ " * 300 + "true" + "; }" * 300 + "\n", "echo " + nest("$(", ")", 150, "echo x") + "\n",
        "x=" + nest("${a:-", "}", 150) + "\n", "(" * 200 + "true" + ")" * 200 + "\n",
        "cat <<EOF\n$(cat <<EOF2\n${x}\nEOF2\n)\nEOF\n" + "\\\n" * 100 + "pip install torch\n"],
    0: ["FROM ubuntu\nRUN " + "{ " * 300 + "true" + "; }" * 300 + "\n",
        "FROM ubuntu\nRUN <<EOF\npip install torch\nEOF\nRUN <<A <<B\na\nA\nb\nB\n",
        "# escape=`\nFROM ubuntu\nRUN echo `\n  $(echo " + nest("$(", ")", 80) + ")\n"],
    8: ["x = " + nest("(", ")", 400, "1") + "\n", "x = " + "-" * 500 + "1\n",
        "x = a" + ".b()" * 400 + "\n", "x = " + nest("[", "]", 400, "1") + "\n",
        "x = " + nest("{'a': ", "}", 200, "1") + "\n", "f'" + "{f'" * 20 + "x" + "'}" * 20 + "'\n"],
    5: ["a: &a [x]\n" + "".join(f"{c}: &{c} [*{p},*{p}]\n" for p, c in zip("abcdef", "bcdefg")),
        "a: " + nest("[", "]", 300) + "\n", "a: " + nest("{b: ", "}", 300) + "\n",
        "a: &a\n  b: *a\n", "<<: *x\n"],
    1: ["-r requirements.txt\n-c constraints.txt\ntorch==2.5.1+cu99999999999\n",
        "torch==" + "9" * 40 + "\n" + "x\\\n" * 50 + "\n"],
    6: ["{\"a\": " + nest("[", "]", 300, "1") + "}", "{\"n\": 1e400, \"m\": -1e400}"],
}


def write(target, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    data = data[:LIMIT]
    (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def fixture_texts():
    for f in sorted((ROOT / "fixtures").rglob("*")):
        if f.is_file() and f.stat().st_size <= LIMIT - 8 and f.suffix != ".expect":
            yield f, f.read_bytes()


def parser_seeds():
    taken = {}
    for f, data in fixture_texts():
        for key, kind in PARSER_KINDS:
            if key in f.name and taken.get(kind, 0) < 4:
                taken[kind] = taken.get(kind, 0) + 1
                write("parsers", bytes([kind]) + data)
                break
    for kind, texts in NESTING.items():
        for t in texts:
            write("parsers", bytes([kind]) + t.encode())


def project(kinds, texts, fmt=0, prefilter=False):
    head = bytes([(len(kinds) - 2) | (0x80 if prefilter else 0)] + [PROJECT[k] for k in kinds] + [fmt])
    return head + b"\x1e".join(t.encode() for t in texts)


def project_seeds():
    write("project", project(["Dockerfile", "requirements"], [
        "FROM nvcr.io/nvidia/pytorch:24.10-py3\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n",
        "--extra-index-url https://download.pytorch.org/whl/cu124\ntorch==2.5.1+cu124\nflash-attn\n"]))
    write("project", project(["compose", "Dockerfile", "sh"], [
        "services:\n  train:\n    build: .\n    command: bash scripts/train.sh\n    deploy:\n      resources:\n"
        "        reservations:\n          devices: [{driver: nvidia, count: all}]\n",
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY scripts/train.sh /t.sh\nRUN <<EOF\npip install torch\nEOF\n",
        "#!/bin/bash\ntorchrun --nproc_per_node=8 train.py --tp 2\n"], fmt=3))
    write("project", project(["workflow", "sh", "py"], [
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: bash scripts/train.sh\n",
        "pip install vllm\npython train.py\n",
        "import torch\nfrom unsloth import FastLanguageModel\nm = FastLanguageModel.from_pretrained('x', attn_implementation='flash_attention_2')\n"], fmt=5))
    write("project", project(["md", "reqdev", "requirements"], [
        "# Setup\n```bash\npip install torch --index-url https://download.pytorch.org/whl/cu121\n```\n",
        "-r requirements.txt\n-c constraints.txt\n", "-r requirements-dev.txt\ntorch\n"], fmt=1))
    write("project", project(["gitignore", "pyproject", "conda"], [
        "*.py\n!train.py\n/build/\n**/x/**\n[a-\\\n", "[project]\ndependencies = [\"torch==2.5.1\"]\n"
        "[tool.uv.sources]\ntorch = { index = \"cu124\" }\n[[tool.uv.index]]\nname = \"cu124\"\n"
        "url = \"https://download.pytorch.org/whl/cu124\"\n",
        "name: x\ndependencies:\n  - pytorch-cuda=12.1\n  - pip:\n    - torch==2.5.1\n"], fmt=7, prefilter=True))
    write("project", project(["ipynb", "json", "make", "sh"], [
        "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"!pip install flash-attn\\n\"]}], \"nbformat\": 4}",
        "{\"zero_optimization\": {\"stage\": 3}, \"tensor_parallel\": {\"autotp_size\": 2}}",
        "train:\n\tdeepspeed --num_gpus 8 train.py\n", "{ " * 200 + "true" + "; }" * 200 + "\n"], fmt=2))
    write("project", project(["sh", "Dockerfile"], [
        "echo " + nest("$(", ")", 100) + "\n", "FROM a\nRUN " + "(" * 200 + "true" + ")" * 200 + "\n"]))


def config_seeds():
    texts = [b"\x00select: [G1, G2]\nignore: [G9]\nexclude: [\"build/**\"]\nfail-on: warning\n"
             b"severity:\n  G2: note\nper-file-ignores:\n  \"tests/**\": [G1]\nmax-file-size: 5\n"
             b"baseline: .sparkcheck-baseline.json\nallow-reasonless-suppressions: true\n"
             b"inline-ignore: false\nrespect-gitignore: false\n",
             b"\x00select: &a [*a]\n", b"\x00max-file-size: .nan\n", b"\x00max-file-size: 1e400\n",
             b"\x01a: &a [x,x]\nb: &b [*a,*a]\nc: &c [*b,*b]\nselect: *c\n",
             b"\x02[tool.sparkcheck]\nselect = [\"G1\"]\nfail-on = \"error\"\n[tool.sparkcheck.severity]\nG7 = \"note\"\n"
             b"[tool.sparkcheck.per-file-ignores]\n\"a/*.py\" = [\"G2\"]\n",
             b"\x02[tool.sparkcheck]\nmax-file-size = inf\nselect = " + b"[" * 200 + b"]" * 200 + b"\n",
             b"\x00exclude: " + b"[" * 300 + b"]" * 300 + b"\n"]
    for t in texts:
        write("config", t)


def baseline_seeds():
    for t in [b'{"version": 1, "tool": "sparkcheck", "findings": [{"fingerprint": "G1:a:0:1", "rule": "G1", '
              b'"path": "Dockerfile", "line": 3, "message": "m"}]}',
              b'{"version": 1e400, "findings": []}', b'{"version": 99999999999999999999, "findings": []}',
              b'{"findings": [' + b"[" * 300 + b"]" * 300 + b']}', b'{"findings": [{"fingerprint": "\\ud800"}]}']:
        write("baseline", t)


if __name__ == "__main__":
    for old in OUT.glob("*/*"):
        if not old.name.startswith("regress-"):
            old.unlink()
    parser_seeds()
    project_seeds()
    config_seeds()
    baseline_seeds()
    for d in sorted(OUT.iterdir()):
        files = list(d.iterdir())
        print(f"{d.name}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")

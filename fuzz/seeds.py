#!/usr/bin/env python3
"""Writes the small seed corpora under fuzz/corpus/<target>/ (fuzz/README.md).

Seeds come from fixtures (small files, with the kind byte each target expects)
and from generated nesting inputs. Every seed stays under 4 KB.
Usage: fuzz/seeds.py   (rewrites fuzz/corpus/, keeping the regression seeds named regress-*;
the facts cache seeds are made by a built fuzz_cache (build-fuzz/, else build/fuzz_smoke_cache):
without one, the committed cache seeds are kept)"""
import hashlib
import os
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"
LIMIT = 4096

# fuzz_parsers: kind byte = index into kNames of fuzz_parsers.cpp
PARSER_KINDS = [("Dockerfile", 0), ("requirements", 1), ("pyproject.toml", 2), ("environment.y", 3),
                ("uv.lock", 4), (".yaml", 5), (".yml", 5), (".json", 6), (".toml", 7), (".py", 8),
                (".sh", 9), (".sbatch", 9), (".ipynb", 10), ("poetry.lock", 11)]
# the kinds added later, matched on the fixture's path (the workflow parser goes by directory)
PATH_KINDS = [(".md", 12), ("compose", 13), (".github/workflows/", 14), ("Makefile", 15), (".mk", 15),
              ("CMakeLists.txt", 16), (".cmake", 16), (".gitlab-ci.yml", 17)]
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
    for f, data in fixture_texts():
        rel = str(f.relative_to(ROOT))
        for key, kind in PATH_KINDS:
            if key in rel and taken.get(kind, 0) < 4:
                taken[kind] = taken.get(kind, 0) + 1
                write("parsers", bytes([kind]) + data)
                break
    for kind, texts in NESTING.items():
        for t in texts:
            write("parsers", bytes([kind]) + t.encode())
    for kind, texts in KIND_NESTING.items():
        for t in texts:
            write("parsers", bytes([kind]) + t.encode())


KIND_NESTING = {  # the later kinds: nesting and edge inputs
    12: ["```bash\n" + "{ " * 200 + "true" + "; }" * 200 + "\n```\n", "> " * 300 + "```sh\npip install x\n```\n",
         "- " * 200 + "x\n", "~~~\n```\n~~~~\npip install torch\n", "<!-- sparkcheck: ignore[G1] -->\n```\n"],
    13: ["services:\n  a:\n    command: " + nest("[", "]", 200, "x") + "\n",
         "x-a: &a {image: x}\nservices:\n  a: *a\n  b:\n    <<: *a\n    build: {context: ., args: [A=1]}\n"],
    14: ["on: push\njobs:\n  t:\n    strategy: {matrix: {x: " + nest("[", "]", 200, "1") + "}}\n"
         "    steps:\n      - run: |\n          pip install ${{ matrix.x }}\n",
         "jobs:\n  a: &a\n    steps: [{run: x}]\n  b: *a\n"],
    15: ["a:\n\t" + "$(" * 100 + "x" + ")" * 100 + "\n", "x = $(shell " + nest("$(", ")", 100) + ")\n",
         "define X\n\tpip install torch\nendef\n" + "a: b \\\n" * 100 + "\n"],
    16: ["set(A " + nest("${", "}", 150, "B") + ")\n", "if(" + "(" * 200 + "A" + ")" * 200 + ")\nendif()\n",
         "set(CMAKE_CUDA_ARCHITECTURES \"90;121a\")\n#[[ unclosed\n", "message([=[ x ]==] )\n"],
    17: ["test:\n  script:\n    - " + "{ " * 200 + "true" + "; }" * 200 + "\n", ".a: &a\n  script: [x]\nb:\n  <<: *a\n"],
}


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


def cache_seeds():
    """Entries of a real facts cache, framed for fuzz_cache (mode 0), and frame-level inputs."""
    for exe in (ROOT / "build-fuzz" / "fuzz_cache", ROOT / "build" / "fuzz_smoke_cache"):
        if exe.exists():
            with tempfile.TemporaryDirectory() as d:
                env = dict(os.environ, SC_FUZZ_CACHE_SEEDS=d, ASAN_OPTIONS="detect_leaks=0")
                subprocess.run([str(exe), d], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for f in sorted(pathlib.Path(d).iterdir()):
                    write("cache", f.read_bytes())
            break
    else:
        return False
    for t in [b"\x00\x00", b"\x00\x05" + b"\xff" * 40, b"\x01" + b"\x00" * 40, b"\x02SPKFACTS\x05\x00\x00\x00\x00",
              b"\x00\x01\x0aDockerfile" + b"\x80" * 12 + b"\x01" * 30]:
        write("cache", t)
    return True


def git_index_seeds():
    """Real index files (versions 2, 3 and 4) of a small repository, made by git."""
    with tempfile.TemporaryDirectory() as d:
        git = ["git", "-C", d, "-c", "user.name=x", "-c", "user.email=x@x", "-c", "init.defaultBranch=main"]
        subprocess.run(git + ["init", "-q"], check=True)
        for rel in ["Dockerfile", "requirements.txt", "src/train.py", "a/b/c/d.sh", "docs/readme with space.md"]:
            path = pathlib.Path(d) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rel + "\n")
        subprocess.run(git + ["add", "-A"], check=True)
        (pathlib.Path(d) / "new.txt").write_text("x\n")
        subprocess.run(git + ["add", "-N", "new.txt"], check=True)  # extended flags (version 3)
        subprocess.run(git + ["update-index", "--skip-worktree", "src/train.py"], check=True)
        for v in ("2", "3", "4"):
            subprocess.run(git + ["update-index", "--index-version", v], check=True)
            write("git_index", (pathlib.Path(d) / ".git" / "index").read_bytes())
    write("git_index", b"DIRC\x00\x00\x00\x02\xff\xff\xff\xff")
    write("git_index", b"DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + b"\x00" * 60 + b"\x0f\xff" + b"\xff" * 8 + b"x\x00")


def git_config_seeds():
    for key, t in [(0, "[core]\n\texcludesFile = ~/.gitignore_global\n"),
                   (1, "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[core]\n  excludesfile = \"a b\\\"c\\\\d\" ; x\n"),
                   (2, "[CORE]\nEXCLUDESFILE=x\\\n  y # comment\n"),
                   (3, "[core \"sub\"]\n\tfsmonitor = true\n[core]fsmonitor=\"/bin/sh -c x\"\n"),
                   (4, "[user]\n\tname = \"\\t\\n\\b\"\n[include]\n\tpath = ../x\n"),
                   (5, "[remote \"origin\"]\n\turl = git@x:y\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"),
                   (0, "[core]\nexcludesFile\n[core]\nexcludesFile =\n"), (0, "[" * 300 + "\n" + "\\\n" * 100)]:
        write("git_config", bytes([key]) + t.encode())


def gitignore_seeds():
    for t in ["*.py\n!train.py\n/build/\n**/x/**\n\x1ebuild/\ntrain.py\nsrc/a.py\nx/y/z/\n",
              "# c\n\\#x\n\\!y\nz\\ \ntrailing   \n[a-c]?.txt\n\x1e#x\n!y\nz \nb1.txt\n",
              "a/**/b\n**/c\nd/**\n\x1e*.md\n!README.md\n\x1ea/x/y/b\nq/c\nd/e/f/\nsub/x.md\nsub/README.md\n",
              "[!a-z]\n[\\]]\n[a-\n[[:alpha:]]*\n\x1e1\n]\na-\nab/\n",
              "**/" * 50 + "x\n" + "*" * 100 + "y\n\x1e" + "a/" * 200 + "\n" + "a" * 500 + "\n"]:
        write("gitignore", t.encode())


def lsp(*bodies):
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(b.encode()) + b.encode() for b in bodies)


def server_seeds():
    doc = '{"uri":"file:///tmp/sparkcheck-fuzz-doc/Dockerfile","languageId":"dockerfile","version":1,"text":"FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\\nRUN pip install torch==2.5.1+cu124\\n"}'
    uri = '{"uri":"file:///tmp/sparkcheck-fuzz-doc/Dockerfile"}'
    rng = '{"start":{"line":1,"character":0},"end":{"line":1,"character":30}}'
    write("server", lsp('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":%s}}' % doc,
                        '{"jsonrpc":"2.0","id":1,"method":"textDocument/codeAction","params":{"textDocument":%s,"range":%s,"context":{"diagnostics":[]}}}' % (uri, rng),
                        '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":%s,"position":{"line":1,"character":5}}}' % uri,
                        '{"jsonrpc":"2.0","id":3,"method":"shutdown"}', '{"jsonrpc":"2.0","method":"exit"}'))
    write("server", lsp('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":%s}}' % doc,
                        '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":%s,"contentChanges":[{"range":%s,"text":"RUN pip install \\u00e9\\ud83d\\ude00"}]}}' % (uri, rng),
                        '{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":%s,"text":"FROM x\\n"}}' % uri,
                        '{"jsonrpc":"2.0","id":"h","method":"textDocument/hover","params":{"textDocument":%s,"position":{"line":0,"character":99}}}' % uri,
                        '{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":%s}}' % uri))
    write("server", lsp('{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"sparkcheck":{"debounceMs":-5}}}}',
                        '{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file:///tmp/x/requirements.txt","type":2}]}}',
                        '{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}', '{"jsonrpc":"2.0","id":[1],"method":"x"}',
                        '{"jsonrpc":"2.0","result":null,"id":"sparkcheck-1"}', '[1,2]', 'not json'))
    write("server", b"Content-Length: 99999999999\r\n\r\n{}" + b"Content-Length: 5\r\nContent-Length: x\r\n\r\n{}" +
          b"X: y\r\n\r\n" + b"Content-Length: 2\r\n\r\n{}" + b"Content-Length: 10\r\n\r\n{")
    write("server", lsp('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/sparkcheck-fuzz-doc/.sparkcheck.yaml","text":"select: [G1]\\nbaseline: b.json\\n"}}}',
                        '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/sparkcheck-fuzz-doc/requirements.txt","text":"torch==2.5.1+cu124\\n"}}}',
                        '{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///tmp/sparkcheck-fuzz-doc/requirements.txt"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}}}'))


def fix_seeds():
    texts = [(0, "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"9.0;12.1\"\nRUN pip install torch==2.5.1+cu124\n"),
             (1, "--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.5.1+cu121\nflash-attn==2.6.3\n"),
             (4, "import torch\nfrom transformers import AutoModel\nm = AutoModel.from_pretrained('x', attn_implementation='flash_attention_2')\n"),
             (5, "#!/bin/bash\nexport TORCH_CUDA_ARCH_LIST=12.1\npip install torch --index-url https://download.pytorch.org/whl/cu121\n"),
             (11, "set(CMAKE_CUDA_ARCHITECTURES 90)\n"), (9, "all:\n\tnvcc -arch=sm_90 -o x x.cu\n")]
    for kind, t in texts:
        write("fix", bytes([kind | 0x80, 0]) + t.encode())
    write("fix", bytes([0, 2, 2, 1, 2, 5, 1, 3, 1, 3, 1, 0x3e]) + texts[0][1].encode())
    write("fix", bytes([1, 3, 1, 1, 1, 6, 3, 1, 3, 1, 9, 0x21, 0, 0, 0, 0, 4]) + texts[1][1].encode())


def probe_seeds():
    py = ('SPARKCHECK-JSON {"python": "3.12.3", "executable": "/usr/bin/python3", "in_venv": true, "prefix": "/v", '
          '"torch": {"installed": true, "version": "2.9.1+cu130", "cuda": "13.0", "cuda_available": true, '
          '"arch_list": ["sm_80", "sm_90", "sm_121a", "compute_90"]}, "wheel_cudart": [{"dist": "nvidia-cuda-runtime-cu12", "version": "12.4.127"}], '
          '"dists": {"flash-attn": {"version": "2.7.4.post1", "shared_objects": ["/v/lib/flash_attn_2_cuda.so"]}, '
          '"triton": {"version": "3.6.0", "mtime": 1763000000.0}, "vllm": {"version": "0.11.0"}}}\n')
    machine = ('{"gpu": {"nvml": true, "cuda": true, "count": 1, "name": "NVIDIA GB10", "cc_major": 12, "cc_minor": 1, '
               '"driver_version": "580.95.05", "cuda_driver_version": 13000, "mem_total_gb": -1}, '
               '"samples": [{"t": 0, "temp_c": 60, "power_w": 30, "sm_clock_mhz": 2400, "mem_clock_mhz": 8533, "reasons": 0}, '
               '{"t": 1, "temp_c": 95, "power_w": 100, "sm_clock_mhz": 900, "reasons": 8}], '
               '"env": {"CUDA_VISIBLE_DEVICES": "0", "VIRTUAL_ENV": "/v", "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, '
               '"gpu_processes": [{"pid": 77, "used_gb": 40, "kind": "compute"}], "bandwidth": {"ok": true, "gbps": 200}}')
    meminfo = "MemTotal:       127535936 kB\nMemFree:        100000000 kB\nMemAvailable:   110000000 kB\nSwapTotal: 0 kB\n"
    parts = [py, "Fatbin elf code:\n  arch = sm_90\nELF file 1: x.sm_90.cubin\nELF file 2: x.sm_121a.cubin\nPTX file 1: x.sm_90.ptx\n", "",
             "\0/usr/lib/aarch64-linux-gnu/libcudart.so.12\0libcudart.so.13\0/usr/local/cuda/lib64/libcudart.so.13\0", meminfo,
             "0::/docker/0123abcd\n", machine, "python\0train.py\0--tp\0002\0", "NCCL_P2P_DISABLE=1\0CUDA_VISIBLE_DEVICES=0\0"]
    for flags in (0, 1, 2, 4 | 16, 8):
        write("probe", bytes([flags]) + "\x1e".join(parts).encode())
    write("probe", b"\x00SPARKCHECK-JSON {\"python\": 3, \"torch\": [], \"dists\": 1}\n")
    write("probe", b"\x01SPARKCHECK-JSON {\"torch\": {\"arch_list\": [1, null]}}\x1e\x1e\x1e\x1eMemTotal: 99999999999999999999999 kB\n")
    write("probe", b"\x02SPARKCHECK-JSON " + b"[" * 300 + b"]" * 300 + b"\x1esm_.cubin sm_9999999999999a.ptx\x1e\x1e" + b"\x00/" * 50)


def cli_seeds():
    for argv in [["lint", ".", "--format", "sarif:out.sarif", "--format", "json", "--select", "G1,G9", "--ignore", "g2"],
                 ["lint", "--fix", "--diff"], ["lint", "-", "--stdin-filename", "Dockerfile", "--fix"],
                 ["lint", "--max-file-size", "1e300", "--sparks", "0", "-j", "65", "--fail-on", "nope"],
                 ["lint", "--extend-select", "G99", "--color", "always", "-vvq"], ["probe", "G3", "g5", "G1", "--need-gb", "nan"],
                 ["probe", "--sample-seconds", "-1", "--config", "a", "--config"], ["config", "--format", "json", "x", "y"],
                 ["rules", "--format", "markdown"], ["rule"], ["rule", "G1", "--format", "json"], ["completions", "fish"],
                 ["man"], ["server", "--x"], ["--version"], ["--help"], ["lnit"], ["lint", "--selekt", "G1"], [],
                 ["lint", "--output", "o", "-f", "json", "-f", "text"], ["lint", "--format=text:-", "--format=json:-"]]:
        write("cli", "\0".join(argv).encode())


if __name__ == "__main__":
    keep_cache = not any((ROOT / p).exists() for p in ("build-fuzz/fuzz_cache", "build/fuzz_smoke_cache"))
    for old in OUT.glob("*/*"):
        if not old.name.startswith("regress-") and not (keep_cache and old.parent.name == "cache"):
            old.unlink()
    parser_seeds()
    project_seeds()
    config_seeds()
    baseline_seeds()
    cache_seeds()
    git_index_seeds()
    git_config_seeds()
    gitignore_seeds()
    server_seeds()
    fix_seeds()
    probe_seeds()
    cli_seeds()
    for d in sorted(OUT.iterdir()):
        files = list(d.iterdir())
        print(f"{d.name}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")

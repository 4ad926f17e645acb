#!/usr/bin/env bash
# Issue 13 autofix: --fix, --unsafe-fixes, --diff; line endings, byte-order mark and file mode
# kept; notebooks edited inside their JSON strings; and over a copy of every fixture, a second
# --fix changes nothing and no fixable finding is left.
. "$(dirname "$0")/lib.bash"
P="$TMP/proj"
mkdir -p "$P"
lint() { (cd "$P" && "$SPARKCHECK" lint --color never --no-config "$@"); }
USE='CMD ["vllm", "serve", "nvidia/Qwen3-8B-NVFP4"]'
printf 'FROM nvcr.io/nvidia/pytorch:25.11-py3\nENV TORCH_CUDA_ARCH_LIST="12.0;12.1+PTX"\nRUN pip install --no-build-isolation .\n%s\n' "$USE" > "$P/Dockerfile"
cp "$P/Dockerfile" "$TMP/orig"

# text output marks the fixable finding and counts it
out="$(lint Dockerfile)"
check "text marks a fixable finding with [*]" grep -q 'warning\[G7\]: \[\*\] ' <<<"$out"
check "text summary: 1 fixable with --fix" grep -q '^\[\*\] 1 fixable with --fix\.$' <<<"$out"
# --diff: a unified diff, exit 1, nothing written
out="$(lint Dockerfile --diff)"; rc=$?
check "--diff exits 1 when something would change" [ "$rc" -eq 1 ]
check "--diff prints a unified diff" grep -q '^@@ -1,4 +1,4 @@$' <<<"$out"
check "--diff shows the old line" grep -qF -- '-ENV TORCH_CUDA_ARCH_LIST="12.0;12.1+PTX"' <<<"$out"
check "--diff shows the new line" grep -qF -- '+ENV TORCH_CUDA_ARCH_LIST="12.0;12.1a+PTX"' <<<"$out"
check "--diff writes nothing" cmp -s "$P/Dockerfile" "$TMP/orig"
mkdir -p "$TMP/pp" && cp "$P/Dockerfile" "$TMP/pp/" && printf '%s\n' "$out" > "$TMP/d.diff"
(cd "$TMP/pp" && patch -s -p1 < "$TMP/d.diff" >/dev/null 2>&1)
check "--diff output applies with patch -p1" grep -qF '12.0;12.1a+PTX' "$TMP/pp/Dockerfile"
# --fix: written, reported, gone; a second --fix changes nothing
out="$(lint Dockerfile --fix)"; rc=$?
check "--fix rewrites the arch list" grep -qF 'ENV TORCH_CUDA_ARCH_LIST="12.0;12.1a+PTX"' "$P/Dockerfile"
check "--fix reports Fixed 1 finding" grep -q '^Fixed 1 finding\.$' <<<"$out"
check "--fix: nothing left, exit 0" [ "$rc" -eq 0 ]
cp "$P/Dockerfile" "$TMP/fixed"
out="$(lint Dockerfile --fix)"
check "second --fix changes nothing" cmp -s "$P/Dockerfile" "$TMP/fixed"
check "second --fix reports Fixed 0 findings" grep -q '^Fixed 0 findings\.$' <<<"$out"
out="$(lint Dockerfile --diff)"; rc=$?
check "--diff after --fix: empty, exit 0" [ "$rc" -eq 0 -a -z "$out" ]

# CRLF line endings, a byte-order mark and the file mode survive
printf '\xEF\xBB\xBFnvcc -gencode arch=compute_121,code=sm_121 -o k k.cu\r\nvllm serve nvidia/Qwen3-8B-NVFP4\r\n' > "$P/build.sh"
chmod 750 "$P/build.sh"
mkdir -p "$TMP/bom" && cp "$P/build.sh" "$TMP/bom/"
lint build.sh --diff > "$TMP/bom.diff"
(cd "$TMP/bom" && patch -s -p1 < "$TMP/bom.diff" >/dev/null 2>&1)
lint build.sh --fix >/dev/null
check "CRLF + BOM: --diff applies with patch and gives what --fix wrote" cmp -s "$TMP/bom/build.sh" "$P/build.sh"
check "CRLF + BOM: -gencode rewritten, both kept" cmp -s "$P/build.sh" <(printf '\xEF\xBB\xBFnvcc -gencode arch=compute_121a,code=sm_121a -o k k.cu\r\nvllm serve nvidia/Qwen3-8B-NVFP4\r\n')
check "file mode kept (750)" [ "$(stat -c %a "$P/build.sh")" = 750 ]

# unsafe fixes: shown as hidden, applied only with --unsafe-fixes
printf '#!/bin/sh\npip install unsloth\n' > "$P/setup.sh"
out="$(lint setup.sh)"
check "unsafe fix is hidden without --unsafe-fixes" grep -q '0 fixable with --fix (1 hidden fix can be enabled with --unsafe-fixes)' <<<"$out"
lint setup.sh --fix >/dev/null
check "--fix leaves an unsafe fix alone" grep -qx 'pip install unsloth' "$P/setup.sh"
lint setup.sh --fix --unsafe-fixes >/dev/null
check "--fix --unsafe-fixes adds --no-deps" grep -qx 'pip install --no-deps unsloth' "$P/setup.sh"
printf 'FROM nvcr.io/nvidia/pytorch:24.10-py3\n' > "$P/Dockerfile.old"
lint Dockerfile.old --fix --unsafe-fixes >/dev/null
check "unsafe NGC fix: 24.10-py3 -> 25.11-py3" grep -qx 'FROM nvcr.io/nvidia/pytorch:25.11-py3' "$P/Dockerfile.old"

# G1: a cu12x PyTorch index becomes cu130 only when the pinned torch has cu130 wheels
printf -- '--extra-index-url https://download.pytorch.org/whl/cu128\ntorch==2.9.1\n' > "$P/requirements.txt"
printf -- '--extra-index-url https://download.pytorch.org/whl/cu128\ntorch==2.7.1\n' > "$P/requirements-old.txt"
lint requirements.txt requirements-old.txt --fix >/dev/null
check "cu128 -> cu130 with torch==2.9.1" grep -qx -- '--extra-index-url https://download.pytorch.org/whl/cu130' "$P/requirements.txt"
check "no fix with torch==2.7.1 (no cu130 wheels)" grep -qx -- '--extra-index-url https://download.pytorch.org/whl/cu128' "$P/requirements-old.txt"

# G2: FastLanguageModel -> FastModel, importing FastModel
printf 'from unsloth import FastLanguageModel\nmodel, tok = FastLanguageModel.from_pretrained(\n    "unsloth/Llama-3.2-3B-Instruct", load_in_4bit=True, attn_implementation="sdpa")\n' > "$P/train.py"
lint train.py --fix >/dev/null
check "G2 fix imports FastModel" grep -qx 'from unsloth import FastLanguageModel, FastModel' "$P/train.py"
check "G2 fix calls FastModel.from_pretrained" grep -q '^model, tok = FastModel.from_pretrained($' "$P/train.py"
out="$(lint train.py --format concise)"
check "G2 finding gone after the fix" bash -c '! grep -q G2 <<<"$1"' _ "$out"

# overlapping fixes: the second waits for the next pass (one import, one --no-deps)
mkdir -p "$P/ov"
printf '#!/bin/sh\npip install unsloth unsloth_zoo\n' > "$P/ov/s.sh"
printf 'from unsloth import FastLanguageModel\na = FastLanguageModel.from_pretrained("unsloth/Llama-3.2-3B-Instruct", attn_implementation="sdpa")\nb = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", attn_implementation="sdpa")\n' > "$P/ov/t.py"
cp -r "$P/ov" "$TMP/ov-patched"
lint ov --diff --unsafe-fixes -q > "$TMP/ov.diff"
(cd "$TMP/ov-patched" && patch -s -p2 < "$TMP/ov.diff" >/dev/null 2>&1)
out="$(lint ov --fix --unsafe-fixes)"; rc=$?
check "overlapping fixes: --diff shows both passes (patch gives what --fix wrote)" diff -r "$TMP/ov-patched" "$P/ov"
check "overlapping fixes: one --no-deps" grep -qx 'pip install --no-deps unsloth unsloth_zoo' "$P/ov/s.sh"
check "overlapping fixes: FastModel imported once" grep -qx 'from unsloth import FastLanguageModel, FastModel' "$P/ov/t.py"
check "overlapping fixes: both calls fixed (second pass)" [ "$(grep -c '= FastModel.from_pretrained' "$P/ov/t.py")" -eq 2 ]
check "overlapping fixes: nothing left, exit 0" [ "$rc" -eq 0 ]

# notebooks: the edit lands inside the cell's JSON string and the notebook stays valid JSON
cp "$SC_SOURCE_DIR/fixtures/G7/nvfp4-notebook.ipynb" "$P/nb.ipynb"
lint nb.ipynb --fix >/dev/null
check "notebook fixed inside the JSON string" grep -qF '"!TORCH_CUDA_ARCH_LIST=12.1a pip install' "$P/nb.ipynb"
check "notebook still valid JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$P/nb.ipynb"

# JSON and SARIF carry the fixes
printf 'FROM x\nENV TORCH_CUDA_ARCH_LIST="12.1"\n%s\n' "$USE" > "$P/Dockerfile"
check "JSON fixes: title, applicability, edits" python3 - "$(lint Dockerfile --format json)" <<'PY'
import json, sys
f = [x for x in json.loads(sys.argv[1])["findings"] if x["rule"] == "G7"][0]
fx = f["fixes"][0]
assert fx["applicability"] == "safe" and fx["title"], fx
e = fx["edits"][0]
assert (e["line"], e["column"], e["end_line"], e["end_column"], e["content"], e["old"]) == (2, 27, 2, 31, "12.1a", "12.1"), e
PY
if [ -x "$MULTITOOL" ]; then
  lint Dockerfile setup.sh --format sarif -o "$TMP/fix.sarif"
  check "SARIF with fixes validates" sarif_validate "$TMP/fix.sarif"
  check "SARIF carries artifactChanges" grep -q '"artifactChanges"' "$TMP/fix.sarif"
fi

# every fixture: --diff applied with patch gives exactly what --fix writes (all passes)
cp -r "$SC_SOURCE_DIR/fixtures" "$TMP/fx"
cp -r "$SC_SOURCE_DIR/fixtures" "$TMP/fp"
with_diff=0 bad_patch=0
for c in "$TMP"/fx/*/*; do
  c="${c#"$TMP/fx/"}"
  d="$(cd "$TMP/fx/$(dirname "$c")" && "$SPARKCHECK" lint "$(basename "$c")" --no-config --diff --unsafe-fixes -q 2>/dev/null)"
  [ -z "$d" ] && continue
  with_diff=$((with_diff + 1))
  (cd "$TMP/fp/$(dirname "$c")" && patch -s -p1 --no-backup-if-mismatch <<<"$d" >/dev/null 2>&1) || { echo "patch failed: $c"; bad_patch=$((bad_patch + 1)); }
done
check "every fixture's --diff applies with patch -p1 ($with_diff with fixes)" [ "$bad_patch" -eq 0 -a "$with_diff" -gt 0 ]

# every fixture: --fix twice; the second changes nothing and no fixable finding is left
cd "$TMP/fx"
bad=0
for c in */*; do
  (cd "$(dirname "$c")" && "$SPARKCHECK" lint "$(basename "$c")" --no-config --fix --unsafe-fixes -q --format json >/dev/null 2>&1)
  d="$(cd "$(dirname "$c")" && "$SPARKCHECK" lint "$(basename "$c")" --no-config --diff --unsafe-fixes -q 2>/dev/null)"
  left="$(cd "$(dirname "$c")" && "$SPARKCHECK" lint "$(basename "$c")" --no-config --unsafe-fixes --format json 2>/dev/null | python3 -c 'import json,sys; print(sum(1 for f in json.load(sys.stdin)["findings"] if f.get("fixes") and not f["suppressed"]))')"
  if [ -n "$d" ] || [ "$left" != 0 ]; then echo "not idempotent: $c"; echo "$d" | head -20; bad=$((bad + 1)); fi
done
check "every fixture: a second --fix changes nothing, no fixable finding left" [ "$bad" -eq 0 ]
changed="$(diff -rq "$SC_SOURCE_DIR/fixtures" "$TMP/fx" | wc -l)"
check "some fixtures were fixed" [ "$changed" -gt 0 ]
check "every fixture: patch with --diff's output == --fix's result" diff -r "$TMP/fp" "$TMP/fx"
finish

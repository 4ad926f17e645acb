# A launch recipe's command has its `{key}` placeholders filled from `defaults:`. Hostile
# recipes: words made of thousands of placeholders (each default is related once per word, not
# once per use) and unclosed `{name` runs (scanned once, not once per brace); a large one hits
# the parse budget with a notification, and a normal recipe beside them is still judged.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
mkdir -p repo
python3 - <<'PY'
line = '  vllm serve m ' + ('{p}x{zz}' * 2000 + ' ') * 5 + ' --tp {p}\n'
open('repo/many.yaml', 'w').write('defaults:\n  p: 2\ncommand: |\n' + line * 60)
open('repo/some.yaml', 'w').write('defaults:\n  p: 2\ncommand: |\n' + line * 2)
open('repo/open.yaml', 'w').write('defaults:\n  p: 2\ncommand: |\n  vllm serve m --x ' + '{pp' * 4000 + '\n')
open('repo/ok.yaml', 'w').write('defaults:\n  tensor_parallel: 2\ncommand: |\n  vllm serve m --tensor-parallel-size {tensor_parallel}\n')
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'ok.yaml' "$T/r.json"
has 'many.yaml' "$T/r.json"  # the budget notification names it

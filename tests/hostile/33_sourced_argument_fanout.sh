# A script that sources its argument (`source "$1"`) is read again once per settings file the
# project passes it. A 1 MB script passed 40 recipes, and 1,200 such scripts called from one
# file, must not multiply the work: at most 16 readings and 1 MiB of script text re-read per
# script (the 1 MB script is read once more), and the calls are indexed once for all scripts
# (a scan of every command per script took 2.2 s and 340 MB here; now about 1.5 s and 130 MB).
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
mkdir -p repo/r
repeat_into repo/serve.sh $'source "$1"\n' $'vllm serve "$MODEL" --tensor-parallel-size "$TP" --max-model-len 8192\n' 15000 ''
python3 - <<'PY'
for i in range(40):
    open(f'repo/r/{i}.env', 'w').write(f'MODEL=m{i}\nTP={1 + i % 2}\n')
open('repo/README.md', 'w').write('```bash\n' + ''.join(f'./serve.sh r/{i}.env\n' for i in range(40)) * 50 + '```\n')
for k in range(1200):
    open(f'repo/s{k}.sh', 'w').write('. "$1"\nvllm serve "$MODEL" --tensor-parallel-size "$TP"\n')
open('repo/calls.sh', 'w').write(''.join(f'bash s{k}.sh r/{k % 40}.env\n' for k in range(1200)) * 20)
PY
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'r/1.env' "$T/r.json"    # TP=2 in a recipe: reported where it is written
hasnt 'r/0.env' "$T/r.json"  # TP=1

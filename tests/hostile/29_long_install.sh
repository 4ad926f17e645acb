# One install command naming thousands of requirements and indexes (a 1.4 MB line): G1's
# cu130 fix looked at every package for every index and G2 at every index for every
# flash-attn requirement, so the run grew with the square of the line (16,000 copies: minutes).
# Now each is judged once per install: linear. G7 once asked "is this a naming command or a
# server's client?" (a scan of the whole line) for every word of it: 383 s; now once per command.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
W='pip install torch flash-attn vllm==0.1 --index-url https://download.pytorch.org/whl/cu121 '
repeat_into repo/x.sh '' "$W" 16000 $'\n'
repeat_into repo/README.md $'```bash\n' "$W" 4000 $'\n```\n'
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has '"G1"' "$T/r.json"
has '"G2"' "$T/r.json"
has 'README.md' "$T/r.json"

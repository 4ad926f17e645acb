# One install command naming thousands of requirements and indexes (a 1.4 MB line): G1's
# cu130 fix looked at every package for every index and G2 at every index for every
# flash-attn requirement, so the run grew with the square of the line (16,000 copies: minutes).
# Now each is judged once per install: linear.
. "$(dirname "$0")/lib.bash"
LIMIT_S=30
python3 -c "
w = 'pip install torch flash-attn vllm==0.1 --index-url https://download.pytorch.org/whl/cu121 '
open('repo/x.sh', 'w').write(w * 16000 + '\n')
open('repo/README.md', 'w').write('\`\`\`bash\n' + w * 4000 + '\n\`\`\`\n')"
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has '"G1"' "$T/r.json"
has '"G2"' "$T/r.json"
has 'README.md' "$T/r.json"

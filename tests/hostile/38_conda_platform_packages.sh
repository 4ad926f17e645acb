# Whether a conda environment was exported on another platform (ld_impl_linux-64) is asked for
# every package G1/G9 judge; reading the file's conda packages each time made a file of 10,000
# conda and 10,000 pip entries take 14 s. It is now read once per file: well under a second.
. "$(dirname "$0")/lib.bash"
LIMIT_S=10
mkdir -p repo
repeat_into repo/environment.yml $'channels: [conda-forge]\ndependencies:\n' $'  - pkg=1.0\n' 10000 $'  - pip:\n'
repeat_into repo/tail.txt '' $'      - transformers\n' 10000 ''
cat repo/tail.txt >> repo/environment.yml && rm repo/tail.txt
lim lint repo -f json -o "$T/r.json"
finished
valid_json "$T/r.json"
has 'environment.yml' "$T/r.json"  # the pip entries are still judged

# Row 13: a .sparkcheck.yaml above the repository root (or $HOME) does not govern
# it; the configuration in use is named in text output and SARIF.
. "$(dirname "$0")/lib.bash"
printf 'exclude: ["**"]\n' > .sparkcheck.yaml
printf 'torch==2.5.1\n' > repo/requirements.txt
lim lint repo
finished
has '1 file' "$T/out"
hasnt 'Configuration:' "$T/out"
mkdir -p home/proj && printf 'exclude: ["**"]\n' > home/.sparkcheck.yaml
printf 'torch==2.5.1\n' > home/proj/requirements.txt
HOME="$T/home/proj" lim lint home/proj
finished
has '1 file' "$T/out"
printf 'ignore: [G7]\n' > repo/.sparkcheck.yaml
lim lint repo
has 'Configuration:' "$T/out"
lim lint repo -f sarif -o "$T/r.sarif"
has 'configurationFile' "$T/r.sarif"

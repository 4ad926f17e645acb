# Row 3: symlinks out of the tree, to /, to devices: never followed or opened.
. "$(dirname "$0")/lib.bash"
mkdir -p outside && printf 'import torch\nSECRET_OUTSIDE = 1\n' > outside/secret.py
ln -s "$T/outside" repo/out_dir
ln -s "$T/outside/secret.py" repo/secret.py
ln -s / repo/root
ln -s /dev/zero repo/zero.py
ln -s /dev/tty repo/tty
echo 'import os' > repo/ok.py
lim lint repo -f sarif -o "$T/r.sarif"
finished
hasnt 'SECRET_OUTSIDE' "$T/r.sarif"
lim lint repo
finished
hasnt 'SECRET_OUTSIDE' "$T/out"
has "outside the linted tree" "$T/out"
has '1 file' "$T/out"

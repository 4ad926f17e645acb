# --follow-symlinks (issue 11, item 3): links whose real target stays inside the
# linted directories are followed; cycles are reported; anything outside, or a
# device, is never followed; without the option nothing is followed.
. "$(dirname "$0")/lib.bash"
mkdir -p outside repo/vendor/pkg repo/sub
printf 'import torch\nSECRET_OUTSIDE = 1\n' > outside/secret.py
printf 'vendor/\n' > repo/.gitignore
printf 'torch==2.5.1+cu124\n' > repo/vendor/pkg/requirements.txt
printf 'import os\n' > repo/vendor/tool.py
echo 'import os' > repo/ok.py
ln -s vendor/pkg repo/deps              # a directory inside (its target is ignored)
ln -s vendor/tool.py repo/tool_link.py  # a file inside
ln -s deps repo/chain                   # a link to a link to a directory inside
ln -s .. repo/sub/up                    # a cycle: the link's own ancestor
ln -s . repo/self                       # a cycle: its own directory
ln -s "$T/outside" repo/out_dir         # outside: never followed
ln -s "$T/outside/secret.py" repo/secret.py
ln -s / repo/root
ln -s /dev/zero repo/zero.py

# default: nothing followed
lim lint repo --show-files
finished
hasnt 'deps/requirements.txt' "$T/out"
hasnt 'tool_link.py' "$T/out"

lim lint repo --follow-symlinks --show-files
finished
has 'ok.py' "$T/out"
has 'tool_link.py' "$T/out"
# the directory is listed once, under the first link that reaches it
grep -qE '^repo/(chain|deps)/requirements.txt$' "$T/out" || { show; fail "linked directory not walked"; }
[ "$(grep -c 'requirements.txt' "$T/out")" = 1 ] || { show; fail "a file listed twice"; }
hasnt 'secret.py' "$T/out"
hasnt 'zero.py' "$T/out"
hasnt 'up/' "$T/out"

lim lint repo --follow-symlinks -f sarif -o "$T/r.sarif"
finished
hasnt 'SECRET_OUTSIDE' "$T/r.sarif"
lim lint repo --follow-symlinks
finished
has 'symbolic link cycle' "$T/out"
has 'outside the linted tree' "$T/out"
hasnt 'SECRET_OUTSIDE' "$T/out"
# the followed requirements file is linted: its finding is reported under the link's path
grep -qE '^repo/(chain|deps)/requirements.txt:1' "$T/out" || { show; fail "no finding in the linked file"; }

# a link into a second named directory is inside the linted roots too
mkdir -p other && printf 'torch==2.5.1+cu124\n' > other/requirements.txt
mkdir -p first && ln -s "$T/other" first/o
lim lint first other --follow-symlinks --show-files
finished
[ "$(grep -c 'requirements.txt' "$T/out")" = 1 ] || { show; fail "a file in two roots listed twice"; }
hasnt 'outside the linted tree' "$T/err"

# core.excludesFile (docs/gitignore.md): read from the repository's own
# .git/config, else git's default $XDG_CONFIG_HOME/git/ignore; lowest precedence;
# never a git process; a special file there is reported, never waited on.
. "$(dirname "$0")/lib.bash"
export HOME="$T/home" XDG_CONFIG_HOME="$T/xdg"
mkdir -p home xdg/git repo/secret repo/keep
for d in secret keep; do printf 'torch\n' > "repo/$d/requirements.txt"; done
printf 'import os\n' > repo/run.py

# 1. core.excludesFile with "~/", odd case, a quoted value and a comment
printf '[core]\n\tbare\n\tExcludesFile = "~/my ignore" ; comment\n[core "sub"]\n\texcludesfile = nothing\n' > repo/.git/config
printf 'secret/\n' > "home/my ignore"
lim lint repo --show-files
finished
hasnt 'secret/requirements.txt' "$T/out"
has 'keep/requirements.txt' "$T/out"
lim lint repo --show-files --no-ignore
has 'secret/requirements.txt' "$T/out"

# 2. .gitignore overrides it ("!" re-includes)
printf '!secret/\n' > repo/.gitignore
lim lint repo --show-files
has 'secret/requirements.txt' "$T/out"
rm repo/.gitignore

# 3. not set: git's default global ignore file under $XDG_CONFIG_HOME
printf '[core]\n\tbare = true\n' > repo/.git/config
printf '*.py\n' > xdg/git/ignore
lim lint repo --show-files
finished
hasnt 'run.py' "$T/out"
has 'secret/requirements.txt' "$T/out"
# ... and $HOME/.config/git/ignore when XDG_CONFIG_HOME is unset
mkdir -p home/.config/git && printf 'keep/\n' > home/.config/git/ignore
(unset XDG_CONFIG_HOME; lim lint repo --show-files; cp "$T/out" "$T/out.home")
hasnt 'keep/requirements.txt' "$T/out.home"
# ... and an empty core.excludesFile turns the default off
printf '[core]\nexcludesfile =\n' > repo/.git/config
lim lint repo --show-files
has 'run.py' "$T/out"

# 4. outside a repository no global ignore file applies (as git)
mkdir -p norepo && printf 'import os\n' > norepo/a.py
lim lint norepo --show-files
has 'a.py' "$T/out"

# 5. a FIFO, a device or a directory as the excludes file: reported, the lint goes on
mkfifo fifo
for target in "$T/fifo" /dev/zero "$T/home"; do
  printf '[core]\nexcludesFile = %s\n' "$target" > repo/.git/config
  LIMIT_S=20 lim lint repo --show-files
  finished
  has 'keep/requirements.txt' "$T/out"
  LIMIT_S=20 lim lint repo
  finished
  has 'core.excludesFile' "$T/out"
done

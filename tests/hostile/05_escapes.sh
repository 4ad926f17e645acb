# Row 5: names and content with newlines, '::' workflow commands, ANSI/OSC
# escapes: text and concise print them escaped; no line starts with '::'.
. "$(dirname "$0")/lib.bash"
mkdir -p repo/d
name=$'x\n::error file=a::pwned\e]0;title\a\e[31m.txt'
printf 'torch==2.5.1\n' > "repo/d/requirements$name"
printf 'torch==2.5.1  # \e[2J\e]0;t\a\n' > repo/requirements.txt
printf 'nvidia-modelopt\n' > "repo/::warning::x.txt"
for fmt in text concise; do
  lim lint repo -f $fmt --no-config
  finished
  LC_ALL=C grep -q $'\e' "$T/out" && fail "$fmt: raw ESC in output"
  grep -q '^::' "$T/out" && fail "$fmt: a line starts with ::"
  LC_ALL=C grep -q $'\a' "$T/out" && fail "$fmt: raw BEL in output"
done
lim lint repo -f github
finished
LC_ALL=C grep -q $'\e' "$T/out" && fail "github: raw ESC in output"
true

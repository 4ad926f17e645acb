# Row 11: the probe's spawn deadline holds when the child closes its pipes and
# keeps running; `probe --config FIFO` does not hang.
. "$(dirname "$0")/lib.bash"
"${SC_SPAWN_TEST:?}" || fail "spawn deadline"
mkfifo cfg.yaml
LIMIT_S=20 lim probe --config cfg.yaml
expect_rc 2
has 'FIFO' "$T/err"

#!/usr/bin/env bash
# usage: scripts/wheel-check.sh WHEEL VERSION
# Installs WHEEL with pip (no index) from a fresh venv and runs the sparkcheck it
# installs: `sparkcheck --version` must print "sparkcheck VERSION".
# A wheel for this machine's arch goes into the venv and is found on PATH. An
# aarch64 wheel on another host is installed with pip's --platform/--target (pip
# puts no foreign wheel into a venv) and its binary runs under qemu-aarch64 (no
# binfmt_misc needed). Exit 77 when that needs qemu and there is none.
set -euo pipefail
whl="$(realpath "$1")"; want="sparkcheck $2"
plat="${whl##*-py3-none-}"; plat="${plat%.whl}"; arch="${plat#manylinux_2_*_}"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
t="$(mktemp -d)"; trap 'rm -rf "$t"' EXIT
"$py" -m venv "$t/venv"
pip=("$t/venv/bin/pip" install -q --no-index --disable-pip-version-check)
if [ "$arch" = "$(uname -m)" ]; then
  "${pip[@]}" "$whl"
  how="fresh venv, sparkcheck on PATH"
  got="$(cd / && env -i PATH="$t/venv/bin:/usr/bin:/bin" sparkcheck --version)"
elif [ "$arch" = aarch64 ]; then
  qemu="$(command -v qemu-aarch64-static || command -v qemu-aarch64)" || { echo "wheel-check: SKIP (no qemu-aarch64)"; exit 77; }
  "${pip[@]}" --only-binary=:all: --platform "$plat" --target "$t/site" "$whl"
  how="pip --platform $plat --target, binary run under $(basename "$qemu")"
  got="$(cd / && "$qemu" -L /usr/aarch64-linux-gnu "$t/site/bin/sparkcheck" --version)"
else
  echo "wheel-check: cannot run a $arch wheel on $(uname -m)" >&2; exit 2
fi
echo "wheel-check: $(basename "$whl") ($how): $got"
[ "$got" = "$want" ]

#!/usr/bin/env bash
# usage: scripts/wheel.sh BINARY VERSION OUTDIR
# Builds the `sparkcheck` wheel that carries BINARY (python/setup.py, Debian's
# python3-setuptools and python3-wheel, no network). Its platform tag comes from
# the binary: its ELF machine and the newest glibc symbol version it needs
# (objdump -T), e.g. manylinux_2_36_x86_64. The wheel records the source commit
# ($SPARKCHECK_COMMIT, else this checkout's HEAD) for the pre-commit hook. Prints the wheel's path.
set -euo pipefail
bin="$(realpath "$1")"; version="$2"; out="$(realpath -m "$3")"
src="$(cd "$(dirname "$0")/.." && pwd)"
case "$(file -b "$bin")" in
  *x86-64*) arch=x86_64 ;;
  *aarch64*|*ARM\ aarch64*) arch=aarch64 ;;
  *) echo "wheel.sh: $bin is neither x86-64 nor aarch64" >&2; exit 2 ;;
esac
objdump="objdump"; [ "$arch" = aarch64 ] && command -v aarch64-linux-gnu-objdump >/dev/null && objdump=aarch64-linux-gnu-objdump
floor="$("$objdump" -T "$bin" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1 | cut -d. -f2)"
plat="manylinux_2_${floor:-17}_${arch}"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3   # Debian's, with python3-setuptools/-wheel
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp -r "$src/python/setup.py" "$src/python/README.md" "$src/python/sparkcheck_wheel" "$work/"
mkdir -p "$out"
commit="${SPARKCHECK_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || true)}"
(cd "$work" && SPARKCHECK_COMMIT="$commit" SPARKCHECK_BINARY="$bin" SPARKCHECK_VERSION="$version" SPARKCHECK_PLATFORM="$plat" \
   "$py" setup.py -q bdist_wheel -d "$out" >/dev/null 2>&1) || { echo "wheel.sh: bdist_wheel failed" >&2; exit 1; }
ls "$out"/sparkcheck-"${version}"-py3-none-"$plat".whl

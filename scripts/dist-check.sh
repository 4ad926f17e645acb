#!/usr/bin/env bash
# usage: scripts/dist-check.sh [DIR]   (default dist/)
# Checks what scripts/dist.sh left: every artifact for each arch, SHA256SUMS right,
# binaries of the right machine that only need glibc and run (aarch64 through
# qemu-aarch64 when there is no binfmt), wheels that install into a fresh venv and
# put a working `sparkcheck` on PATH, .debs with the right fields and, when lintian
# is installed, no lintian error or warning.
set -uo pipefail
D="$(realpath "${1:-dist}")"
FAILS=0
ok() { echo "ok   - $*"; }
check() { local what="$1"; shift; if "$@" >/dev/null 2>&1; then ok "$what"; else echo "FAIL - $what"; FAILS=$((FAILS + 1)); fi; }
qemu="$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)"
check "SHA256SUMS verifies" bash -c 'cd "$1" && sha256sum -c --quiet SHA256SUMS' _ "$D"
for arch in ${SPARKCHECK_DIST_ARCHES:-x86_64 aarch64}; do
  case "$arch" in x86_64) debarch=amd64 elf=x86-64 run=() ;; aarch64) debarch=arm64 elf=aarch64 run=("$qemu" -L /usr/aarch64-linux-gnu) ;; esac
  bin="$(ls "$D"/sparkcheck-*-linux-"$arch" 2>/dev/null | head -1)"
  check "$arch: binary present" [ -n "$bin" ] || continue
  v="${bin##*/sparkcheck-}"; v="${v%-linux-$arch}"
  check "$arch: ELF $elf, stripped" bash -c 'file -b "$1" | grep -q "$2.*stripped" && ! file -b "$1" | grep -q "not stripped"' _ "$bin" "$elf"
  check "$arch: separate debug file" [ -s "$bin.debug" ]
  check "$arch: only glibc is dynamic" bash -c '[ -z "$(objdump -p "$1" | awk "/NEEDED/ {print \$2}" | grep -Ev "^(libc|libm|ld-linux.*|libdl|libpthread)\.so")" ]' _ "$bin"
  if [ "$arch" = x86_64 ] || [ -n "$qemu" ]; then
    check "$arch: --version prints $v" bash -c '"${@:2}" "$1" --version | grep -qx "sparkcheck $0"' "$v" "$bin" "${run[@]}"
  fi
  floor="$(objdump -T "$bin" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1)"
  echo "note: $arch glibc floor: $floor"
  whl="$D/sparkcheck-$v-py3-none-manylinux_2_${floor#GLIBC_2.}_$arch.whl"
  check "$arch: wheel tagged from the glibc floor ($(basename "$whl"))" [ -f "$whl" ]
  if [ -f "$whl" ] && { [ "$arch" = "$(uname -m)" ] || [ -n "$qemu" ]; }; then
    check "$arch: pip install of the wheel gives a sparkcheck that runs" "$(dirname "$0")/wheel-check.sh" "$whl" "$v"
  fi
  deb="$D/sparkcheck_${v}_$debarch.deb"
  check "$arch: .deb present" [ -f "$deb" ] || continue
  check "$arch: .deb Architecture $debarch" bash -c '[ "$(dpkg-deb -f "$1" Architecture)" = "$2" ]' _ "$deb" "$debarch"
  check "$arch: .deb Depends only on libc6 (>= 2.N)" bash -c 'dpkg-deb -f "$1" Depends | grep -Eqx "libc6 \(>= 2\.[0-9]+\)"' _ "$deb"
  check "$arch: .deb has man page, copyright, changelog" bash -c 'c="$(dpkg-deb -c "$1")"; for f in man/man1/sparkcheck.1.gz doc/sparkcheck/copyright doc/sparkcheck/changelog.gz; do grep -q "/usr/share/$f\$" <<<"$c" || exit 1; done' _ "$deb"
  if command -v lintian >/dev/null; then
    l="$(lintian "$deb" 2>&1 | grep -v 'root privileges')"
    echo "note: lintian $(basename "$deb"): ${l:-no tags}" | sed '2,$s/^/      /'
    check "$arch: lintian has no error or warning" bash -c '! grep -Eq "^[EW]: " <<<"$1"' _ "$l"
  fi
done
echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]

#!/usr/bin/env bash
# Installs what cross-compiling sparkcheck for aarch64 needs: Debian's cross
# compiler and qemu (to run the tests), and the arm64 builds of the C++ libraries.
# The libraries are unpacked into a private root (default build-arm64-root/,
# or $SPARKCHECK_ARM64_ROOT) rather than installed as multiarch :arm64 packages,
# because libyaml-cpp-dev is not Multi-Arch: same: installing libyaml-cpp-dev:arm64
# would remove the amd64 one. cmake/toolchain-aarch64.cmake reads that root.
# Safe to re-run. Exit 77 when the packages cannot be had (CI skips then).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="${SPARKCHECK_ARM64_ROOT:-$PWD/build-arm64-root}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

# (python3-* and file: the aarch64 wheel that scripts/arm64-test.sh builds and installs)
HOST_PKGS=(g++-aarch64-linux-gnu qemu-user-static file python3-setuptools python3-wheel python3-venv)
LIBS=(libyaml-cpp-dev libyaml-cpp0.7 libre2-dev libre2-9 libtree-sitter-dev libtree-sitter0
      libcmark-dev libcmark0.30.2 libsodium-dev libsodium23 libtomlplusplus-dev catch2 nlohmann-json3-dev libcli11-dev)

missing=()
for p in "${HOST_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64
  updated=1
fi
if [ ${#missing[@]} -gt 0 ] || [ "$updated" = 1 ]; then
  echo "arm64-deps: installing ${missing[*]:-(arm64 package lists)}"
  $SUDO apt-get update -qq || { echo "arm64-deps: apt-get update failed"; exit 77; }
  if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
      || { echo "arm64-deps: cannot install ${missing[*]}"; exit 77; }
  fi
fi

if [ -f "$ROOT/.complete" ]; then exit 0; fi
debs="$ROOT.debs"
rm -rf "$ROOT" "$debs"; mkdir -p "$ROOT" "$debs"
names=()
for p in "${LIBS[@]}"; do
  case "$p" in nlohmann-json3-dev|libcli11-dev) names+=("$p") ;; *) names+=("$p:arm64") ;; esac
done
(cd "$debs" && apt-get download -qq "${names[@]}") || { echo "arm64-deps: cannot download arm64 libraries"; exit 77; }
for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$ROOT"; done
rm -rf "$debs"
touch "$ROOT/.complete"
echo "arm64-deps: libraries unpacked in $ROOT"

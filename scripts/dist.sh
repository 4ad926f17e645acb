#!/usr/bin/env bash
# Builds every release artifact into dist/:
#   sparkcheck-VERSION-linux-x86_64 and -linux-aarch64  self-contained binaries (+ .debug)
#   sparkcheck-VERSION-py3-none-manylinux_2_NN_ARCH.whl  one wheel per arch
#   sparkcheck_VERSION_amd64.deb, sparkcheck_VERSION_arm64.deb
#   SHA256SUMS
# Installs what it needs (scripts/setup.sh, scripts/arm64-deps.sh). Uses the preset
# build folders (build-release, build-arm64), so a second run only relinks.
# SPARKCHECK_DIST_ARCHES="x86_64" limits it to one architecture.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
need=()
for p in python3-setuptools python3-wheel file; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
rm -rf dist; mkdir -p dist

one_arch() {  # one_arch ARCH PRESET DEBARCH
  local arch="$1" preset="$2" debarch="$3" dir="build-$2"
  echo "dist: building $arch ($preset preset)"
  cmake --preset "$preset" "${launcher[@]}" >/dev/null
  cmake --build "$dir" -j"${JOBS:-$(nproc)}" --target sparkcheck sparkcheck_man
  local v; v="$(cat "$dir/VERSION")"
  cp "$dir/sparkcheck" "dist/sparkcheck-$v-linux-$arch"
  cp "$dir/sparkcheck.debug" "dist/sparkcheck-$v-linux-$arch.debug"
  scripts/wheel.sh "$dir/sparkcheck" "$v" dist >/dev/null
  rm -rf "$dir/_dist_deb"
  (cd "$dir" && cpack -G DEB -B _dist_deb >/dev/null)
  cp "$dir/_dist_deb/sparkcheck_${v}_${debarch}.deb" dist/
}
for arch in ${SPARKCHECK_DIST_ARCHES:-x86_64 aarch64}; do
  case "$arch" in
    x86_64) one_arch x86_64 release amd64 ;;
    aarch64) scripts/arm64-deps.sh; one_arch aarch64 arm64 arm64 ;;
    *) echo "dist: unknown arch $arch" >&2; exit 2 ;;
  esac
done
(cd dist && sha256sum -- * > SHA256SUMS)
echo "dist: $(ls dist | wc -l) files"; ls -l dist

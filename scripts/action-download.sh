#!/usr/bin/env bash
# The GitHub Action's "Get sparkcheck" step. Writes to $GITHUB_OUTPUT either
#   bin=PATH    the given binary, or the release binary for this runner (Linux X64 or
#               ARM64), downloaded and checked against the release's SHA256SUMS, or
#   build=true  no release binary fits (no version, other OS, download failed): the
#               action builds from source (cached).
# A binary whose checksum does not match fails the step.
# env: SC_GIVEN (input sparkcheck), SC_VERSION (input version), SC_ACTION_REF, SC_REPO,
#      SC_ARCH (runner.arch), RUNNER_OS, RUNNER_TEMP; SC_DOWNLOAD_BASE for tests.
set -euo pipefail
out="${GITHUB_OUTPUT:?}"
if [ -n "${SC_GIVEN:-}" ]; then echo "bin=$SC_GIVEN" >> "$out"; exit 0; fi
build() {
  echo "::notice title=sparkcheck::$1; building sparkcheck from source (cached after the first run)"
  echo "build=true" >> "$out"; exit 0
}
version="${SC_VERSION:-}"
if [ -z "$version" ] && [[ "${SC_ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then version="$SC_ACTION_REF"; fi
version="${version#v}"
arch=""
case "${RUNNER_OS:-Linux}/${SC_ARCH:-X64}" in
  Linux/X64) arch=x86_64 ;;
  Linux/ARM64) arch=aarch64 ;;
esac
[ -n "$version" ] || build "no release to download (set input 'version', or use the action at a vX.Y.Z tag)"
[ -n "$arch" ] || build "no release binary for ${RUNNER_OS:-?}/${SC_ARCH:-?}"
base="${SC_DOWNLOAD_BASE:-https://github.com/${SC_REPO:-sparkcheck/sparkcheck}/releases/download}/v$version"
name="sparkcheck-$version-linux-$arch"
dir="${RUNNER_TEMP:-/tmp}/sparkcheck-$version"
mkdir -p "$dir"
if ! curl -fsSL --retry 3 -o "$dir/$name" "$base/$name" || ! curl -fsSL --retry 3 -o "$dir/SHA256SUMS" "$base/SHA256SUMS"; then
  build "could not download $name from release v$version"
fi
want="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$dir/SHA256SUMS")"
got="$(sha256sum "$dir/$name" | cut -d' ' -f1)"
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  echo "::error title=sparkcheck::checksum of $name does not match the release's SHA256SUMS"
  rm -f "$dir/$name"; exit 1
fi
chmod +x "$dir/$name"
echo "sparkcheck: using release binary $name (sha256 $got)"
echo "bin=$dir/$name" >> "$out"

#!/usr/bin/env bash
# `cmake --install` to a clean prefix gives a binary that runs on its own (no
# build tree, no source tree) plus its docs; `cpack -G DEB` packages the same.
. "$(dirname "$0")/lib.bash"
: "${SC_BUILD_DIR:?set by ctest}"
P="$TMP/prefix"
cmake --install "$SC_BUILD_DIR" --prefix "$P" >"$TMP/install.log" 2>&1; rc=$?
check "cmake --install succeeds" [ "$rc" -eq 0 ] || cat "$TMP/install.log"
check "binary installed" [ -x "$P/bin/sparkcheck" ]
check "rule docs installed" [ -f "$P/share/doc/sparkcheck/rules/README.md" ]
check "README installed" [ -f "$P/share/doc/sparkcheck/README.md" ]
check "no RPATH into the build tree" bash -c '! readelf -d "$1" 2>/dev/null | grep -E "R(UN)?PATH" | grep -q "$2"' _ "$P/bin/sparkcheck" "$SC_BUILD_DIR"
# run it from an unrelated directory with a minimal environment
mkdir -p "$TMP/work"
printf 'num_machines: 2\nparallelism_config:\n  parallelism_config_tp_size: 2\n' > "$TMP/work/accelerate.yaml"
# (a cross build runs the aarch64 binary through $SC_EMULATOR, i.e. qemu)
run() { (cd "$TMP/work" && env -i PATH=/usr/bin:/bin HOME="$TMP" ${SC_EMULATOR:-} "$P/bin/sparkcheck" "$@"); }
out="$(run --version)"; rc=$?
check "installed --version runs" [ "$rc" -eq 0 ]
check "--version names the tool" grep -q '^sparkcheck ' <<<"$out"
check "installed rules lists rules" [ "$(run rules | wc -l)" -ge 1 ]
run lint --format json > "$TMP/lint.json"; rc=$?
check "installed lint runs (exit 0 or 1)" [ "$rc" -le 1 ]
check "installed lint writes JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/lint.json"

# .deb through CPack (needs cpack + dpkg-deb; dpkg-shlibdeps fills Depends when present)
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null && [ -f "$SC_BUILD_DIR/CPackConfig.cmake" ]; then
  cpack -G DEB --config "$SC_BUILD_DIR/CPackConfig.cmake" -B "$TMP/pkg" >"$TMP/cpack.log" 2>&1; rc=$?
  check "cpack -G DEB succeeds" [ "$rc" -eq 0 ] || tail -20 "$TMP/cpack.log"
  deb="$(ls "$TMP"/pkg/*.deb 2>/dev/null | head -1)"
  check ".deb produced" [ -n "$deb" ]
  if [ -n "$deb" ]; then
    dpkg-deb -c "$deb" > "$TMP/contents.txt"
    check ".deb installs /usr/bin/sparkcheck" grep -q ' ./usr/bin/sparkcheck$' "$TMP/contents.txt"
    check ".deb installs the rule docs" grep -q ' ./usr/share/doc/sparkcheck/rules/README.md$' "$TMP/contents.txt"
    check ".deb has the man page sparkcheck(1)" grep -q ' ./usr/share/man/man1/sparkcheck.1.gz$' "$TMP/contents.txt"
    check ".deb has copyright and a Debian changelog" bash -c 'grep -q "/doc/sparkcheck/copyright$" "$1" && grep -q "/doc/sparkcheck/changelog.gz$" "$1"' _ "$TMP/contents.txt"
    if command -v lintian >/dev/null; then
      check ".deb: no lintian error or warning" bash -c '! lintian "$1" 2>&1 | grep -Eq "^[EW]: "' _ "$deb"
    fi
    check ".deb control names the package" bash -c 'dpkg-deb -f "$1" Package | grep -qx sparkcheck' _ "$deb"
    dpkg-deb -x "$deb" "$TMP/x"
    check ".deb copyright: Apache-2.0, no 'all rights reserved'" bash -c 'grep -q "^License: Apache-2.0" "$1" && ! grep -qi "all rights reserved by the authors" "$1"' _ "$TMP/x/usr/share/doc/sparkcheck/copyright"
    check ".deb recommends nothing (lint runs no git)" bash -c '[ -z "$(dpkg-deb -f "$1" Recommends)" ]' _ "$deb"
    check "binary from the .deb runs" ${SC_EMULATOR:-} "$TMP/x/usr/bin/sparkcheck" --version
  fi
else
  echo "note: cpack/dpkg-deb not available; .deb part not run"
fi
finish

#!/usr/bin/env bash
# deb_test.sh BUILD_DIR: CPack builds a .deb whose dependencies name the
# runtime libraries, and whose binaries run once unpacked (with dpkg-deb -x,
# not installed on this machine).
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log") \
  || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/out/nqueens_*.deb)
dpkg-deb -I "$deb" > "$tmp/info"
grep -q '^ Depends:.*libgrpc++1.51' "$tmp/info" || { cat "$tmp/info"; exit 1; }
dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/nqueens" --version | grep -q '^nqueens [0-9]'
[[ -e $tmp/root/usr/share/man/man1/nqueens.1.gz || -e $tmp/root/usr/share/man/man1/nqueens.1 ]] \
  || { echo "no man page in the package"; exit 1; }
echo "$(basename "$deb") builds and runs"

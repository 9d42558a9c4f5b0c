#!/usr/bin/env bash
# deb_test.sh BUILD_DIR: CPack builds a .deb whose dependencies name the
# runtime libraries, and `dpkg -i` installs it, into a root of its own (with
# its own dpkg database, so that this machine's packages are left alone; the
# dependencies are this machine's, hence --force-depends), where it runs.
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log") \
  || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/out/nqueens_*.deb)
dpkg-deb -I "$deb" > "$tmp/info"
grep -q '^ Depends:.*libgrpc++1.51' "$tmp/info" || { cat "$tmp/info"; exit 1; }
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-not-root --log=/dev/null -i "$deb" > "$tmp/dpkg.log" 2>&1 \
  || { cat "$tmp/dpkg.log"; exit 1; }
dpkg --root="$root" -s nqueens | grep -q '^Status: install ok installed'
"$root/usr/bin/nqueens" --version | grep -q '^nqueens [0-9]'
"$root/usr/bin/nqueens-server" --version | grep -q '^nqueens-server [0-9]'
[[ -e $root/usr/share/man/man1/nqueens.1.gz || -e $root/usr/share/man/man1/nqueens.1 ]] \
  || { echo "no man page in the package"; exit 1; }
echo "$(basename "$deb") builds and runs"

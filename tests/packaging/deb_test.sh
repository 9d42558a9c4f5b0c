#!/usr/bin/env bash
# deb_test.sh BUILD_DIR DEB_DIR: CPack builds a .deb (left in DEB_DIR for
# lintian_test.sh) that carries what Debian's policy asks of it: a maintainer,
# a synopsis and a multi-line description, dependencies that name the runtime
# libraries, gzipped man pages, a machine-readable copyright file and a
# changelog whose version is the package's. `dpkg -i` installs it, into a
# root of its own (with its own dpkg database, so that this machine's
# packages are left alone; the dependencies are this machine's, hence
# --force-depends), where it runs.
set -euo pipefail
build=$1
out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

rm -rf "$out"
(cd "$build" && cpack -G DEB -B "$out" > "$tmp/cpack.log" 2>&1) \
  || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$out"/nqueens_*.deb)
dpkg-deb -I "$deb" > "$tmp/info"
grep -q '^ Depends:.*libgrpc++1.51' "$tmp/info" || { cat "$tmp/info"; exit 1; }
maintainer=$(dpkg-deb -f "$deb" Maintainer)
[[ $maintainer =~ ^[^\<]+\ \<[^@]+@[^@\>]+\>$ && $maintainer != *@localhost* ]] \
  || fail "Maintainer: '$maintainer' is not 'Name <address>' off localhost"
dpkg-deb -f "$deb" Description > "$tmp/description"
(($(wc -l < "$tmp/description") >= 3)) || fail "the description has no extended part: $(cat "$tmp/description")"
(($(head -n 1 "$tmp/description" | wc -c) <= 81)) || fail "the synopsis is over 80 characters"
! grep -q '^\S' <(tail -n +2 "$tmp/description") || fail "an extended description line is not indented"

dpkg-deb -c "$deb" | awk '{print $6}' > "$tmp/files"
for file in ./usr/share/man/man1/nqueens.1.gz ./usr/share/man/man1/nqueens-server.1.gz \
    ./usr/share/man/man1/nqueens-check-certificate.1.gz \
    ./usr/share/doc/nqueens/copyright ./usr/share/doc/nqueens/changelog.gz \
    ./usr/share/doc/nqueens/html/index.html ./usr/share/doc/nqueens/html/reference/cli.html \
    ./usr/share/doc/nqueens/html/reference/grpc-api.html; do
  grep -qxF "$file" "$tmp/files" || fail "not in the package: $file"
done
! grep -q '^\./usr/share/man/.*\.[0-9]$' "$tmp/files" || fail "uncompressed man pages in the package"

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-not-root --log=/dev/null -i "$deb" > "$tmp/dpkg.log" 2>&1 \
  || { cat "$tmp/dpkg.log"; exit 1; }
dpkg --root="$root" -s nqueens | grep -q '^Status: install ok installed'
for program in nqueens nqueens-server nqueens-check-certificate; do
  "$root/usr/bin/$program" --version | grep -q "^$program [0-9]" || fail "$program --version failed"
done

# The copyright file: machine-readable, with the LICENSE's license.
doc=$root/usr/share/doc/nqueens
head -n 1 "$doc/copyright" \
  | grep -qxF 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
  || fail "copyright: not in the machine-readable format"
if ! grep -q 'Apache License' "$repo/LICENSE" || ! grep -q 'Version 2.0' "$repo/LICENSE"; then
  fail "LICENSE is no longer the Apache License 2.0: update packaging/copyright"
fi
grep -qx 'License: Apache-2.0' "$doc/copyright" || fail "copyright: no License: Apache-2.0"
# The changelog: gzip -9n (max compression, no name, no time stamp), in
# Debian's format, its last entry the package's version.
header=$(od -An -tx1 -N10 "$doc/changelog.gz" | tr -d ' \n')
[[ $header == 1f8b0800000000000203 ]] || fail "changelog.gz is not gzip -9n output (header $header)"
gzip -dc "$doc/changelog.gz" > "$tmp/changelog"
version=$(dpkg-deb -f "$deb" Version)
changelog_version=$(dpkg-parsechangelog -l "$tmp/changelog" -S Version)
[[ $changelog_version == "$version" ]] \
  || fail "packaging/changelog's last entry is $changelog_version, the package $version: add an entry"
echo "$(basename "$deb") follows the policy checked here, installs and runs"

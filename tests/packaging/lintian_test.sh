#!/usr/bin/env bash
# lintian_test.sh DEB_DIR: Debian's lintian finds no error (E:) in the .deb
# that deb_test.sh left in DEB_DIR; it prints every tag it reports (warnings
# and overridden tags too) for whoever reads the log. Exit status 77 (CTest:
# skipped) when lintian is not installed; scripts/install-deps.sh installs it.
set -euo pipefail
out=$1
if ! command -v lintian > /dev/null; then
  echo "SKIPPED: lintian is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
deb=$(ls "$out"/nqueens_*.deb)
# lintian's own exit status depends on its --fail-on; the E: lines decide here.
report=$(lintian --fail-on none --show-overrides "$deb" 2>&1 | grep -v 'running with root privileges')
[[ -z $report ]] || echo "$report"
if grep -q '^E: ' <<< "$report"; then
  echo "lintian reports errors in $(basename "$deb")"
  exit 1
fi
echo "lintian: no errors in $(basename "$deb")"

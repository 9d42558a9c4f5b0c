#!/usr/bin/env bash
# man_pages_test.sh BUILD_DIR: after `cmake --install`, each program's man
# page is gzip -9n output with the sections NAME, SYNOPSIS, DESCRIPTION,
# OPTIONS, EXIT STATUS and FILES; man renders it without a warning; it names
# only files the package installs; and nqueens(1) describes each command,
# once, on its own.
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
command -v man > /dev/null || fail "man is not installed (scripts/install-deps.sh installs man-db)"
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null

for program in nqueens nqueens-server nqueens-check-certificate; do
  page=$prefix/share/man/man1/$program.1.gz
  [[ -f $page ]] || fail "no man page for $program"
  header=$(od -An -tx1 -N10 "$page" | tr -d ' \n')
  [[ $header == 1f8b0800000000000203 ]] || fail "$program.1.gz is not gzip -9n output (header $header)"
  gzip -dc "$page" > "$tmp/$program.1"
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS '"EXIT STATUS"' FILES; do
    grep -qx "\\.SH $section" "$tmp/$program.1" || fail "$program.1 has no section $section"
  done
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 > "$tmp/$program.txt")
  [[ -z $warnings ]] || fail "man warns about $program.1: $warnings"
  # Paths it names are the Debian package's (/usr/share/...): each is
  # installed. (/usr/local is named as cmake --install's default prefix.)
  grep -o '/usr/\(share\|bin\|lib\|include\)/[^ ,;:)"]*' "$tmp/$program.txt" \
    | sed 's/\.$//' | sort -u > "$tmp/paths"
  while read -r path; do
    [[ -e $prefix/${path#/usr/} ]] || fail "$program.1 names $path, which is not installed"
  done < "$tmp/paths"
  ! grep -n '\(^\|[ (]\)docs/' "$tmp/$program.txt" \
    || fail "$program.1 names a file of the source tree (docs/...)"
done

# Each of nqueens' commands (its usage lines, and help) is an item of its own
# in DESCRIPTION: ".TP" then "COMMAND ARGUMENT".
commands=$("$prefix/bin/nqueens" --help \
  | sed -n 's/^\(usage:\|      \) nqueens \(\[flags\] \)\{0,1\}\([a-z]*\).*/\3/p')
[[ -n $commands ]] || fail "no commands in nqueens --help"
description=$(sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$tmp/nqueens.1")
for command in $(printf '%s\nhelp\n' "$commands" | sort -u); do
  count=$(grep -A1 -x '\.TP' <<< "$description" | grep -c "^$command\( \|$\)" || true)
  ((count == 1)) || fail "nqueens.1 describes the command $command $count times, not once"
done
echo "the man pages of nqueens, nqueens-server and nqueens-check-certificate are complete and clean"

#!/usr/bin/env bash
# command_line_test.sh CHECKER NQUEENS: nqueens-check-certificate takes
# --help and --version as nqueens and nqueens-server do, accepts the
# certificate `nqueens complete --certificate` writes, and says what is wrong
# otherwise: the exit status (0 a proof, 1 not a proof, 2 usage or input),
# and on stderr the file, its line and the limit.
set -euo pipefail
checker=$1
nqueens=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

# expect STATUS TEXT ARGUMENT...: the checker, run with the arguments, exits
# with STATUS and prints TEXT (a fixed string) on stdout or stderr.
expect() {
  local status=$1 text=$2 got=0
  shift 2
  "$checker" "$@" > "$tmp/out" 2>&1 || got=$?
  ((got == status)) || fail "checker $*: exit status $got, not $status: $(cat "$tmp/out")"
  grep -qF -- "$text" "$tmp/out" || fail "checker $*: no \"$text\" in: $(cat "$tmp/out")"
}

expect 0 'usage: nqueens-check-certificate [flags] BOARD CERTIFICATE' --help
expect 0 'usage: nqueens-check-certificate [flags] BOARD CERTIFICATE' -h
for text in 'exit status: 0' '--help' '--version' 'at most 2147483647 rows'; do
  expect 0 "$text" --help
done
# The version line is the other programs', with its own name.
version=$("$checker" --version)
[[ $version == "$("$nqueens" --version | sed 's/^nqueens /nqueens-check-certificate /')" ]] \
  || fail "checker --version: $version"
[[ $version =~ ^nqueens-check-certificate\ [0-9]+\.[0-9]+\.[0-9]+\ \(git\  ]] \
  || fail "checker --version: $version"

# Usage errors.
expect 2 'expected BOARD CERTIFICATE, got 0 arguments (see nqueens-check-certificate --help)'
expect 2 'expected BOARD CERTIFICATE, got 1 argument' "$tmp/board"
expect 2 'unknown flag --bogus' --bogus "$tmp/board" "$tmp/board"

# A proof, from the CLI.
printf '1 0 0 0\n' > "$tmp/corner.q"
status=0
"$nqueens" --local --quiet complete "$tmp/corner.q" --certificate "$tmp/corner.cert" > /dev/null || status=$?
((status == 1)) || fail "nqueens complete: exit status $status, not 1 (UNSOLVABLE)"
expect 0 "$tmp/corner.cert proves that $tmp/corner.q has no completion" "$tmp/corner.q" "$tmp/corner.cert"
# The same board in the sparse format, with comments.
printf '# the corner of 4 x 4\n4\n1 1  # row 1, column 1\n' > "$tmp/corner.sparse"
expect 0 'proves that' "$tmp/corner.sparse" "$tmp/corner.cert"

# Not a proof: the certificate's line and what is wrong there.
printf '4\n' > "$tmp/empty.sparse"
expect 1 "$tmp/corner.cert: not a proof: certificate line 3: expected \`given 0\`" \
  "$tmp/empty.sparse" "$tmp/corner.cert"
sed '6d' "$tmp/corner.cert" > "$tmp/cut.cert"
expect 1 "$tmp/cut.cert: not a proof: certificate line 6: expected \`p\`" "$tmp/corner.q" "$tmp/cut.cert"

# Files that cannot be read, boards that are not boards: the file, its line,
# the limit.
expect 2 "cannot read $tmp/missing.q: No such file or directory" "$tmp/missing.q" "$tmp/corner.cert"
expect 2 "cannot read $tmp/missing.cert: No such file or directory" "$tmp/corner.q" "$tmp/missing.cert"
printf '\n# nothing\n' > "$tmp/blank.q"
expect 2 "$tmp/blank.q: no board (no numbers)" "$tmp/blank.q" "$tmp/corner.cert"
printf '1 0\n0 x\n' > "$tmp/word.q"
expect 2 "$tmp/word.q:2: \"x\" is not a number" "$tmp/word.q" "$tmp/corner.cert"
printf '4\n1 1\n# a comment line\n9 2\n' > "$tmp/off.sparse"
expect 2 "$tmp/off.sparse:4: row 9 is off the board of 4 rows" "$tmp/off.sparse" "$tmp/corner.cert"
printf '4\n1 1\n1 3\n' > "$tmp/twice.sparse"
expect 2 "$tmp/twice.sparse:3: row 1 has a queen already" "$tmp/twice.sparse" "$tmp/corner.cert"
printf '0 0\n0 2147483648\n' > "$tmp/huge.q"
expect 2 "$tmp/huge.q:2: 2147483648 is over the largest board size, 2147483647" \
  "$tmp/huge.q" "$tmp/corner.cert"
echo "nqueens-check-certificate: --help, --version, proofs and errors as documented"

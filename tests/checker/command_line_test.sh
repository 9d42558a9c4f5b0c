#!/usr/bin/env bash
# command_line_test.sh CHECKER NQUEENS: nqueens-check-certificate takes
# --help and --version as nqueens and nqueens-server do, accepts the
# certificate `nqueens complete --certificate` writes, certificates in both
# formats, and the certificates of a search's parts together, prints a
# certificate's tree as text with --text, and says what is wrong otherwise:
# the exit status (0 a proof, 1 not a proof, 2 usage or input), and on stderr
# the file, its line or byte and the limit.
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

expect 0 'usage: nqueens-check-certificate [flags] BOARD CERTIFICATE [CERTIFICATE...]' --help
expect 0 'usage: nqueens-check-certificate [flags] BOARD CERTIFICATE' -h
for text in 'exit status: 0' '--help' '--version' '--text' 'at most 2147483647 rows' \
  'the binary one' 'the text one'; do
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
# In the text format too.
status=0
"$nqueens" --local --quiet complete "$tmp/corner.q" --certificate "$tmp/corner-text.cert" \
  --certificate-format text > /dev/null || status=$?
((status == 1)) || fail "nqueens complete --certificate-format text: exit status $status, not 1"
expect 0 "$tmp/corner-text.cert proves that $tmp/corner.q has no completion" \
  "$tmp/corner.q" "$tmp/corner-text.cert"
# The same board in the sparse format, with comments.
printf '# the corner of 4 x 4\n4\n1 1  # row 1, column 1\n' > "$tmp/corner.sparse"
expect 0 'proves that' "$tmp/corner.sparse" "$tmp/corner.cert"

# The same proof in the text format, and in the binary one (its tree stream,
# a branch on row 3 whose two children each leave a row without an open cell,
# in one zlib frame); --text prints the tree as text before the verdict.
printf 'nqueens-certificate 1\nn 4\ngiven 1\nproof\nb r 3 2\np 3 2\ne r 4\np 3 4\ne r 2\nend\n' \
  > "$tmp/corner.txt"
expect 0 'proves that' "$tmp/corner.q" "$tmp/corner.txt"
printf 'NQCERT\r\n\x02\x04\x01\x00\x00\x0d\x78\x9c\x63\x65\x64\x60\x60\x00\x00\x00\x22\x00\x07\x00' \
  > "$tmp/corner.bin"
expect 0 "$tmp/corner.bin proves that $tmp/corner.q has no completion" "$tmp/corner.q" "$tmp/corner.bin"
"$checker" --text "$tmp/corner.q" "$tmp/corner.bin" > "$tmp/out"
diff <(cat "$tmp/corner.txt"; echo "$tmp/corner.bin proves that $tmp/corner.q has no completion") \
  "$tmp/out" || fail "checker --text: not the text format"

# Not a proof: in the text format the certificate's line, its byte offset,
# the node's path from the root (in the tree), and what is wrong there; in
# the binary one the byte in the file or, in the tree, in the tree stream
# and the frame's.
printf '4\n' > "$tmp/empty.sparse"
expect 1 "$tmp/corner.txt: not a proof: certificate line 3 (byte 26): expected \`given 0\`" \
  "$tmp/empty.sparse" "$tmp/corner.txt"
sed '6d' "$tmp/corner.txt" > "$tmp/cut.cert"
expect 1 "$tmp/cut.cert: not a proof: certificate line 6 (byte 48; at the root): expected \`p\`" \
  "$tmp/corner.q" "$tmp/cut.cert"
expect 1 "$tmp/corner.bin: not a proof: certificate byte 10: given 1, not the composition's 0 queens" \
  "$tmp/empty.sparse" "$tmp/corner.bin"
head -c 24 "$tmp/corner.bin" > "$tmp/cut.bin"
# Cut in the frame's checksum, after the tree.
expect 1 "$tmp/cut.bin: not a proof: certificate tree byte 5: the certificate ends at byte 24, inside the frame of 13 bytes at byte 13" \
  "$tmp/corner.q" "$tmp/cut.bin"

# The parts of one search: the certificates of both prove it together, each
# with an `x` leaf where the other proves the subtree (row 2's two cells).
printf 'nqueens-certificate 1\nn 4\ngiven 1\npart 0 2\nproof\nb r 2 2\np 2 3\ne r 3\np 2 4\nx\nend\n' \
  > "$tmp/part0.cert"
printf 'nqueens-certificate 1\nn 4\ngiven 1\npart 1 2\nproof\nb r 2 2\np 2 3\nx\np 2 4\nb r 3 1\np 3 2\ne r 4\nend\n' \
  > "$tmp/part1.cert"
expect 0 "$tmp/part0.cert $tmp/part1.cert prove together that $tmp/corner.q has no completion" \
  "$tmp/corner.q" "$tmp/part0.cert" "$tmp/part1.cert"
expect 0 'prove together' "$tmp/corner.q" "$tmp/part1.cert" "$tmp/part0.cert"
# Alone, or beside a certificate that proves another subtree, a part is no
# proof: its `x` line is named.
no_proof='`x`: no other certificate of the set proves this subtree'
expect 1 "$tmp/part0.cert: not a proof: certificate line 10: $no_proof" "$tmp/corner.q" "$tmp/part0.cert"
expect 1 "$tmp/part1.cert: not a proof: certificate line 8: $no_proof" \
  "$tmp/corner.q" "$tmp/part1.cert" "$tmp/part1.cert"
# A wrong line in one of them names that one.
sed 's/^e r 4$/e r 3/' "$tmp/part1.cert" > "$tmp/wrong1.cert"
expect 1 "$tmp/wrong1.cert: not a proof: certificate line 12 (byte 85; path (2, 4) (3, 2)): not an unplaced line" \
  "$tmp/corner.q" "$tmp/part0.cert" "$tmp/wrong1.cert"
expect 2 "cannot read $tmp/missing.cert: No such file or directory" \
  "$tmp/corner.q" "$tmp/part0.cert" "$tmp/missing.cert"
# From the CLI: each part's certificate of `complete --parts 2 --part-index I`.
for index in 0 1; do
  status=0
  "$nqueens" --local --quiet complete "$tmp/corner.q" --method exact --parts 2 \
    --part-index "$index" --certificate "$tmp/cli$index.cert" > /dev/null || status=$?
  ((status == 1)) || fail "nqueens complete --part-index $index: exit status $status, not 1"
done
expect 0 'prove together' "$tmp/corner.q" "$tmp/cli0.cert" "$tmp/cli1.cert"

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
echo "nqueens-check-certificate: --help, --version, proofs, sets of parts and errors as documented"

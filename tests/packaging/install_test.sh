#!/usr/bin/env bash
# install_test.sh BUILD_DIR: `cmake --install` into a temporary prefix puts
# the binaries, man pages, completions and docs in place, and they work.
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null
for file in bin/nqueens bin/nqueens-server bin/nqueens-check-certificate \
    share/man/man1/nqueens.1 share/man/man1/nqueens-server.1 \
    share/bash-completion/completions/nqueens share/zsh/vendor-completions/_nqueens \
    share/doc/nqueens/README.md share/doc/nqueens/LICENSE; do
  [[ -e $prefix/$file ]] || { echo "not installed: $file"; exit 1; }
done
"$prefix/bin/nqueens" --version | grep -q '^nqueens [0-9]*\.[0-9]*\.[0-9]* (git '
"$prefix/bin/nqueens-server" --version | grep -q '^nqueens-server [0-9]'
grep -q -- 'max\\-exact\\-seconds' "$prefix/share/man/man1/nqueens-server.1" \
  || { echo "the server's man page lacks its flags"; exit 1; }
# Every flag of the help is completed, and so are the commands.
completion=$prefix/share/bash-completion/completions/nqueens
for flag in $("$prefix/bin/nqueens" --help | sed -n 's/^  \(--[a-z0-9-]*\)=.*/\1/p'); do
  grep -q -- "$flag" "$completion" || { echo "the completion lacks $flag"; exit 1; }
done
# shellcheck disable=SC2016
words=$(bash -c 'source "$1"; COMP_WORDS=(nqueens comp); COMP_CWORD=1; _nqueens
  echo "${COMPREPLY[*]}"' _ "$completion")
[[ $words == "complete completion" ]] || { echo "completing 'comp' gave '$words'"; exit 1; }
echo "installed and working"

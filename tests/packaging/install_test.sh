#!/usr/bin/env bash
# install_test.sh BUILD_DIR: `cmake --install` into a temporary prefix puts
# the binaries, man pages, completions and docs (the site too) in place, and
# they work.
# (man_pages_test.sh checks the pages, deb_test.sh the package.)
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null
for file in bin/nqueens bin/nqueens-server bin/nqueens-check-certificate \
    share/man/man1/nqueens.1.gz share/man/man1/nqueens-server.1.gz \
    share/man/man1/nqueens-check-certificate.1.gz \
    share/bash-completion/completions/nqueens share/zsh/vendor-completions/_nqueens \
    share/bash-completion/completions/nqueens-server \
    share/zsh/vendor-completions/_nqueens-server \
    share/doc/nqueens/README.md share/doc/nqueens/LICENSE share/doc/nqueens/copyright \
    share/doc/nqueens/changelog.gz share/doc/nqueens/docs/methods.md \
    share/doc/nqueens/docs/params.md share/doc/nqueens/docs/guides/cli.md \
    share/doc/nqueens/examples/README.md share/doc/nqueens/examples/composition-8.q \
    share/doc/nqueens/html/index.html share/doc/nqueens/html/reference/cli.html \
    share/doc/nqueens/html/reference/grpc-api.html; do
  [[ -e $prefix/$file ]] || { echo "not installed: $file"; exit 1; }
done
for program in nqueens nqueens-server nqueens-check-certificate; do
  "$prefix/bin/$program" --version | grep -q "^$program [0-9]*\\.[0-9]*\\.[0-9]* (git " \
    || { echo "$program --version: $("$prefix/bin/$program" --version)"; exit 1; }
done
zgrep -q -- 'max\\-exact\\-seconds' "$prefix/share/man/man1/nqueens-server.1.gz" \
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
# The server's completes its flags and their values.
# shellcheck disable=SC2016
words=$(bash -c 'source "$1"; COMP_WORDS=(nqueens-server --log-format ""); COMP_CWORD=2
  _nqueens_server; echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/nqueens-server")
[[ $words == "text json" ]] || { echo "completing --log-format gave '$words'"; exit 1; }
echo "installed and working"

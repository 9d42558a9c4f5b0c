#!/usr/bin/env bash
# library_test.sh BUILD_DIR: after `cmake --install`, a project outside the
# tree (examples/embed/) builds against the installed core library, once with
# find_package(nqueens) and once with pkg-config, and each program completes
# a board that the validator accepts and proves the corner of 4 x 4
# unsolvable. Only the public headers are installed.
set -euo pipefail
build=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null

internal=$(find "$prefix/include" -name '*.h' ! -path "$prefix/include/nqueens/*")
[[ -z $internal ]] || { echo "internal headers installed: $internal"; exit 1; }

check() {  # check PROGRAM: what the example prints
  local solved unsolvable
  solved=$("$1" 8 1:1 2:5)
  [[ $solved == SOLVED* ]] || { echo "$1 8 1:1 2:5 gave: $solved"; exit 1; }
  unsolvable=$("$1" 4 1:1)
  [[ $unsolvable == UNSOLVABLE* ]] || { echo "$1 4 1:1 gave: $unsolvable"; exit 1; }
}

cmake -S "$repo/examples/embed" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER_LAUNCHER= > /dev/null
cmake --build "$tmp/cmake-build" > /dev/null
check "$tmp/cmake-build/embed_example"

pc_dir=$(dirname "$(find "$prefix" -name nqueens.pc)")
# shellcheck disable=SC2046
c++ -std=c++17 -o "$tmp/pkg-config-example" "$repo/examples/embed/main.cc" \
  $(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs nqueens)
check "$tmp/pkg-config-example"
echo "the installed library builds and completes boards, with CMake and with pkg-config"

#!/usr/bin/env bash
# Configures build-asan/ with clang++, AddressSanitizer + UBSan and libFuzzer's
# coverage instrumentation (cmake/Sanitizers.cmake) and builds the TARGETs,
# by default everything: the test suite and the fuzz targets. scripts/test.sh's
# asan stage runs the suite from it and scripts/fuzz.sh the fuzz targets; one
# build serves both because compiling the tree is most of a cold CI run.
#
#   scripts/asan-build.sh [TARGET...]
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# Relative paths in ccache's keys, as in scripts/build.sh.
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1

build_dir="$repo/build-asan"
# CMake cannot switch a configured directory to another compiler: one that a
# g++ ASan build left behind is started afresh.
if [[ -f $build_dir/CMakeCache.txt ]] &&
    ! grep -q '^CMAKE_CXX_COMPILER:.*clang++$' "$build_dir/CMakeCache.txt"; then
  rm -rf "$build_dir"
fi

# Warnings are errors here, as in scripts/build.sh --tests.
# -O1 with line tables only (-g1), as OSS-Fuzz builds: about half the compile
# time of RelWithDebInfo's -O2 -g, and reports keep file:line.
cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
  -DNQUEENS_SANITIZE_ADDRESS=ON -DNQUEENS_BUILD_FUZZERS=ON -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_WERROR=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build_dir" "${targets[@]}"

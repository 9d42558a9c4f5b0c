#!/usr/bin/env bash
# Configures and builds into build/ with Ninja (and ccache, which the top
# CMakeLists picks up when installed).
#
#   scripts/build.sh          the server, the CLI, the certificate checker, the
#                             man pages, shell completions and documentation
#                             site: everything `cmake --install` and `cpack` take
#   scripts/build.sh --tests  that, and everything the test suite needs
#
# The build type is CMake's default here (RelWithDebInfo); set the
# CMAKE_BUILD_TYPE environment variable before the first configure to change it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$repo/build"
# Relative paths in ccache's keys: a fresh clone elsewhere on the same
# machine reuses what an earlier build compiled.
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1

case "${1:-}" in
  "")
    build_tests=OFF
    werror=OFF
    ;;
  --tests)
    build_tests=ON
    werror=ON
    ;;
  *)
    echo "usage: $0 [--tests]" >&2
    exit 2
    ;;
esac

cmake -S "$repo" -B "$build_dir" -G Ninja \
  -DNQUEENS_BUILD_TESTS="$build_tests" -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_WERROR="$werror"
cmake --build "$build_dir"

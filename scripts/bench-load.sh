#!/usr/bin/env bash
# Runs the load and fault scenarios (bench/load.cc) against Release servers
# started on 127.0.0.1 and writes the report, docs/load.md.
#
#   scripts/bench-load.sh                 every scenario (~6 min)
#   scripts/bench-load.sh --scale 0.2     fewer calls per scenario (a quick check)
#   scripts/bench-load.sh --docs DIR      write the report into DIR instead
#
# Builds in build-bench/ (as scripts/bench-scale.sh does). The clients run on
# the same machine as the server: on a 2-CPU machine they compete with it,
# which the call-overhead scenario measures. Needs ~3 GB of free memory.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$repo/build-bench"
docs_dir="$repo/docs"
scale=1

while (($# > 0)); do
  case "$1" in
    --scale) scale="$2"; shift 2 ;;
    --docs) docs_dir="$2"; shift 2 ;;
    *) echo "usage: $0 [--scale X] [--docs DIR]" >&2; exit 2 ;;
  esac
done

export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1
cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DNQUEENS_BUILD_BENCH=ON -DNQUEENS_BUILD_TESTS=OFF -DNQUEENS_BUILD_SERVICE=ON >/dev/null
cmake --build "$build_dir" --target nqueens-load nqueens-server

# Read before the report is rewritten, so that it names the code measured.
revision=$(git -C "$repo" rev-parse --short HEAD)
if [[ -n $(git -C "$repo" status --porcelain -- ':!docs') ]]; then
  revision="$revision + local changes"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)

table=$(mktemp)
trap 'rm -f "$table"' EXIT
status=0
"$build_dir/bench/nqueens-load" --server_binary="$build_dir/server/nqueens-server" \
  --scale="$scale" --markdown="$table" || status=$?

{
  echo "# Load and fault scenarios"
  echo
  echo "Made by \`scripts/bench-load.sh$([[ $scale == 1 ]] || echo " --scale $scale")\` at $revision"
  echo "on $(nproc) CPUs ($cpu), $(date -u +%Y-%m-%d). Each scenario starts its own"
  echo "Release \`nqueens-server\` on 127.0.0.1 (default flags unless the scenario names"
  echo "some), warms it up with small calls of every method from 4 clients, then runs"
  echo "its clients, each on a connection of its own, in the same process as the"
  echo "report (\`bench/load.cc\`). *Unexpected* counts the calls that ended with a"
  echo "status the scenario does not allow for; every SOLVED board was validated."
  echo "Latencies are per call, from the client, for calls that ended OK; *small*"
  echo "is n <= 65,536 rows. RSS is the server's: idle after the warm-up, its peak"
  echo "during the scenario, and after its calls ended (the server trims its heap"
  echo "100 ms after the last call)."
  echo
  cat "$table"
} >"$docs_dir/load.md"
echo "bench-load: wrote $docs_dir/load.md" >&2
exit "$status"

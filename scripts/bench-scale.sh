#!/usr/bin/env bash
# Measures how completion, validation and solving scale with n and
# writes the report: docs/scale.md and docs/time-per-row.svg.
#
#   scripts/bench-scale.sh                  the whole matrix, 10^3 .. 10^8 (~15 min)
#   scripts/bench-scale.sh --max-n 1000000  only sizes up to 10^6 (a quick check)
#   scripts/bench-scale.sh --docs DIR       write the report into DIR instead
#   scripts/bench-scale.sh --build-dir DIR  build in DIR instead of build-bench/
#
# Builds Release binaries in build-bench/ (its own build directory, so the
# default RelWithDebInfo build/ is left alone), runs one nqueens-scale process
# per mode and size (so that each peak memory figure belongs to one size),
# collects their CSV lines in build-bench/scale.csv and renders the report
# with scripts/scale_report.py. Needs ~4 GB of free memory and ~1 GB in /tmp
# at n = 10^8.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$repo/build-bench"
docs_dir="$repo/docs"
max_n=100000000

while (($# > 0)); do
  case "$1" in
    --max-n) max_n="$2"; shift 2 ;;
    --docs) docs_dir="$2"; shift 2 ;;
    --build-dir) build_dir=$(realpath -m "$2"); shift 2 ;;
    *) echo "usage: $0 [--max-n N] [--docs DIR] [--build-dir DIR]" >&2; exit 2 ;;
  esac
done

cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DNQUEENS_BUILD_BENCH=ON -DNQUEENS_BUILD_TESTS=OFF -DNQUEENS_BUILD_SERVICE=ON >/dev/null
cmake --build "$build_dir" --target nqueens-scale nqueens-server nqueens nqueens-client-floor

bench="$build_dir/bench/nqueens-scale"
csv="$build_dir/scale.csv"
: >"$csv"

# measure MODE N RUNS: one nqueens-scale run, its CSV line appended (the
# header only once). Sizes above --max-n are skipped.
measure() {
  local mode=$1 n=$2 runs=$3
  ((n <= max_n)) || return 0
  echo "bench-scale: $mode n=$n runs=$runs" >&2
  "$bench" --mode="$mode" --n="$n" --runs="$runs" \
    --server_binary="$build_dir/server/nqueens-server" \
    --cli_binary="$build_dir/client/nqueens" \
    --floor_binary="$build_dir/bench/nqueens-client-floor" >"$csv.one"
  if [[ -s $csv ]]; then tail -n +2 "$csv.one" >>"$csv"; else cat "$csv.one" >>"$csv"; fi
  rm -f "$csv.one"
}

# Runs per size: many where one run is short, so that the median is stable.
for size_runs in 1000:101 10000:51 100000:21 1000000:11 10000000:5 100000000:3; do
  measure complete "${size_runs%:*}" "${size_runs#*:}"
done
for mode in validate solve; do
  measure "$mode" 10000000 11
  measure "$mode" 100000000 5
done
for mode in grpc e2e; do
  for size_runs in 1000:101 1000000:11 10000000:5 100000000:3; do
    measure "$mode" "${size_runs%:*}" "${size_runs#*:}"
  done
done
# Right after the CLI at 10^3, to compare with it.
measure floor 1000 101

mkdir -p "$docs_dir"
/usr/bin/python3 "$repo/scripts/scale_report.py" --csv "$csv" \
  --markdown "$docs_dir/scale.md" --svg "$docs_dir/time-per-row.svg"
echo "bench-scale: wrote $docs_dir/scale.md and $docs_dir/time-per-row.svg" >&2

#!/usr/bin/env bash
# Measures how completion, validation and solving scale with n, compares
# this code with an older main on the same machine in the same session, and
# writes the report: docs/scale.md and docs/time-per-row.svg.
#
#   scripts/bench-scale.sh                  everything (~40 min: the matrix up to 10^8,
#                                           the comparison, the floors, n = 10^9 and 2*10^9)
#   scripts/bench-scale.sh --max-n 1000000  the matrix only up to 10^6
#   scripts/bench-scale.sh --baseline REV   compare with main at REV (default 0f6ea3e)
#   scripts/bench-scale.sh --baseline none  no comparison with an older main
#   scripts/bench-scale.sh --compare-rounds R
#                                           rounds of the comparison at 10^8 (default 5)
#   scripts/bench-scale.sh --no-huge        skip the runs at n = 10^9 and 2*10^9
#   scripts/bench-scale.sh --quick          a check of the script in a few minutes: the matrix
#                                           at 10^3, one round of the comparison with every
#                                           size divided by 100, the shortest small-call rounds
#   scripts/bench-scale.sh --docs DIR       write the report into DIR instead
#   scripts/bench-scale.sh --build-dir DIR  build in DIR instead of build-bench/
#
# Builds Release binaries in build-bench/ (its own build directory, so the
# default RelWithDebInfo build/ is left alone).
#
# The matrix: one nqueens-scale process per mode and size (so that each peak
# memory figure belongs to one size), CSV lines in build-bench/scale.csv.
#
# The comparison: the baseline REV is checked out in a temporary git worktree
# and its bench/ replaced by this one, so that the same benchmark program is
# linked against the old core and the old server: what differs is the code
# under test, not the measuring. Its runs and this code's alternate in rounds
# (one process each, one run each, the round's number as the seed), so that
# both meet the same machine; their CSV lines, with the build (old or new)
# and the threads in front, go to build-bench/compare.csv. nqueens-call-cost
# measures small calls on both servers in its own interleaved rounds
# (build-bench/call_cost.txt). The floors (memory bandwidth, the explicit
# construction) run on this code only.
#
# The report is rendered with scripts/scale_report.py. Needs ~4 GB of free
# memory and ~1 GB in /tmp at n = 10^8, ~20 GB of memory at 2*10^9, and a
# few minutes more to build the baseline (less with ccache).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$repo/build-bench"
docs_dir="$repo/docs"
max_n=100000000
baseline=0f6ea3e
compare_rounds=5
huge=1
quick=0
invocation="scripts/bench-scale.sh${*:+ $*}"

usage() {
  echo "usage: $0 [--max-n N] [--docs DIR] [--build-dir DIR] [--baseline REV|none]" \
    "[--compare-rounds R] [--huge|--no-huge] [--quick]" >&2
  exit 2
}

while (($# > 0)); do
  case "$1" in
    --max-n) max_n="$2"; shift 2 ;;
    --docs) docs_dir="$2"; shift 2 ;;
    --build-dir) build_dir=$(realpath -m "$2"); shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --compare-rounds) compare_rounds="$2"; shift 2 ;;
    --huge) huge=1; shift ;;
    --no-huge) huge=0; shift ;;
    # Sets the defaults of a quick check; flags after it still override them.
    --quick) quick=1; max_n=1000; compare_rounds=1; shift ;;
    *) usage ;;
  esac
done
((compare_rounds >= 1)) || usage

# The comparison's sizes, where the scale targets are set: Complete at 10^8,
# Solve(kRandom) at 10^9 and 2*10^9. A quick check of the script divides
# them by 100.
scale_down=$((quick ? 100 : 1))
compare_n=$((100000000 / scale_down))
big_n=$((1000000000 / scale_down))
huge_n=$((2000000000 / scale_down))
# The server gives one call all its workers but one (WorkerPool::MaxPerCall,
# one worker per CPU): the in-process figure a gRPC completion compares with
# runs on as many threads.
server_threads=$(($(nproc) > 1 ? $(nproc) - 1 : 1))

cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DNQUEENS_BUILD_BENCH=ON -DNQUEENS_BUILD_TESTS=OFF -DNQUEENS_BUILD_SERVICE=ON >/dev/null
cmake --build "$build_dir" --target nqueens-scale nqueens-server nqueens nqueens-client-floor \
  nqueens-call-cost

# --- The baseline: REV's core and server under this bench/. ---

old_build=""
baseline_tmp=""

remove_baseline() {
  [[ -n $baseline_tmp ]] || return 0
  git -C "$repo" worktree remove --force "$baseline_tmp/src" 2>/dev/null || true
  rm -rf "$baseline_tmp"
}
trap remove_baseline EXIT

# Sets old_build to a Release build of REV with this bench/ copied in.
build_baseline() {
  local rev=$1
  baseline_tmp=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-baseline.XXXXXX")
  local src="$baseline_tmp/src"
  git -C "$repo" worktree add --detach "$src" "$rev" >/dev/null
  rm -rf "$src/bench"
  cp -r "$repo/bench" "$src/bench"
  old_build="$baseline_tmp/build"
  local launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  # Paths relative to the temporary directory (sources and generated
  # headers) and no build directory in the hash, so that a fresh worktree's
  # build hits what an earlier one put in the cache.
  export CCACHE_BASEDIR="$baseline_tmp" CCACHE_NOHASHDIR=1
  cmake -S "$src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    -DNQUEENS_BUILD_BENCH=ON -DNQUEENS_BUILD_TESTS=OFF -DNQUEENS_BUILD_SERVICE=ON >/dev/null
  cmake --build "$old_build" --target nqueens-scale nqueens-server nqueens-call-cost
  unset CCACHE_BASEDIR CCACHE_NOHASHDIR
}

if [[ $baseline != none ]]; then
  baseline=$(git -C "$repo" rev-parse --short "$baseline")
  echo "bench-scale: building the baseline $baseline" >&2
  build_baseline "$baseline"
fi

# --- The matrix: this code, one mode and size per process. ---

bench="$build_dir/bench/nqueens-scale"
csv="$build_dir/scale.csv"
: >"$csv"

# append_csv FROM TO [HEADER_PREFIX LINE_PREFIX]: FROM's CSV lines appended
# to TO, the header only once, each after its prefix.
append_csv() {
  local from=$1 to=$2 header_prefix=${3:-} line_prefix=${4:-}
  [[ -s $to ]] || echo "$header_prefix$(head -n 1 "$from")" >>"$to"
  tail -n +2 "$from" | sed "s|^|$line_prefix|" >>"$to"
}

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
  append_csv "$csv.one" "$csv"
  rm -f "$csv.one"
}

run_matrix() {
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
}

# --- The comparison: old and new alternating, and the floors. ---

compare_csv="$build_dir/compare.csv"
: >"$compare_csv"

# compare BUILD THREADS MODE N RUNS SEED: one nqueens-scale process of BUILD
# (old or new); its line goes to compare.csv after "BUILD,THREADS,". THREADS
# is passed to complete and random; for grpc it records the server's.
compare() {
  local build=$1 threads=$2 mode=$3 n=$4 runs=$5 seed=$6
  local dir=$build_dir
  if [[ $build == old ]]; then
    [[ -n $old_build ]] || return 0
    dir=$old_build
  fi
  local flags=(--mode="$mode" --n="$n" --runs="$runs" --seed="$seed"
    --server_binary="$dir/server/nqueens-server")
  if [[ $mode == complete || $mode == random ]]; then flags+=(--threads="$threads"); fi
  echo "bench-scale: compare $build threads=$threads $mode n=$n runs=$runs seed=$seed" >&2
  "$dir/bench/nqueens-scale" "${flags[@]}" >"$compare_csv.one"
  append_csv "$compare_csv.one" "$compare_csv" "build,threads," "$build,$threads,"
  rm -f "$compare_csv.one"
}

# Complete at 10^8: the old core on one thread, the new on one and two.
compare_complete() {
  for ((round = 1; round <= compare_rounds; ++round)); do
    compare old 1 complete "$compare_n" 1 "$round"
    compare new 1 complete "$compare_n" 1 "$round"
    compare new 2 complete "$compare_n" 1 "$round"
  done
}

# at_most R: R, or --compare-rounds if fewer.
at_most() { echo $(($1 < compare_rounds ? $1 : compare_rounds)); }

# Solve(n, kRandom) at 10^9 (two rounds: a run takes tens of seconds), and
# once at 2*10^9 to show that it runs here and what it holds per row.
compare_random() {
  ((huge)) || return 0
  for ((round = 1; round <= $(at_most 2); ++round)); do
    compare old 1 random "$big_n" 1 "$round"
    compare new 1 random "$big_n" 1 "$round"
    compare new 2 random "$big_n" 1 "$round"
  done
  compare new 2 random "$huge_n" 1 1
}

# A streamed Complete through each build's server and, in the same round,
# the same build's in-process Complete on the server's threads.
compare_grpc() {
  for ((round = 1; round <= $(at_most 3); ++round)); do
    for build in old new; do
      compare "$build" "$server_threads" grpc "$compare_n" 1 "$round"
      compare "$build" "$server_threads" complete "$compare_n" 1 "$round"
    done
  done
}

# What no change to the core can beat: writing and reading the board's
# memory, and the explicit construction (Solve kConstructive).
measure_floors() {
  for mode in bandwidth solve; do
    compare new 1 "$mode" "$compare_n" 5 1
    if ((huge)); then compare new 1 "$mode" "$big_n" 3 1; fi
  done
}

# Small calls against gRPC's health Check, on both servers in its rounds.
measure_call_cost() {
  local flags=(--server_binary="$build_dir/server/nqueens-server")
  if [[ -n $old_build ]]; then flags+=(--compare_binary="$old_build/server/nqueens-server"); fi
  if ((quick)); then flags+=(--rounds=1 --round_seconds=0.2); fi
  echo "bench-scale: nqueens-call-cost ${flags[*]}" >&2
  "$build_dir/bench/nqueens-call-cost" "${flags[@]}" >"$build_dir/call_cost.txt"
}

compare_complete
compare_random
compare_grpc
measure_floors
measure_call_cost
run_matrix

mkdir -p "$docs_dir"
/usr/bin/python3 "$repo/scripts/scale_report.py" --csv "$csv" \
  --markdown "$docs_dir/scale.md" --svg "$docs_dir/time-per-row.svg" \
  --compare "$compare_csv" --call-cost "$build_dir/call_cost.txt" \
  --baseline-rev "$baseline" --compare-rounds "$compare_rounds" --command "$invocation"
echo "bench-scale: wrote $docs_dir/scale.md and $docs_dir/time-per-row.svg" >&2

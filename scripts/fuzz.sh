#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ into build-asan/ (scripts/asan-build.sh) and runs
# each RUNS times (default 1) for SECONDS_PER_RUN (default 30), each run a
# process of its own with its own seed, from the seed corpus and what the
# earlier runs found; two targets at a time (NQUEENS_FUZZ_JOBS). Each run ends with a
# process exit, where a call still in flight would touch freed state: several
# short runs catch that more often than one long one. Exits non-zero if any
# run crashed, leaked, hit a sanitizer report or a timeout; the input that did
# it is left in build-asan/artifacts/ (reproduce: build-asan/fuzz/TARGET FILE).
#
#   scripts/fuzz.sh [SECONDS_PER_RUN [RUNS]]
#
# Needs the packages of scripts/install-deps.sh (clang, libclang-rt-14-dev);
# installs nothing. What the fuzzers find stays in build-asan/corpus/, never
# in the repository's fuzz/corpus/.
set -euo pipefail

seconds=${1:-30}
runs=${2:-1}
if ! [[ $seconds =~ ^[0-9]+$ && $runs =~ ^[0-9]+$ ]] || ((seconds == 0 || runs == 0)); then
  echo "usage: $0 [SECONDS_PER_RUN [RUNS]]" >&2
  exit 2
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$repo/build-asan"

# The fuzz targets and the libraries they link, in the build the asan stage of
# scripts/test.sh shares.
"$repo/scripts/asan-build.sh" fuzzers

mapfile -t targets < "$build_dir/fuzz/targets.txt"
artifacts="$build_dir/artifacts"
results="$build_dir/fuzz-results.txt"  # "TARGET pass|fail" lines, for test.sh
mkdir -p "$artifacts"
rm -f "$results"
# LeakSanitizer is on by default under ASan; UBSan reports abort (the build
# uses -fno-sanitize-recover), with a stack.
export UBSAN_OPTIONS=print_stacktrace=1
# fuzz_target TARGET: its runs, one after the other (each starts from what
# the earlier ones found); appends "TARGET pass|fail" to the results.
fuzz_target() {
  local target=$1 corpus="$build_dir/corpus/$1" target_failed=0 run log
  rm -rf "$corpus"
  mkdir -p "$corpus"
  cp "$repo/fuzz/corpus/$target/"* "$corpus/"
  for ((run = 1; run <= runs; ++run)); do
    log="$build_dir/$target.$run.log"
    echo "fuzz.sh: $target run $run of $runs for ${seconds}s from $(ls "$corpus" | wc -l) inputs"
    # -timeout: one input running over 10 s is a hang, reported as a failure.
    # -rss_limit_mb: the harnesses bound their allocations far below this.
    if "$build_dir/fuzz/$target" "$corpus" -max_total_time="$seconds" -seed="$run" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$target-" 2> "$log"; then
      # The last status line: runs, coverage, features, corpus; then speed.
      grep -E '^#[0-9]+' "$log" | tail -n 1 || true
      grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
    else
      target_failed=1
      tail -n 60 "$log"
      echo "fuzz.sh: FAILED: $target run $run (log: $log; input in $artifacts/)"
    fi
  done
  if ((target_failed)); then
    echo "$target fail" >> "$results"
  else
    echo "$target pass" >> "$results"
  fi
}

# Targets run NQUEENS_FUZZ_JOBS at a time (default 2, a core each on CI's
# machine); each writes to its own file, shown once all have ended.
jobs_at_once=${NQUEENS_FUZZ_JOBS:-2}
listed=()
for target in "${targets[@]}"; do
  [[ -n $target ]] || continue
  listed+=("$target")
  while (($(jobs -rp | wc -l) >= jobs_at_once)); do wait -n || true; done
  fuzz_target "$target" > "$build_dir/$target.out" 2>&1 &
done
wait
failed=()
for target in "${listed[@]}"; do
  cat "$build_dir/$target.out"
  grep -qx "$target pass" "$results" || failed+=("$target")
done
if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}"
  exit 1
fi
echo "fuzz.sh: all ${#targets[@]} targets ran ${runs} x ${seconds}s without a failure"

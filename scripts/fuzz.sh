#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ into build-asan/ (scripts/asan-build.sh) and runs
# each for SECONDS_PER_TARGET (default 30) on a copy of its seed corpus, one
# after the other. Exits non-zero if any target crashed, leaked, hit a
# sanitizer report or a timeout; the input that did it is left in
# build-asan/artifacts/ (reproduce: build-asan/fuzz/TARGET FILE).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
#
# Needs the packages of scripts/install-deps.sh (clang, libclang-rt-14-dev);
# installs nothing. What the fuzzers find stays in build-asan/corpus/, never
# in the repository's fuzz/corpus/.
set -euo pipefail

seconds=${1:-30}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "usage: $0 [SECONDS_PER_TARGET]" >&2
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
failed=()
for target in "${targets[@]}"; do
  [[ -n $target ]] || continue
  corpus="$build_dir/corpus/$target"
  rm -rf "$corpus"
  mkdir -p "$corpus"
  cp "$repo/fuzz/corpus/$target/"* "$corpus/"
  log="$build_dir/$target.log"
  echo "fuzz.sh: $target for ${seconds}s from $(ls "$corpus" | wc -l) seeds"
  # -timeout: one input running over 10 s is a hang, reported as a failure.
  # -rss_limit_mb: the harnesses bound their allocations far below this.
  if "$build_dir/fuzz/$target" "$corpus" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$target-" 2> "$log"; then
    echo "$target pass" >> "$results"
    # The last status line: runs, coverage, features, corpus; then speed.
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
  else
    echo "$target fail" >> "$results"
    failed+=("$target")
    tail -n 60 "$log"
    echo "fuzz.sh: FAILED: $target (log: $log; input in $artifacts/)"
  fi
done
if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}"
  exit 1
fi
echo "fuzz.sh: all ${#targets[@]} targets ran ${seconds}s without a failure"

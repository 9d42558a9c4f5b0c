#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds everything the tests
# need, and runs the whole suite with CTest; then the sanitizer and fuzzing
# stages, each in a build directory of its own:
#
#   format    -            every C++ file as .clang-format wants it
#   api       -            the .proto's contract (scripts/check-api.sh): buf
#                          lint, and buf breaking against the released 1.0.0
#   main      build/       the whole suite
#   tidy      build/       clang-tidy's checks (.clang-tidy) on the sources of
#                          core/, server/, client/, command_line/, proto/wire/
#                          and checker/, read in the main build's unity
#                          batches
#   asan      build-asan/  the whole suite under AddressSanitizer + UBSan,
#                          built with clang++ (scripts/asan-build.sh)
#   tsan      build-tsan/  the tests labelled `concurrency` under
#                          ThreadSanitizer (only their targets are built)
#   fuzz      build-asan/  each libFuzzer target 5 times for 10 s, two
#                          targets at a time (scripts/fuzz.sh), from the
#                          asan stage's build
#
# NQUEENS_TEST_STAGES (default "format api main tidy asan tsan fuzz") picks stages. Every stage
# runs even when an earlier one failed; the script exits non-zero if any
# failed. The closing summary line counts the test cases of all the CTest
# stages plus one per fuzz target.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
stages=${NQUEENS_TEST_STAGES:-format api main tidy asan tsan fuzz}
# Relative paths in ccache's keys: a fresh clone elsewhere on the same
# machine (CI's) reuses what an earlier build compiled, in every stage.
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1

scripts/install-deps.sh

# The TSan stage compiles at -O1 with line tables only (-g1), as OSS-Fuzz
# does and as scripts/asan-build.sh: reports keep file:line, and the compiler
# takes half the CPU time of RelWithDebInfo's -O2 -g.
tsan_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

failed_stages=()
junit_reports=()
fuzz_results="$repo/build-asan/fuzz-results.txt"
rm -f "$fuzz_results"

# run_ctest STAGE BUILD_DIR [ctest arguments...]: the tests of a built tree,
# with a JUnit report for the summary.
run_ctest() {
  local stage=$1 build_dir=$2
  shift 2
  local results="$build_dir/ctest-results.xml"
  rm -f "$results"
  junit_reports+=("$results")
  # --timeout turns a hung test into a failure instead of a stuck CI run.
  if ! ctest --test-dir "$build_dir" --output-on-failure -j2 --timeout 300 \
      --no-tests=error --output-junit "$results" "$@"; then
    failed_stages+=("$stage")
  fi
}


# cpu_ticks: the machine's busy and total CPU ticks since boot, from the
# first line of /proc/stat (user nice system idle iowait irq softirq steal).
cpu_ticks() {
  local label user nice system idle iowait irq softirq steal rest
  read -r label user nice system idle iowait irq softirq steal rest < /proc/stat
  local busy=$((user + nice + system + irq + softirq + steal))
  echo "$busy $((busy + idle + iowait))"
}
# One row a stage for the closing table: name, result, when it started and
# how long it took (seconds), and how busy the CPUs were meanwhile.
stage_rows=()

# run_tidy: clang-tidy's checks over our sources, from the main build's
# compile commands. That build is a unity build: each command compiles a batch
# file that includes up to 8 of a target's .cc files, so tidy reads every
# batch with one of our sources in it, and reports what it finds in them
# (.clang-tidy's HeaderFilterRegex names our folders). One parse of a batch's
# headers instead of one per file: about 2.5 times less CPU than file by file.
# bugprone-suspicious-include is left out here, since it would report each
# batch's own includes of .cc files. Without a unity build, tidy reads our
# sources one by one. Any finding fails; the log keeps only the
# findings.
run_tidy() {
  local tidy_log="$repo/build/clang-tidy.log" batch batches=()
  local ours="$repo/(core|server|client|command_line|proto/wire|checker)/[^\"]*\\.cc"
  while read -r batch; do
    grep -qE "^#include \"$ours\"\$" "$batch" && batches+=("$batch")
  done < <(find "$repo/build" -path '*/Unity/unity_*.cxx' | sort)
  # A build configured with -DNQUEENS_UNITY_BUILD=OFF has no batches.
  ((${#batches[@]} > 0)) || batches=("$ours\$")
  if run-clang-tidy -p "$repo/build" -quiet -j 2 -checks=-bugprone-suspicious-include \
      "${batches[@]}" > "$tidy_log" 2>&1; then
    return 0
  fi
  grep -E -A3 '(warning|error): ' "$tidy_log" | head -n 200 || true
  return 1
}

# build_tsan: only what the `concurrency` tests need: Debian's gRPC and
# Abseil are not instrumented, so TSan is meaningful only for our own threads.
build_tsan() {
  echo "test.sh: stage tsan: building in $repo/build-tsan"
  cmake -S "$repo" -B "$repo/build-tsan" -G Ninja -DNQUEENS_SANITIZE_THREAD=ON \
    -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_WERROR=ON "${tsan_flags[@]}" &&
    cmake --build "$repo/build-tsan" --target concurrency_tests
}

# The tests of the main and asan stages leave the CPUs partly idle (the main
# suite keeps two cores about 64 % busy: its tests wait on servers and
# subprocesses). Beside them the next CPU-bound step starts at the lowest
# priority, so that the tests keep every cycle they ask for: tidy beside the
# main tests, the TSan build beside the ASan tests. Its stage then waits for
# it, and its output is printed there.
declare -A early_pid early_start
early_logs=$(mktemp -d)
trap 'rm -rf "$early_logs"' EXIT
# start_early STAGE COMMAND...: runs COMMAND for STAGE in the background, if
# STAGE is to run at all.
start_early() {
  local stage=$1
  shift
  [[ " $stages " == *" $stage "* ]] || return 0
  echo "test.sh: stage $stage starts beside the tests (nice 19)"
  early_start[$stage]=$SECONDS
  # A subshell, so that COMMAND may be one of this script's functions; it
  # lowers its own priority, which the processes it starts inherit.
  (renice -n 19 -p "$BASHPID" > /dev/null && "$@") > "$early_logs/$stage.log" 2>&1 &
  early_pid[$stage]=$!
}
# finish_early STAGE: 0 if STAGE was started early and succeeded; 1 if it
# failed; 2 if it was not started early.
finish_early() {
  local stage=$1 status=0
  [[ -n ${early_pid[$stage]:-} ]] || return 2
  wait "${early_pid[$stage]}" || status=1
  cat "$early_logs/$stage.log"
  return $status
}

run_start=$SECONDS
for stage in $stages; do
  stage_start=$SECONDS
  read -r busy_start total_start < <(cpu_ticks)
  failures_before=${#failed_stages[@]}
  case $stage in
    format)
      # One formatter for the tree; the stage names the files it would change.
      if ! git ls-files -z '*.cc' '*.h' | xargs -0 clang-format --dry-run --Werror; then
        failed_stages+=(format)
      fi
      ;;
    api)
      scripts/check-api.sh || failed_stages+=(api)
      ;;
    main)
      scripts/build.sh --tests
      start_early tidy run_tidy
      run_ctest main "$repo/build"
      ;;
    tidy)
      stage_start=${early_start[tidy]:-$stage_start}
      finish_early tidy || { (($? == 2)) && run_tidy; } || failed_stages+=(tidy)
      ;;
    asan)
      # The whole suite, the server binary the Python tests start included,
      # and the fuzz targets the fuzz stage runs. UBSan aborts
      # (-fno-sanitize-recover) with a stack; LeakSanitizer runs at every
      # exit, with tests/lsan_suppressions.txt.
      echo "test.sh: stage asan: building in $repo/build-asan"
      if ! scripts/asan-build.sh; then
        failed_stages+=("asan (build)")
      else
        start_early tsan build_tsan
        UBSAN_OPTIONS=print_stacktrace=1 \
          LSAN_OPTIONS="suppressions=$repo/tests/lsan_suppressions.txt" \
          run_ctest asan "$repo/build-asan"
      fi
      ;;
    tsan)
      # halt_on_error: a report fails the test even if it would pass.
      stage_start=${early_start[tsan]:-$stage_start}
      built=0
      finish_early tsan || { (($? == 2)) && build_tsan; } && built=1
      if ((built)); then
        TSAN_OPTIONS=halt_on_error=1 \
          run_ctest tsan "$repo/build-tsan" -L concurrency
      else
        failed_stages+=("tsan (build)")
      fi
      ;;
    fuzz)
      scripts/fuzz.sh 10 5 || failed_stages+=(fuzz)
      ;;
    *)
      echo "test.sh: unknown stage $stage" >&2
      exit 2
      ;;
  esac
  read -r busy_end total_end < <(cpu_ticks)
  busy_percent=$((100 * (busy_end - busy_start) / (total_end - total_start > 0 ? total_end - total_start : 1)))
  result=passed
  ((${#failed_stages[@]} > failures_before)) && result=failed
  stage_rows+=("$(printf '%-8s %-7s %7d %7d %7d%%' "$stage" "$result" \
    $((stage_start - run_start)) $((SECONDS - stage_start)) "$busy_percent")")
  echo "test.sh: stage $stage took $((SECONDS - stage_start)) s"
done

printf '%-8s %-7s %7s %7s %8s\n' stage result start seconds "CPU busy"
printf '%s\n' "${stage_rows[@]}"
printf '%-8s %-7s %7s %7d\n' all "" "" "$SECONDS"

# Test cases in the JUnit reports whose status is $1.
count_status() {
  local total=0 report count
  for report in "${junit_reports[@]}"; do
    [[ -f $report ]] || continue
    count=$(grep -c "<testcase .*status=\"$1\"" "$report" || true)
    total=$((total + count))
  done
  echo "$total"
}
# Fuzz targets whose result is $1 (pass or fail).
count_fuzz() {
  [[ -f $fuzz_results ]] || { echo 0; return; }
  grep -c " $1\$" "$fuzz_results" || true
}

if ((${#failed_stages[@]} > 0)); then
  echo "test.sh: FAILED stages: ${failed_stages[*]}"
fi
# Last, so that it is the run's closing line.
echo "summary: $(($(count_status run) + $(count_fuzz pass))) passed," \
  "$(($(count_status fail) + $(count_fuzz fail))) failed," \
  "$(count_status notrun) skipped"
((${#failed_stages[@]} == 0))

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
#                          and checker/, with the main build's compile commands
#   asan      build-asan/  the whole suite under AddressSanitizer + UBSan,
#                          built with clang++ (scripts/asan-build.sh)
#   tsan      build-tsan/  the tests labelled `concurrency` under
#                          ThreadSanitizer (only their targets are built)
#   fuzz      build-asan/  each libFuzzer target 5 times for 30 s, two
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

# configure_and_build STAGE BUILD_DIR [cmake arguments...] -- [build arguments...]
configure_and_build() {
  local stage=$1 build_dir=$2
  shift 2
  local configure=() build=()
  while (($#)) && [[ $1 != -- ]]; do configure+=("$1"); shift; done
  (($#)) && shift
  build=("$@")
  echo "test.sh: stage $stage: building in $build_dir"
  if cmake -S "$repo" -B "$build_dir" -G Ninja "${configure[@]}" &&
      cmake --build "$build_dir" "${build[@]}"; then
    return 0
  fi
  failed_stages+=("$stage (build)")
  return 1
}

for stage in $stages; do
  stage_start=$SECONDS
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
      run_ctest main "$repo/build"
      ;;
    tidy)
      # The compile commands and the generated headers of the main build
      # (built already when the main stage ran). Any finding fails the stage;
      # the log keeps only the findings.
      tidy_log="$repo/build/clang-tidy.log"
      if ! scripts/build.sh --tests > /dev/null ||
          ! run-clang-tidy -p "$repo/build" -quiet -j 2 \
            "$repo/(core|server|client|command_line|proto/wire|checker)/.*\.cc\$" \
            > "$tidy_log" 2>&1; then
        grep -E -A3 '(warning|error): ' "$tidy_log" | head -n 200 || true
        failed_stages+=(tidy)
      fi
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
        UBSAN_OPTIONS=print_stacktrace=1 \
          LSAN_OPTIONS="suppressions=$repo/tests/lsan_suppressions.txt" \
          run_ctest asan "$repo/build-asan"
      fi
      ;;
    tsan)
      # Only what the `concurrency` tests need: Debian's gRPC and Abseil are
      # not instrumented, so TSan is meaningful only for our own threads.
      # halt_on_error: a report fails the test even if it would pass.
      if configure_and_build tsan "$repo/build-tsan" \
          -DNQUEENS_SANITIZE_THREAD=ON -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_WERROR=ON "${tsan_flags[@]}" \
          -- --target concurrency_tests; then
        TSAN_OPTIONS=halt_on_error=1 \
          run_ctest tsan "$repo/build-tsan" -L concurrency
      fi
      ;;
    fuzz)
      scripts/fuzz.sh 30 5 || failed_stages+=(fuzz)
      ;;
    *)
      echo "test.sh: unknown stage $stage" >&2
      exit 2
      ;;
  esac
  echo "test.sh: stage $stage took $((SECONDS - stage_start)) s"
done

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

#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds everything the tests
# need, and runs the whole suite with CTest. Exits non-zero if any test fails.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
results="$repo/build/ctest-results.xml"

scripts/install-deps.sh
scripts/build.sh --tests

rm -f "$results"
ctest_status=0
# --timeout turns a hung test into a failure instead of a stuck CI run.
ctest --test-dir build --output-on-failure -j2 --timeout 300 \
  --no-tests=error --output-junit "$results" || ctest_status=$?

# Test cases in the JUnit report whose status is $1.
count_status() {
  grep -c "<testcase .*status=\"$1\"" "$results" || true
}

if ((ctest_status != 0)); then
  echo "test.sh: FAILED (ctest exit status $ctest_status)"
fi
# Last, so that it is the run's closing line.
if [[ -f $results ]]; then
  echo "summary: $(count_status run) passed, $(count_status fail) failed," \
    "$(count_status notrun) skipped"
else
  echo "summary: ctest wrote no results"
fi
exit "$ctest_status"

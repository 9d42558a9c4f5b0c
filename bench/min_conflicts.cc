// MIN_CONFLICTS at scale: Solve(n, kMinConflicts) in this process, one
// thread, over several seeds per board size, each result checked with
// nqueens::Validate outside the timed part.
//
//   nqueens-min-conflicts --sizes=1000,10000,100000,1000000,10000000,100000000 --runs=5
//
// Prints a Markdown table, one line per size: the median, fastest and
// slowest wall time, the median of the repair moves (stats.repairs), and the
// peak resident memory per row: the largest growth of VmHWM over the
// resident size before the call (the peak is reset just before it), the
// returned board included.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/proc_memory.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(std::string, sizes, "1000,10000,100000,1000000,10000000,100000000",
          "board sizes, comma-separated");
ABSL_FLAG(uint32_t, runs, 5, "runs per size, with seeds seed, seed + 1, ...");
ABSL_FLAG(uint64_t, seed, 1, "seed of the first run");

namespace {

using nqueens::bench::Clock;

struct Run {
  double seconds = 0;
  uint64_t repairs = 0;
  uint64_t peak_bytes = 0;
};

uint64_t ResidentBytes(const char* field) {
  return nqueens::bench::ProcStatusBytes("self", field).value_or(0);
}

// One checked run; false (with a message) when the call fails or its
// result is not a solution.
bool Measure(uint32_t n, uint64_t seed, Run& run) {
  nqueens::SolveOptions options;
  options.seed = seed;
  const uint64_t before = ResidentBytes("VmRSS");
  nqueens::bench::ResetPeakResidentBytes("self");
  const Clock::time_point start = Clock::now();
  absl::StatusOr<nqueens::CompletionResult> result =
      nqueens::Solve(n, nqueens::SolveMethod::kMinConflicts, options);
  run.seconds = nqueens::bench::SecondsSince(start);
  const uint64_t peak = ResidentBytes("VmHWM");
  run.peak_bytes = peak > before ? peak - before : 0;
  if (!result.ok()) {
    absl::FPrintF(stderr, "n = %d, seed %d: %s\n", n, seed, result.status().ToString());
    return false;
  }
  if (result->outcome != nqueens::Outcome::kSolved) {
    absl::FPrintF(stderr, "n = %d, seed %d: %s\n", n, seed, nqueens::OutcomeName(result->outcome));
    return false;
  }
  run.repairs = result->stats.repairs;
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(result->columns);
  if (!report.ok() || !report->complete) {
    absl::FPrintF(stderr, "n = %d, seed %d: not a solution\n", n, seed);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  const uint32_t runs = absl::GetFlag(FLAGS_runs);
  std::vector<uint32_t> sizes;
  for (absl::string_view size : absl::StrSplit(absl::GetFlag(FLAGS_sizes), ',')) {
    uint32_t n = 0;
    if (!absl::SimpleAtoi(size, &n) || n == 0 || runs == 0) {
      absl::FPrintF(stderr, "nqueens-min-conflicts: bad --sizes or --runs\n");
      return 2;
    }
    sizes.push_back(n);
  }
  absl::PrintF("%s\n\n", absl::StrJoin(argv, argv + argc, " "));
  absl::PrintF("| n | runs | median s | min s | max s | median repairs | peak bytes/row |\n");
  absl::PrintF("|---:|---:|---:|---:|---:|---:|---:|\n");
  for (uint32_t n : sizes) {
    std::vector<double> seconds;
    std::vector<double> repairs;
    uint64_t peak_bytes = 0;
    for (uint32_t i = 0; i < runs; ++i) {
      Run run;
      if (!Measure(n, absl::GetFlag(FLAGS_seed) + i, run)) return 1;
      seconds.push_back(run.seconds);
      repairs.push_back(static_cast<double>(run.repairs));
      peak_bytes = std::max(peak_bytes, run.peak_bytes);
    }
    absl::PrintF("| %d | %d | %.4f | %.4f | %.4f | %.0f | %.2f |\n", n, runs,
                 nqueens::bench::Median(seconds), *std::min_element(seconds.begin(), seconds.end()),
                 *std::max_element(seconds.begin(), seconds.end()), nqueens::bench::Median(repairs),
                 static_cast<double>(peak_bytes) / n);
    std::fflush(stdout);
  }
  return 0;
}

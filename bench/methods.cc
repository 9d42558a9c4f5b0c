// BACKTRACKING, GENETIC and FORMULA side by side (docs/methods.md): for each
// method and n, the share of runs solved within the deadline and the median
// time; then, for GENETIC, the share of seeds solved within the deadline at
// the sizes its target names (every n <= 200 within 10 s in 95% of seeds).
//
//   nqueens-methods --n=8,100,1000 --runs=5 --genetic_seeds=20 --max_seconds=10
//
// Every result is checked with nqueens::Validate; a board that fails counts
// as unsolved and is reported. FORMULA runs a different variant per run
// (spread over 0..FormulaVariantCount(n) - 1); GENETIC a different seed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(std::vector<std::string>, n, (std::vector<std::string>{"8", "100", "1000"}),
          "board sizes of the side-by-side table");
ABSL_FLAG(std::vector<std::string>, methods,
          (std::vector<std::string>{"BACKTRACKING", "GENETIC", "FORMULA"}),
          "methods of the side-by-side table");
ABSL_FLAG(uint32_t, runs, 5, "runs per method and n in the side-by-side table");
ABSL_FLAG(std::vector<std::string>, genetic_n,
          (std::vector<std::string>{"8", "16", "32", "50", "100", "150", "200"}),
          "board sizes of the GENETIC table");
ABSL_FLAG(uint32_t, genetic_seeds, 20, "seeds per n in the GENETIC table");
ABSL_FLAG(double, max_seconds, 10, "deadline of each run");
ABSL_FLAG(uint32_t, repair_swaps_per_row, nqueens::PipelineParams{}.genetic_repair_swaps_per_row,
          "GENETIC's repair swaps per row (0: the paper's plain GA)");

namespace {

using nqueens::CompletionResult;
using nqueens::Outcome;
using nqueens::SolveMethod;
using nqueens::SolveOptions;
using nqueens::bench::Clock;

struct Run {
  bool solved = false;
  double seconds = 0;
  uint64_t work = 0;  // nodes or generations
};

Run RunOnce(uint32_t n, SolveMethod method, uint64_t index) {
  SolveOptions options;
  options.seed = index + 1;
  options.params.genetic_repair_swaps_per_row = absl::GetFlag(FLAGS_repair_swaps_per_row);
  options.stop.deadline = absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_max_seconds));
  if (method == SolveMethod::kFormula) {
    const uint64_t count = nqueens::FormulaVariantCount(n);
    const uint32_t runs = std::max(absl::GetFlag(FLAGS_runs), 1u);
    options.formula_variant = count / runs * index % count;
  }
  const Clock::time_point start = Clock::now();
  absl::StatusOr<CompletionResult> result = nqueens::Solve(n, method, options);
  Run run;
  run.seconds = nqueens::bench::SecondsSince(start);
  if (!result.ok()) return run;
  run.work =
      method == SolveMethod::kGenetic ? result->stats.generations : result->stats.search_nodes;
  if (result->outcome != Outcome::kSolved) return run;
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(result->columns);
  run.solved = report.ok() && report->complete;
  if (!run.solved) std::printf("INVALID board: n = %u, %s\n", n, nqueens::SolveMethodName(method));
  return run;
}

struct Summary {
  uint32_t runs = 0, solved = 0;
  double median_seconds = 0, p90_seconds = 0, median_work = 0;
};

Summary Measure(uint32_t n, SolveMethod method, uint32_t runs) {
  Summary summary;
  std::vector<double> seconds, work;
  for (uint32_t i = 0; i < runs; ++i) {
    const Run run = RunOnce(n, method, i);
    ++summary.runs;
    summary.solved += run.solved;
    seconds.push_back(run.seconds);
    work.push_back(static_cast<double>(run.work));
  }
  summary.median_seconds = nqueens::bench::Median(seconds);
  summary.p90_seconds = nqueens::bench::Percentile(seconds, 0.9);
  summary.median_work = nqueens::bench::Median(work);
  return summary;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::printf("Command: `%s`\n\n", absl::StrJoin(argv, argv + argc, " ").c_str());
  const double deadline = absl::GetFlag(FLAGS_max_seconds);
  std::printf(
      "Each run with a deadline of %g s; time is wall time of Solve (median of the "
      "runs, unsolved runs included).\n\n",
      deadline);
  std::printf("| method | n | runs | solved | median time (ms) | median nodes / generations |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (SolveMethod method :
       {SolveMethod::kBacktracking, SolveMethod::kGenetic, SolveMethod::kFormula}) {
    const std::vector<std::string> methods = absl::GetFlag(FLAGS_methods);
    const std::string name = nqueens::SolveMethodName(method);
    if (std::find(methods.begin(), methods.end(), name) == methods.end()) continue;
    for (uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_n))) {
      const Summary s = Measure(n, method, absl::GetFlag(FLAGS_runs));
      std::printf("| %s | %u | %u | %u%% | %.3f | %.0f |\n", nqueens::SolveMethodName(method), n,
                  s.runs, 100 * s.solved / s.runs, 1000 * s.median_seconds, s.median_work);
      std::fflush(stdout);
    }
  }
  std::printf("\nGENETIC, %u seeds per n, repair swaps per row %u:\n\n",
              absl::GetFlag(FLAGS_genetic_seeds), absl::GetFlag(FLAGS_repair_swaps_per_row));
  std::printf(
      "| n | seeds | solved within %g s | median time (ms) | p90 time (ms) | "
      "median generations |\n",
      deadline);
  std::printf("|---:|---:|---:|---:|---:|---:|\n");
  for (uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_genetic_n))) {
    const Summary s = Measure(n, SolveMethod::kGenetic, absl::GetFlag(FLAGS_genetic_seeds));
    std::printf("| %u | %u | %u%% | %.3f | %.3f | %.0f |\n", n, s.runs, 100 * s.solved / s.runs,
                1000 * s.median_seconds, 1000 * s.p90_seconds, s.median_work);
    std::fflush(stdout);
  }
  return 0;
}

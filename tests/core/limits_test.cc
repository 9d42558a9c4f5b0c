// Every method honours every limit it is given (docs/methods.md, "Limits"):
// a limited call answers UNDECIDED with the counter of its limit within it,
// a call whose deadline has passed or that was cancelled before it began
// stops with DEADLINE_EXCEEDED or CANCELLED, and the same methods without
// limits solve small boards. Nothing here is timed: the limits are counters,
// and the stops are set before the call.
#include <cstdint>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

SolveOptions SeededSolve(uint64_t seed) {
  SolveOptions options;
  options.seed = seed;
  return options;
}

CompleteOptions CompleteBy(CompleteMethod method) {
  CompleteOptions options;
  options.seed = 1;
  options.complete_method = method;
  return options;
}

// An UNDECIDED answer, which claims nothing.
void ExpectUndecided(const absl::StatusOr<CompletionResult>& result) {
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->outcome, Outcome::kUndecided);
  EXPECT_TRUE(result->columns.empty());
}

// A full solution of the board that keeps every queen of `input`.
void ExpectSolves(const Columns& input, const absl::StatusOr<CompletionResult>& result) {
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, Outcome::kSolved);
  absl::StatusOr<ValidationReport> report = Validate(result->columns);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete);
  ASSERT_EQ(result->columns.size(), input.size());
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      EXPECT_EQ(result->columns[row], input[row]) << "row " << row + 1;
    }
  }
}

// n = 4 with a queen in a corner: no completion (4 x 4 has two solutions,
// neither with a corner queen).
Columns CornerQueen() {
  Columns input(4, kEmptyRow);
  input[0] = 1;
  return input;
}

// --- BACKTRACKING: backtracks, nodes and seconds. ---

TEST(LimitsTest, BacktrackingStopsAtItsBacktracks) {
  // 1,000 backtracks on n = 100 (the control arrays), and
  // on n = 20 (the masks), where the first solution takes 199,635 nodes.
  for (uint32_t n : {20u, 100u}) {
    SolveOptions options;
    options.params.tot_sim_bound = 1000;
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kBacktracking, options);
    ExpectUndecided(result);
    EXPECT_LE(result->stats.backtracks, 1000u) << "n = " << n;
    EXPECT_GT(result->stats.backtracks, 0u) << "n = " << n;
  }
}

TEST(LimitsTest, BacktrackingStopsAtItsNodes) {
  SolveOptions options;
  options.params.exact_node_budget = 50;
  for (uint32_t n : {30u, 100u}) {
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kBacktracking, options);
    ExpectUndecided(result);
    EXPECT_LE(result->stats.search_nodes, 50u) << "n = " << n;
  }
}

TEST(LimitsTest, BacktrackingGivesUpAtItsSeconds) {
  // A nanosecond has passed by the first poll, long before any solution.
  SolveOptions options;
  options.params.exact_max_seconds = 1e-9;
  ExpectUndecided(Solve(100, SolveMethod::kBacktracking, options));
}

// --- GENETIC: boards given up. ---

TEST(LimitsTest, GeneticStopsAtItsBacktracks) {
  // On a board of n = 10^5, a generation takes tenths of a second:
  // the boards given up bound the call's time, not the generations. 100 is
  // the first population (75) and part of the first generation.
  struct Case {
    uint32_t n;
    uint64_t backtracks;
  };
  for (const Case& c : {Case{2000, 100}, Case{100'000, 10}}) {
    SolveOptions options = SeededSolve(1);
    options.params.tot_sim_bound = c.backtracks;
    absl::StatusOr<CompletionResult> result = Solve(c.n, SolveMethod::kGenetic, options);
    ExpectUndecided(result);
    EXPECT_LE(result->stats.backtracks, c.backtracks) << "n = " << c.n;
    EXPECT_LE(result->stats.generations, 1u) << "n = " << c.n;
  }
}

// --- MIN_CONFLICTS: moves per run, and restarts. ---

TEST(LimitsTest, MinConflictsSolveStopsAtItsMovesAndRestarts) {
  // The greedy start leaves dozens of queens in conflict at n = 10^5.
  SolveOptions options = SeededSolve(1);
  options.params.tot_sim_bound = 1;
  options.params.max_restarts = 2;
  absl::StatusOr<CompletionResult> result = Solve(100'000, SolveMethod::kMinConflicts, options);
  ExpectUndecided(result);
  EXPECT_LE(result->stats.repairs, 3u);
  EXPECT_EQ(result->stats.restarts, 2u);
}

TEST(LimitsTest, MinConflictsCompleteSpendsEachRunsMovesThenRestarts) {
  // Every run of an input without completion spends all of its moves.
  CompleteOptions options = CompleteBy(CompleteMethod::kMinConflicts);
  options.params.tot_sim_bound = 7;
  options.params.max_restarts = 3;
  absl::StatusOr<CompletionResult> result = Complete(CornerQueen(), options);
  ExpectUndecided(result);
  EXPECT_EQ(result->stats.repairs, 4u * 7);
  EXPECT_EQ(result->stats.restarts, 3u);
  // Without tot_sim_bound, min_conflicts_moves_per_row per free row.
  options.params.tot_sim_bound = 0;
  options.params.min_conflicts_moves_per_row = 5;
  result = Complete(CornerQueen(), options);
  ExpectUndecided(result);
  EXPECT_EQ(result->stats.repairs, 4u * 5 * 3);
}

// --- PIPELINE and RANDOM: backtracks per run, restarts, exact nodes. ---

TEST(LimitsTest, PipelineStopsAtItsBacktracksAndRestarts) {
  // Row 1 is attacked everywhere; with the exact search off nothing may say
  // so, and every run dead-ends.
  CompleteOptions options = CompleteBy(CompleteMethod::kPipeline);
  options.params.exact_max_free_rows = 0;
  options.params.tot_sim_bound = 3;
  options.params.max_restarts = 2;
  absl::StatusOr<CompletionResult> result = Complete(test_boards::RowOneBlocked(100), options);
  ExpectUndecided(result);
  EXPECT_LE(result->stats.backtracks, 3u * 3);
  EXPECT_EQ(result->stats.restarts, 2u);
}

TEST(LimitsTest, RandomStopsAtItsBacktracksAndRestarts) {
  // One backtrack and no restart: seeds whose first descent dead-ends give
  // up, the others solve.
  int undecided = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SolveOptions options = SeededSolve(seed);
    options.params.exact_max_free_rows = 0;
    options.params.tot_sim_bound = 1;
    options.params.max_restarts = 0;
    absl::StatusOr<CompletionResult> result = Solve(8, SolveMethod::kRandom, options);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_LE(result->stats.backtracks, 1u) << "seed " << seed;
    EXPECT_EQ(result->stats.restarts, 0u) << "seed " << seed;
    if (result->outcome == Outcome::kSolved) {
      ExpectSolves(Columns(8, kEmptyRow), result);
    } else {
      ExpectUndecided(result);
      ++undecided;
    }
  }
  EXPECT_GT(undecided, 0);
}

TEST(LimitsTest, ThePipelinesAndTheExactMethodsSearchStopsAtItsNodes) {
  for (CompleteMethod method : {CompleteMethod::kPipeline, CompleteMethod::kExact}) {
    CompleteOptions options = CompleteBy(method);
    options.params.tot_sim_bound = 1;
    options.params.max_restarts = 0;
    options.params.exact_node_budget = 1000;
    absl::StatusOr<CompletionResult> result = Complete(test_boards::HardUnsolvableBoard(), options);
    ExpectUndecided(result);
    EXPECT_LE(result->stats.exact_nodes, 1000u) << CompleteMethodName(method);
    EXPECT_GT(result->stats.exact_nodes, 0u) << CompleteMethodName(method);
  }
}

TEST(LimitsTest, TheExactMethodGivesUpAtItsSeconds) {
  CompleteOptions options = CompleteBy(CompleteMethod::kExact);
  options.params.exact_max_seconds = 1e-9;
  absl::StatusOr<CompletionResult> result = Complete(test_boards::HardUnsolvableBoard(), options);
  ExpectUndecided(result);
  EXPECT_LT(result->stats.exact_explored, 1.0);
}

// --- The call's deadline and cancellation, for every method. ---

StopCondition PassedDeadline() {
  StopCondition stop;
  stop.deadline = absl::Now() - absl::Seconds(1);
  return stop;
}

StopCondition Cancelled() {
  StopCondition stop;
  stop.cancelled = [] { return true; };
  return stop;
}

TEST(LimitsTest, EverySolveMethodStopsAtTheCallsStop) {
  constexpr uint32_t kRows = 100'000;
  for (const SolveMethodInfo& method : SolveMethods()) {
    SolveOptions options;
    options.stop = PassedDeadline();
    EXPECT_EQ(Solve(kRows, method.method, options).status().code(),
              absl::StatusCode::kDeadlineExceeded)
        << method.name;
    options.stop = Cancelled();
    EXPECT_EQ(Solve(kRows, method.method, options).status().code(), absl::StatusCode::kCancelled)
        << method.name;
  }
}

TEST(LimitsTest, EveryCompleteMethodStopsAtTheCallsStop) {
  // Every other row of the construction: 50,000 free rows, within the exact
  // method's reach.
  constexpr uint32_t kRows = 100'000;
  Columns input = *ConstructSolution(kRows);
  for (uint32_t row = 0; row < kRows; row += 2) input[row] = kEmptyRow;
  for (const MethodInfo<CompleteMethod>& method : CompleteMethods()) {
    CompleteOptions options = CompleteBy(method.method);
    options.stop = PassedDeadline();
    EXPECT_EQ(Complete(input, options).status().code(), absl::StatusCode::kDeadlineExceeded)
        << method.name;
    options.stop = Cancelled();
    EXPECT_EQ(Complete(input, options).status().code(), absl::StatusCode::kCancelled)
        << method.name;
  }
}

// --- Without limits, small boards solve. ---

TEST(LimitsTest, EveryMethodSolvesASmallBoardWithoutLimits) {
  constexpr uint32_t kRows = 12;
  for (const SolveMethodInfo& method : SolveMethods()) {
    SCOPED_TRACE(method.name);
    ExpectSolves(Columns(kRows, kEmptyRow), Solve(kRows, method.method, SeededSolve(1)));
  }
  const Columns input =
      test_boards::RandomSubComposition(test_boards::RandomSolution(kRows, 1), kRows / 2, 2);
  for (const MethodInfo<CompleteMethod>& method : CompleteMethods()) {
    SCOPED_TRACE(method.name);
    ExpectSolves(input, Complete(input, CompleteBy(method.method)));
  }
}

}  // namespace
}  // namespace nqueens

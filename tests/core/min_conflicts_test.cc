// MIN_CONFLICTS through the public entry points: Solve(n, kMinConflicts) and
// Complete with CompleteMethod::kMinConflicts. Every result is checked with
// the validator and against its input.
#include <cstdint>
#include <string>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;

bool IsSolution(const Columns& board, uint32_t n) {
  absl::StatusOr<ValidationReport> report = Validate(board);
  return board.size() == n && report.ok() && report->complete;
}

CompleteOptions MinConflictsOptions(uint64_t seed) {
  CompleteOptions options;
  options.seed = seed;
  options.complete_method = CompleteMethod::kMinConflicts;
  return options;
}

// A solved result that keeps every queen of `input`.
void ExpectCompletes(const Columns& input, const absl::StatusOr<CompletionResult>& result) {
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, Outcome::kSolved);
  ASSERT_TRUE(IsSolution(result->columns, input.size()));
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      ASSERT_EQ(result->columns[row], input[row]) << "row " << row + 1;
    }
  }
}

TEST(MinConflictsSolveTest, SolvesSmallAndMediumBoards) {
  std::vector<uint32_t> sizes = {1, 10'000, 100'000};
  for (uint32_t n = 4; n <= 200; ++n) sizes.push_back(n);
  for (uint32_t n : sizes) {
    absl::StatusOr<CompletionResult> result =
        Solve(n, SolveMethod::kMinConflicts, SolveOptions(MinConflictsOptions(n)));
    ASSERT_TRUE(result.ok()) << "n = " << n << ": " << result.status();
    ASSERT_EQ(result->outcome, Outcome::kSolved) << "n = " << n;
    EXPECT_TRUE(IsSolution(result->columns, n)) << "n = " << n;
    EXPECT_EQ(result->stats.seed, n);
    EXPECT_EQ(result->stats.method, "MIN_CONFLICTS");
  }
}

TEST(MinConflictsSolveTest, TheSeedDecidesTheBoard) {
  const auto solve = [](uint64_t seed) {
    return Solve(5000, SolveMethod::kMinConflicts, SolveOptions(MinConflictsOptions(seed)));
  };
  absl::StatusOr<CompletionResult> first = solve(7), again = solve(7), other = solve(8);
  ASSERT_TRUE(first.ok() && again.ok() && other.ok());
  ASSERT_EQ(first->outcome, Outcome::kSolved);
  EXPECT_EQ(first->columns, again->columns);
  EXPECT_EQ(first->stats.repairs, again->stats.repairs);
  EXPECT_NE(first->columns, other->columns);
}

TEST(MinConflictsSolveTest, TwoAndThreeAreProvedUnsolvableBeforeTheHeuristicRuns) {
  for (uint32_t n : {2u, 3u}) {
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kMinConflicts);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->outcome, Outcome::kUnsolvable) << "n = " << n;
    EXPECT_GT(result->stats.exact_nodes, 0u);
  }
}

TEST(MinConflictsSolveTest, WithoutMovesItSaysUndecidedNeverUnsolvable) {
  // The greedy start leaves queens in conflict on most boards of this size;
  // with no moves allowed those runs give up.
  int undecided = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SolveOptions options(MinConflictsOptions(seed));
    options.params.min_conflicts_moves_per_row = 0;
    absl::StatusOr<CompletionResult> result = Solve(2000, SolveMethod::kMinConflicts, options);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_NE(result->outcome, Outcome::kUnsolvable);
    EXPECT_EQ(result->stats.repairs, 0u);
    if (result->outcome == Outcome::kUndecided) {
      ++undecided;
      EXPECT_TRUE(result->columns.empty());
    } else {
      EXPECT_TRUE(IsSolution(result->columns, 2000));
    }
  }
  EXPECT_GT(undecided, 0);
}

TEST(MinConflictsSolveTest, StopsWhenCancelledOrPastTheDeadline) {
  SolveOptions cancelled(MinConflictsOptions(1));
  cancelled.stop.cancelled = [] { return true; };
  EXPECT_EQ(Solve(100'000, SolveMethod::kMinConflicts, cancelled).status().code(),
            absl::StatusCode::kCancelled);
  SolveOptions late(MinConflictsOptions(1));
  late.stop.deadline = absl::Now() - absl::Seconds(1);
  EXPECT_EQ(Solve(100'000, SolveMethod::kMinConflicts, late).status().code(),
            absl::StatusCode::kDeadlineExceeded);
}

TEST(MinConflictsCompleteTest, KeepsTheGivenQueens) {
  for (uint32_t n : {4u, 8u, 50u, 300u, 2000u}) {
    const Columns solution = test_boards::RandomSolution(n, n);
    for (uint32_t k : {0u, 1u, n / 4, n / 2, n - 1}) {
      const Columns input = test_boards::RandomSubComposition(solution, k, n + k);
      absl::StatusOr<CompletionResult> result = Complete(input, MinConflictsOptions(k));
      SCOPED_TRACE(testing::Message() << "n = " << n << ", k = " << k);
      ExpectCompletes(input, result);
      EXPECT_EQ(result->stats.queens_given, k);
      EXPECT_EQ(result->stats.method, "MIN_CONFLICTS");
    }
  }
}

TEST(MinConflictsCompleteTest, AFullBoardIsSolvedAsItIs) {
  const Columns solution = test_boards::RandomSolution(40, 1);
  absl::StatusOr<CompletionResult> result = Complete(solution, MinConflictsOptions(1));
  ExpectCompletes(solution, result);
  EXPECT_EQ(result->stats.repairs, 0u);
}

TEST(MinConflictsCompleteTest, NamesAttackingQueens) {
  Columns board(8, kEmptyRow);
  board[1] = 3;  // (2, 3) and (5, 6) share a diagonal
  board[4] = 6;
  absl::StatusOr<CompletionResult> result = Complete(board, MinConflictsOptions(1));
  ASSERT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr("(row 2, column 3)"));
  EXPECT_THAT(result.status().message(), HasSubstr("(row 5, column 6)"));
}

TEST(MinConflictsCompleteTest, AnInputWithoutCompletionIsUndecided) {
  int checked = 0;
  for (uint64_t seed = 1; checked < 5 && seed < 1000; ++seed) {
    const Columns input = test_boards::RandomComposition(8, 4, seed);
    if (test_boards::BruteForceHasCompletion(input)) continue;
    ++checked;
    CompleteOptions options = MinConflictsOptions(seed);
    options.params.min_conflicts_moves_per_row = 10;  // each move is a stuck queen's restart
    absl::StatusOr<CompletionResult> result = Complete(input, options);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->outcome, Outcome::kUndecided);
    EXPECT_TRUE(result->columns.empty());
  }
  EXPECT_EQ(checked, 5);
}

TEST(MinConflictsCompleteTest, StopsWhenCancelled) {
  CompleteOptions options = MinConflictsOptions(1);
  options.stop.cancelled = [] { return true; };
  EXPECT_EQ(Complete(Columns(100'000, kEmptyRow), options).status().code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens

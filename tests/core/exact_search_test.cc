#include "exact_search.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "nqueens/validate.h"
#include "rng.h"
#include "stop_poller.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

constexpr uint64_t kNoBudget = UINT64_MAX;
// Solutions of the empty n x n board for n = 1..12 (OEIS A000170).
constexpr uint64_t kSolutionCounts[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};

// Runs the exact search with no stop condition.
absl::StatusOr<ExactResult> Decide(const Columns& composition, uint64_t budget = kNoBudget) {
  StopCondition never;
  StopPoller stop(never);
  return ExactComplete(composition, budget, stop);
}

// Checks that `result` is a full solution extending `composition`. Returns a
// description of the first problem, or "" if none.
std::string CheckSolution(const Columns& composition, const ExactResult& result) {
  const std::string board = ::testing::PrintToString(composition);
  absl::StatusOr<ValidationReport> report = Validate(result.columns);
  if (!report.ok() || !report->complete) return board + ": not a solution";
  if (result.columns.size() != composition.size()) return board + ": wrong size";
  for (size_t i = 0; i < composition.size(); ++i) {
    if (composition[i] != kEmptyRow && composition[i] != result.columns[i]) {
      return board + ": moved the queen of row " + std::to_string(i + 1);
    }
  }
  return "";
}

// Checks the verdict against brute force (n <= 30), and a solution with
// CheckSolution. Returns a description of the first problem, or "" if none.
std::string CheckAgainstBruteForce(const Columns& composition) {
  absl::StatusOr<ExactResult> result = Decide(composition);
  const std::string board = ::testing::PrintToString(composition);
  if (!result.ok()) return board + ": " + result.status().ToString();
  const bool solvable = test_boards::BruteForceHasCompletion(composition);
  if (result->verdict != (solvable ? ExactVerdict::kSolved : ExactVerdict::kUnsolvable)) {
    return board + ": wrong verdict, brute force says " + (solvable ? "solvable" : "unsolvable");
  }
  return solvable ? CheckSolution(composition, *result) : "";
}

TEST(CountCompletionsTest, EmptyBoardsHaveTheKnownSolutionCounts) {
  StopCondition never;
  StopPoller stop(never);
  for (uint32_t n = 1; n <= 12; ++n) {
    absl::StatusOr<uint64_t> count = CountCompletions(Columns(n, kEmptyRow), stop);
    ASSERT_TRUE(count.ok()) << count.status();
    EXPECT_EQ(*count, kSolutionCounts[n - 1]) << "n = " << n;
  }
}

TEST(CountCompletionsTest, CountsCompletionsOfAGivenQueen) {
  // Of the 92 solutions of n = 8, 4 have a queen in the corner (row 1, column 1).
  Columns corner(8, kEmptyRow);
  corner[0] = 1;
  StopCondition never;
  StopPoller stop(never);
  absl::StatusOr<uint64_t> count = CountCompletions(corner, stop);
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(*count, 4u);
}

TEST(ExactCompleteTest, AFullBoardIsSolvedAsIs) {
  const Columns solution = {2, 4, 1, 3};
  absl::StatusOr<ExactResult> result = Decide(solution);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->verdict, ExactVerdict::kSolved);
  EXPECT_EQ(result->columns, solution);
}

TEST(ExactCompleteTest, ProvesTwoAndThreeUnsolvable) {
  for (uint32_t n : {2u, 3u}) {
    absl::StatusOr<ExactResult> result = Decide(Columns(n, kEmptyRow));
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->verdict, ExactVerdict::kUnsolvable) << "n = " << n;
  }
}

TEST(ExactCompleteTest, RejectsMoreThan64FreeRows) {
  absl::StatusOr<ExactResult> result = Decide(Columns(65, kEmptyRow));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ExactCompleteTest, RejectsBoardsThatAreNotCompositions) {
  EXPECT_EQ(Decide(Columns{1, 1, 0, 0}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Decide(Columns{5, 0, 0, 0}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ExactCompleteTest, SolvesALargeBoardWith64FreeRows) {
  const Columns solution = test_boards::RandomSolution(300, 7);
  const Columns composition = test_boards::RandomSubComposition(solution, 300 - 64, 8);
  absl::StatusOr<ExactResult> result = Decide(composition);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->verdict, ExactVerdict::kSolved);
  EXPECT_EQ(CheckSolution(composition, *result), "");
}

TEST(ExactCompleteTest, SolvesSubCompositionsAroundWordBoundaries) {
  // The free columns are found 64 at a time: n around multiples of 64.
  for (uint32_t n : {63u, 64u, 65u, 127u, 128u, 129u}) {
    const Columns composition =
        test_boards::RandomSubComposition(test_boards::RandomSolution(n, n), n - 20, n);
    absl::StatusOr<ExactResult> result = Decide(composition);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->verdict, ExactVerdict::kSolved) << "n = " << n;
    EXPECT_EQ(CheckSolution(composition, *result), "");
  }
}

TEST(ExactCompleteTest, AgreesWithBruteForceOnEveryCompositionUpTo8) {
  for (uint32_t n = 1; n <= 8; ++n) {
    uint64_t full_boards = 0, failures = 0;
    std::string first_problem;
    test_boards::ForEachComposition(n, [&](const Columns& composition) {
      full_boards += std::count(composition.begin(), composition.end(), kEmptyRow) == 0;
      const std::string problem = CheckAgainstBruteForce(composition);
      if (!problem.empty() && failures++ == 0) first_problem = problem;
    });
    // The enumeration reaches every solution, so it is not missing boards.
    EXPECT_EQ(full_boards, kSolutionCounts[n - 1]) << "n = " << n;
    EXPECT_EQ(failures, 0u) << "n = " << n << ", first: " << first_problem;
  }
}

TEST(ExactCompleteTest, AgreesWithBruteForceOnRandomCompositions9To14) {
  Rng rng(1912'05935);
  int unsolvable = 0;
  for (uint32_t n = 9; n <= 14; ++n) {
    for (int trial = 0; trial < 1000; ++trial) {
      const uint32_t k = rng.Below(n);
      const uint64_t seed = rng.Next();
      // Half sub-compositions of solutions (always solvable), half random
      // compositions (often not).
      const Columns composition =
          trial % 2 == 0
              ? test_boards::RandomSubComposition(test_boards::RandomSolution(n, seed), k, seed)
              : test_boards::RandomComposition(n, k, seed);
      const std::string problem = CheckAgainstBruteForce(composition);
      ASSERT_TRUE(problem.empty()) << problem;
      unsolvable += !test_boards::BruteForceHasCompletion(composition);
    }
  }
  // The sample exercises both verdicts.
  EXPECT_GT(unsolvable, 100);
  EXPECT_LT(unsolvable, 5000);
}

TEST(ExactCompleteTest, ATinyBudgetGivesUpRatherThanClaimingUnsolvable) {
  // n = 3 is unsolvable, but proving it takes more than one node.
  for (uint32_t n : {3u, 10u, 20u}) {
    absl::StatusOr<ExactResult> result = Decide(Columns(n, kEmptyRow), 1);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->verdict, ExactVerdict::kBudgetExhausted) << "n = " << n;
    EXPECT_LE(result->nodes, 1u);
  }
}

TEST(ExactCompleteTest, ReturnsCancelledWhenTheCallerCancels) {
  StopCondition condition;
  condition.cancelled = [] { return true; };
  StopPoller stop(condition);
  EXPECT_EQ(ExactComplete(Columns(20, kEmptyRow), kNoBudget, stop).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(CountCompletionsTest, ReturnsCancelledFromInsideTheSearch) {
  // The callback first says "go on", so the stop must come from the polling
  // in the search loop: n = 14 visits far more nodes than one polling stride.
  std::atomic<int> polls{0};
  StopCondition condition;
  condition.cancelled = [&polls] { return ++polls > 1; };
  StopPoller stop(condition);
  EXPECT_EQ(CountCompletions(Columns(14, kEmptyRow), stop).status().code(),
            absl::StatusCode::kCancelled);
  EXPECT_EQ(polls.load(), 2);
}

}  // namespace
}  // namespace nqueens::internal

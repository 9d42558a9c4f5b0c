#include "methods/backtracking.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

// The lexicographically first solution, by trying every permutation in
// order (n <= 8).
std::optional<Columns> FirstByBruteForce(uint32_t n) {
  Columns columns(n);
  for (uint32_t i = 0; i < n; ++i) columns[i] = i + 1;
  do {
    bool attacked = false;
    for (uint32_t a = 0; a < n && !attacked; ++a) {
      for (uint32_t b = a + 1; b < n && !attacked; ++b) {
        attacked = columns[b] - columns[a] == b - a || columns[a] - columns[b] == b - a;
      }
    }
    if (!attacked) return columns;
  } while (std::next_permutation(columns.begin(), columns.end()));
  return std::nullopt;
}

TEST(BacktrackingTest, SolutionsValidate) {
  // Up to 29: n = 30 takes 56 million nodes (0.6 s, 8 s under ASan).
  for (uint32_t n = 1; n <= 29; ++n) {
    if (n == 2 || n == 3) continue;
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kBacktracking);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->outcome, Outcome::kSolved) << "n = " << n;
    absl::StatusOr<ValidationReport> report = Validate(result->columns);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->complete) << "n = " << n;
    EXPECT_GE(result->stats.search_nodes, n);
    EXPECT_EQ(result->stats.method, "BACKTRACKING");
  }
}

TEST(BacktrackingTest, FindsTheLexicographicallyFirstSolution) {
  for (uint32_t n : {4u, 5u, 6u, 8u}) {
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kBacktracking);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->columns, FirstByBruteForce(n)) << "n = " << n;
  }
}

TEST(BacktrackingTest, TheArraySearchMatchesTheMaskSearch) {
  // Above 64 columns BACKTRACKING searches with control arrays: the same
  // tree in the same order, so the same board after the same nodes.
  for (uint32_t n = 4; n <= 20; ++n) {
    absl::StatusOr<CompletionResult> masks = Solve(n, SolveMethod::kBacktracking);
    absl::StatusOr<CompletionResult> arrays = internal::BacktrackingSolveWithArrays(n, {});
    ASSERT_TRUE(masks.ok() && arrays.ok());
    EXPECT_EQ(arrays->columns, masks->columns) << "n = " << n;
    EXPECT_EQ(arrays->stats.search_nodes, masks->stats.search_nodes) << "n = " << n;
  }
  EXPECT_EQ(internal::BacktrackingSolveWithArrays(3, {})->outcome, Outcome::kUnsolvable);
}

TEST(BacktrackingTest, TinyBudgetIsUndecided) {
  SolveOptions options;
  options.params.backtracking_node_budget = 10;
  for (uint32_t n : {20u, 100u}) {
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kBacktracking, options);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->outcome, Outcome::kUndecided);
    EXPECT_EQ(result->stats.search_nodes, 10u);
  }
}

TEST(BacktrackingTest, CancelledStops) {
  SolveOptions options;
  options.stop.cancelled = [] { return true; };
  for (uint32_t n : {40u, 1000u}) {
    EXPECT_EQ(Solve(n, SolveMethod::kBacktracking, options).status().code(),
              absl::StatusCode::kCancelled);
  }
}

}  // namespace
}  // namespace nqueens

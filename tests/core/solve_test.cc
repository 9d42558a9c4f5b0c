#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

// Asserts that `result` is SOLVED with a full, valid n x n board.
void ExpectSolved(const absl::StatusOr<CompletionResult>& result, uint32_t n) {
  ASSERT_TRUE(result.ok()) << "n = " << n << ": " << result.status();
  ASSERT_EQ(result->outcome, Outcome::kSolved) << "n = " << n;
  ASSERT_EQ(result->columns.size(), n);
  absl::StatusOr<ValidationReport> report = Validate(result->columns);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete) << "n = " << n;
}

TEST(OutcomeNameTest, NamesEveryOutcome) {
  EXPECT_EQ(std::string(OutcomeName(Outcome::kSolved)), "SOLVED");
  EXPECT_EQ(std::string(OutcomeName(Outcome::kUnsolvable)), "UNSOLVABLE");
  EXPECT_EQ(std::string(OutcomeName(Outcome::kUndecided)), "UNDECIDED");
}

TEST(SolveTest, RejectsBadSizes) {
  for (SolveMethod method : {SolveMethod::kConstructive, SolveMethod::kRandom}) {
    EXPECT_EQ(Solve(0, method).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(Solve(UINT32_MAX, method).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(SolveTest, TwoAndThreeAreProvedUnsolvableByEitherMethod) {
  for (SolveMethod method : {SolveMethod::kConstructive, SolveMethod::kRandom}) {
    for (uint32_t n : {2u, 3u}) {
      absl::StatusOr<CompletionResult> result = Solve(n, method);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->outcome, Outcome::kUnsolvable) << "n = " << n;
      EXPECT_TRUE(result->columns.empty());
      EXPECT_GT(result->stats.exact_nodes, 0u);
    }
  }
}

TEST(SolveTest, ConstructiveSolvesAndKeepsTheSeed) {
  SolveOptions options;
  options.seed = 42;
  for (uint32_t n : {1u, 4u, 8u, 9u, 14u, 1000u}) {
    absl::StatusOr<CompletionResult> result = Solve(n, SolveMethod::kConstructive, options);
    ExpectSolved(result, n);
    if (result.ok()) {
      EXPECT_EQ(result->stats.seed, 42u);
    }
  }
}

TEST(SolveTest, RandomSolves) {
  for (uint32_t n : {1u, 4u, 5u, 8u, 30u, 200u, 5000u}) {
    SolveOptions options;
    options.seed = n;
    ExpectSolved(Solve(n, SolveMethod::kRandom, options), n);
  }
}

TEST(SolveTest, CancelledBeforeProvingUnsolvable) {
  SolveOptions options;
  options.stop.cancelled = [] { return true; };
  EXPECT_EQ(Solve(3, SolveMethod::kConstructive, options).status().code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens

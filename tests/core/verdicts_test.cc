// Complete()'s verdicts against brute force: SOLVED exactly when an
// extension exists (the board checked by the validator), UNSOLVABLE exactly
// when none does, never UNDECIDED on these small boards.
#include <cstdint>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using test_boards::BruteForceHasCompletion;

void ExpectVerdictMatchesBruteForce(const Columns& input, uint64_t seed) {
  CompleteOptions options;
  options.seed = seed;
  absl::StatusOr<CompletionResult> result = Complete(input, options);
  ASSERT_TRUE(result.ok()) << result.status();
  if (!BruteForceHasCompletion(input)) {
    ASSERT_EQ(result->outcome, Outcome::kUnsolvable);
    return;
  }
  ASSERT_EQ(result->outcome, Outcome::kSolved);
  absl::StatusOr<ValidationReport> report = Validate(result->columns);
  ASSERT_TRUE(report.ok() && report->complete);
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      ASSERT_EQ(result->columns[row], input[row]);
    }
  }
}

TEST(VerdictsTest, EveryCompositionUpToEightRows) {
  uint64_t seen = 0;
  for (uint32_t n = 1; n <= 8; ++n) {
    test_boards::ForEachComposition(n, [&](const Columns& composition) {
      ExpectVerdictMatchesBruteForce(composition, seen++);
    });
  }
  EXPECT_GT(seen, 10000u);
}

TEST(VerdictsTest, RandomCompositionsUpToFourteenRows) {
  uint64_t seed = 0;
  for (uint32_t n = 9; n <= 14; ++n) {
    for (uint32_t k = 0; k < n; ++k) {
      for (int trial = 0; trial < 40; ++trial, ++seed) {
        ExpectVerdictMatchesBruteForce(test_boards::RandomComposition(n, k, seed), seed);
      }
    }
  }
}

}  // namespace
}  // namespace nqueens

#include <cstdint>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

absl::StatusOr<CompletionResult> SolveGenetic(uint32_t n, uint64_t seed,
                                              const PipelineParams& params = {}) {
  SolveOptions options;
  options.seed = seed;
  options.params = params;
  return Solve(n, SolveMethod::kGenetic, options);
}

TEST(GeneticTest, SolvesSmallBoards) {
  for (uint32_t n : {1u, 4u, 8u, 9u, 12u, 16u, 20u, 25u, 30u}) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      absl::StatusOr<CompletionResult> result = SolveGenetic(n, seed);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_EQ(result->outcome, Outcome::kSolved) << "n = " << n << ", seed " << seed;
      absl::StatusOr<ValidationReport> report = Validate(result->columns);
      ASSERT_TRUE(report.ok()) << report.status();
      EXPECT_TRUE(report->complete) << "n = " << n << ", seed " << seed;
      EXPECT_EQ(result->stats.method, "GENETIC");
    }
  }
}

TEST(GeneticTest, ThePapersPlainAlgorithmSolvesEightQueens) {
  PipelineParams params;
  params.genetic_repair_swaps_per_row = 0;
  for (uint64_t seed : {1u, 2u, 3u}) {
    absl::StatusOr<CompletionResult> result = SolveGenetic(8, seed, params);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->outcome, Outcome::kSolved) << "seed " << seed;
    EXPECT_TRUE(Validate(result->columns)->complete);
  }
}

TEST(GeneticTest, SameSeedSameBoard) {
  for (uint32_t n : {8u, 24u}) {
    absl::StatusOr<CompletionResult> a = SolveGenetic(n, 7);
    absl::StatusOr<CompletionResult> b = SolveGenetic(n, 7);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->columns, b->columns);
    EXPECT_EQ(a->stats.generations, b->stats.generations);
  }
}

TEST(GeneticTest, TinyGenerationBudgetIsUndecided) {
  PipelineParams params;
  params.genetic_max_generations = 2;
  params.genetic_repair_swaps_per_row = 0;
  absl::StatusOr<CompletionResult> result = SolveGenetic(200, 1, params);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->outcome, Outcome::kUndecided);
  EXPECT_EQ(result->stats.generations, 2u);
  EXPECT_TRUE(result->columns.empty());
}

TEST(GeneticTest, RejectsATinyPopulation) {
  PipelineParams params;
  params.genetic_population = 1;
  EXPECT_EQ(SolveGenetic(8, 1, params).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GeneticTest, CancelledStops) {
  SolveOptions options;
  options.stop.cancelled = [] { return true; };
  EXPECT_EQ(Solve(2000, SolveMethod::kGenetic, options).status().code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens

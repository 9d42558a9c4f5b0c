#include "client/output/render.h"

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

TEST(RenderTest, OutcomeLineSummarizesTheStats) {
  CompletionResult result;
  result.outcome = Outcome::kUndecided;
  result.stats.seed = 42;
  result.stats.backtracks = 1000;
  result.stats.restarts = 10;
  result.stats.total_time = absl::Microseconds(1250);
  EXPECT_EQ(OutcomeLine(result, 200),
            "UNDECIDED n=200 seed=42 backtracks=1000 restarts=10 time=1.250ms\n");
  result.stats.method = "GENETIC";
  result.stats.generations = 7;
  EXPECT_EQ(OutcomeLine(result, 200),
            "UNDECIDED n=200 seed=42 backtracks=1000 restarts=10 time=1.250ms method=GENETIC "
            "generations=7\n");
}

TEST(RenderTest, CountLineNamesTheFundamentalCountWhenThereIsOne) {
  CountResult result;
  result.solutions = 92;
  result.nodes = 100;
  result.elapsed = absl::Milliseconds(2);
  EXPECT_EQ(CountLine(result, 8), "n=8 solutions=92 nodes=100 time=0.002s\n");
  result.fundamental = 12;
  EXPECT_EQ(CountLine(result, 8), "n=8 solutions=92 fundamental=12 nodes=100 time=0.002s\n");
}

TEST(RenderTest, DrawsQueensAndEmptyCells) {
  EXPECT_EQ(DrawBoard({2, 0, 1}), ". Q .\n. . .\nQ . .\n");
}

TEST(RenderTest, TellsGivenQueensFromPlacedOnes) {
  EXPECT_EQ(DrawBoard({2, 4, 1, 3}, {0, 4, 0, 0}),
            ". q . .\n. . . Q\nq . . .\n. . q .\nQ given, q placed\n");
  // Nothing given: nothing to tell apart.
  EXPECT_EQ(DrawBoard({2, 4, 1, 3}, {0, 0, 0, 0}), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
}

TEST(RenderTest, ValidationTextListsConflicts) {
  ValidationReport report;
  report.n = 8;
  report.queen_count = 3;
  report.attacking_pairs = 1;
  report.conflicts.push_back(Conflict{Queen{2, 3}, Queen{5, 6}, AttackLine::kDiagonal});
  EXPECT_EQ(ValidationText(report),
            "n: 8\nvalid: no\ncomplete: no\nqueens: 3\nattacking pairs: 1\n"
            "conflict: " +
                DescribeConflict(report.conflicts[0]) + "\n");
}

}  // namespace
}  // namespace nqueens::client

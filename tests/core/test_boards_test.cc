// The test helpers are references for the core's tests, so they are checked
// here too (against Validate and against hand-counted cases).
#include "test_boards.h"

#include <algorithm>
#include <cstdint>

#include "gtest/gtest.h"
#include "nqueens/validate.h"

namespace nqueens::test_boards {
namespace {

bool IsComposition(const Columns& board) {
  absl::StatusOr<ValidationReport> report = Validate(board);
  return report.ok() && report->valid;
}

TEST(TestBoardsTest, RandomSolutionsAreSolutions) {
  for (uint32_t n : {1u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 50u, 200u, 1000u}) {
    const Columns solution = RandomSolution(n, n);
    absl::StatusOr<ValidationReport> report = Validate(solution);
    ASSERT_TRUE(report.ok()) << "n = " << n << ": " << report.status();
    EXPECT_TRUE(report->complete) << "n = " << n;
  }
  EXPECT_TRUE(RandomSolution(2, 1).empty());
  EXPECT_TRUE(RandomSolution(3, 1).empty());
}

TEST(TestBoardsTest, SubCompositionsKeepKRowsOfTheSolution) {
  const Columns solution = RandomSolution(30, 3);
  const Columns composition = RandomSubComposition(solution, 12, 4);
  ASSERT_EQ(composition.size(), solution.size());
  EXPECT_EQ(std::count(composition.begin(), composition.end(), kEmptyRow), 30 - 12);
  for (size_t i = 0; i < composition.size(); ++i) {
    if (composition[i] != kEmptyRow) {
      EXPECT_EQ(composition[i], solution[i]);
    }
  }
}

TEST(TestBoardsTest, RandomCompositionsAreCompositions) {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Columns composition = RandomComposition(10, 7, seed);
    EXPECT_TRUE(IsComposition(composition)) << ::testing::PrintToString(composition);
    EXPECT_LE(10 - std::count(composition.begin(), composition.end(), kEmptyRow), 7);
  }
}

TEST(TestBoardsTest, EnumeratesEveryCompositionOfTheFourByFourBoard) {
  uint64_t count = 0;
  ForEachComposition(4, [&](const Columns& composition) {
    ++count;
    EXPECT_TRUE(IsComposition(composition)) << ::testing::PrintToString(composition);
  });
  // All non-attacking queen sets on 4x4: 1 empty, 16 single queens, 44 pairs,
  // 24 triples and 2 full solutions.
  EXPECT_EQ(count, 1u + 16 + 44 + 24 + 2);
}

TEST(TestBoardsTest, BruteForceAnswers) {
  EXPECT_EQ(BruteForceAttackingPairs(Columns{1, 1, 1}), 3u);
  EXPECT_EQ(BruteForceAttackingPairs(Columns{1, 2, 0, 4}), 3u);
  EXPECT_EQ(BruteForceAttackingPairs(Columns{2, 4, 1, 3}), 0u);
  EXPECT_TRUE(BruteForceHasCompletion(Columns{0, 4, 0, 0}));
  EXPECT_FALSE(BruteForceHasCompletion(Columns{1, 0, 0, 0}));
  EXPECT_FALSE(BruteForceHasCompletion(Columns{0, 0, 0}));
}

}  // namespace
}  // namespace nqueens::test_boards

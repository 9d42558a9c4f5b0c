#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/rng.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;

Columns Image(const Columns& board, uint32_t symmetry) {
  absl::StatusOr<Columns> image = ApplySymmetry(board, symmetry);
  EXPECT_TRUE(image.ok()) << "symmetry " << symmetry << ": " << image.status();
  return image.ok() ? *image : Columns();
}

// A random board with at most one queen per row and per column (a partial
// permutation, so that every symmetry can map it), empty rows included.
Columns RandomPartialPermutation(uint32_t n, uint64_t seed) {
  internal::Rng rng(seed);
  Columns columns(n);
  for (uint32_t i = 0; i < n; ++i) columns[i] = i + 1;
  rng.Shuffle(columns.begin(), columns.end());
  for (uint32_t& column : columns) {
    if (rng.Below(3) == 0) column = kEmptyRow;
  }
  return columns;
}

uint64_t QueenCount(const Columns& board) {
  return board.size() - std::count(board.begin(), board.end(), kEmptyRow);
}

TEST(SymmetryTest, QuarterTurnIsClockwise) {
  // The queen at (row 1, column 2) of a 4 x 4 board goes to (row 2, column 4).
  EXPECT_EQ(Image({2, 0, 0, 0}, 1), Columns({0, 4, 0, 0}));
  // The mirror: (1, 2) to (1, 3).
  EXPECT_EQ(Image({2, 0, 0, 0}, 4), Columns({3, 0, 0, 0}));
  // Mirror, then a quarter turn: (1, 3), then (3, 4).
  EXPECT_EQ(Image({2, 0, 0, 0}, 5), Columns({0, 0, 4, 0}));
}

TEST(SymmetryTest, MapsSolutionsToSolutions) {
  for (uint32_t n : {1u, 4u, 5u, 8u, 13u, 100u}) {
    const Columns solution = test_boards::RandomSolution(n, n);
    for (uint32_t s = 0; s < kSymmetryCount; ++s) {
      const Columns image = Image(solution, s);
      absl::StatusOr<ValidationReport> report = Validate(image);
      ASSERT_TRUE(report.ok()) << report.status();
      EXPECT_TRUE(report->complete) << "n = " << n << ", symmetry " << s;
    }
  }
}

TEST(SymmetryTest, GroupLaws) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const uint32_t n = 1 + static_cast<uint32_t>(seed * 7 % 23);
    const Columns board = RandomPartialPermutation(n, seed);
    EXPECT_EQ(Image(board, 0), board);
    EXPECT_EQ(Image(Image(Image(Image(board, 1), 1), 1), 1), board) << "rotation^4";
    EXPECT_EQ(Image(Image(board, 4), 4), board) << "mirror^2";
    for (uint32_t k = 1; k < 4; ++k) {
      // Rotation by k quarter turns is k single turns; 4 + k is the mirror,
      // then k turns; each reflection is its own inverse.
      Columns turned = board;
      for (uint32_t t = 0; t < k; ++t) turned = Image(turned, 1);
      EXPECT_EQ(Image(board, k), turned) << "k = " << k;
      EXPECT_EQ(Image(board, 4 + k), Image(Image(board, 4), k)) << "k = " << k;
      EXPECT_EQ(Image(Image(board, 4 + k), 4 + k), board) << "k = " << k;
      // Rotations then the mirror: mirror o r^k = r^-k o mirror.
      EXPECT_EQ(Image(Image(board, k), 4), Image(board, 4 + (4 - k) % 4)) << "k = " << k;
    }
    for (uint32_t s = 0; s < kSymmetryCount; ++s) {
      EXPECT_EQ(QueenCount(Image(Image(board, s), 5)), QueenCount(board));
    }
  }
}

TEST(SymmetryTest, RejectsBadSymmetryAndUnrepresentableImages) {
  absl::StatusOr<Columns> bad = ApplySymmetry({2, 4, 1, 3}, 8);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  // Two queens in column 3 (rows 1 and 4): fine for row-preserving
  // symmetries, not for quarter turns.
  const Columns two_in_a_column = {3, 0, 0, 3};
  for (uint32_t s : {0u, 2u, 4u, 6u}) EXPECT_TRUE(ApplySymmetry(two_in_a_column, s).ok());
  for (uint32_t s : {1u, 3u, 5u, 7u}) {
    absl::StatusOr<Columns> image = ApplySymmetry(two_in_a_column, s);
    EXPECT_EQ(image.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(image.status().message()), HasSubstr("column 3"));
    EXPECT_THAT(std::string(image.status().message()), HasSubstr("rows 1 and 4"));
  }
  EXPECT_EQ(ApplySymmetry({5, 0, 0, 0}, 1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SymmetryTest, SolveAppliesTheSymmetry) {
  for (uint32_t s = 0; s < kSymmetryCount; ++s) {
    SolveOptions options;
    options.symmetry = s;
    absl::StatusOr<CompletionResult> result = Solve(10, SolveMethod::kConstructive, options);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->columns, Image(*ConstructSolution(10), s));
  }
}

}  // namespace
}  // namespace nqueens

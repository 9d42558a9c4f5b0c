#include "nqueens/board.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;

TEST(MakeEmptyBoardTest, HasNEmptyRows) {
  for (uint64_t n : {1u, 1000u, 3'000'000u}) {  // the last spans huge pages
    const Columns board = MakeEmptyBoard(n);
    ASSERT_EQ(board.size(), n);
    EXPECT_EQ(std::count(board.begin(), board.end(), kEmptyRow), static_cast<ptrdiff_t>(n));
  }
}

TEST(CheckBoardSizeTest, RejectsZero) {
  absl::Status status = CheckBoardSize(0);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("n must be 1..2147483647"));
}

TEST(CheckBoardSizeTest, AcceptsOneAndTheLargestSize) {
  EXPECT_TRUE(CheckBoardSize(1).ok());
  EXPECT_TRUE(CheckBoardSize(kMaxBoardSize).ok());
}

TEST(CheckBoardSizeTest, RejectsSizesAboveTheLimitAsInvalidArgument) {
  EXPECT_EQ(CheckBoardSize(kMaxBoardSize + 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckBoardSize(UINT64_MAX).code(), absl::StatusCode::kInvalidArgument);
}

TEST(CheckDenseShapeTest, AcceptsEmptyRowsAndColumnsUpToN) {
  EXPECT_TRUE(CheckDenseShape(4, Columns{0, 4, 1, 0}).ok());
  // Shape only: attacking queens are Validate's business.
  EXPECT_TRUE(CheckDenseShape(3, Columns{1, 1, 1}).ok());
}

TEST(CheckDenseShapeTest, RejectsALengthOtherThanN) {
  absl::Status status = CheckDenseShape(5, Columns{1, 3});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("2 rows"));
}

TEST(CheckDenseShapeTest, NamesTheFirstRowWithAColumnAboveN) {
  absl::Status status = CheckDenseShape(10, Columns{1, 3, 5, 7, 9, 2, 12, 11, 0, 0});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "row 7 has column 12, but the board has only 10 columns");
}

TEST(CheckDenseShapeTest, RejectsZeroN) {
  EXPECT_EQ(CheckDenseShape(0, Columns{}).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DenseFromQueensTest, PlacesQueensInTheirRows) {
  const std::vector<Queen> queens = {{3, 1}, {1, 2}};
  absl::StatusOr<Columns> columns = DenseFromQueens(4, queens);
  ASSERT_TRUE(columns.ok()) << columns.status();
  EXPECT_EQ(*columns, (Columns{2, 0, 1, 0}));
}

TEST(DenseFromQueensTest, NoQueensGiveTheEmptyBoard) {
  absl::StatusOr<Columns> columns = DenseFromQueens(3, {});
  ASSERT_TRUE(columns.ok()) << columns.status();
  EXPECT_EQ(*columns, (Columns{0, 0, 0}));
}

TEST(DenseFromQueensTest, NamesARowGivenTwice) {
  const std::vector<Queen> queens = {{3, 2}, {1, 1}, {3, 5}};
  absl::Status status = DenseFromQueens(6, queens).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "row 3 is given twice (columns 2 and 5)");
}

TEST(DenseFromQueensTest, NamesAQueenOffTheBoard) {
  struct Case {
    Queen queen;
    const char* named;
  };
  for (const Case& c : {Case{{0, 1}, "(row 0, column 1)"}, Case{{5, 1}, "(row 5, column 1)"},
                        Case{{2, 0}, "(row 2, column 0)"}, Case{{2, 7}, "(row 2, column 7)"}}) {
    const std::vector<Queen> queens = {{1, 1}, c.queen};
    absl::Status status = DenseFromQueens(4, queens).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.named;
    EXPECT_THAT(status.message(), HasSubstr(c.named));
  }
}

TEST(DenseFromQueensTest, RejectsBadN) {
  EXPECT_EQ(DenseFromQueens(0, {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DenseFromQueens(kMaxBoardSize + 1, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(QueensFromDenseTest, ListsQueensInRowOrderAndSkipsEmptyRows) {
  EXPECT_EQ(QueensFromDense(Columns{0, 3, 0, 1}), (std::vector<Queen>{{2, 3}, {4, 1}}));
  EXPECT_TRUE(QueensFromDense(Columns{0, 0}).empty());
}

TEST(QueensFromDenseTest, RoundTripsThroughDenseFromQueens) {
  const Columns board = {2, 4, 0, 3, 0, 6};
  absl::StatusOr<Columns> again = DenseFromQueens(board.size(), QueensFromDense(board));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, board);
}

}  // namespace
}  // namespace nqueens

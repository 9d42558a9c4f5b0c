#include "client/output/picture.h"

#include <string>

#include "client/output/render.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

// How often `needle` occurs in `text`.
int Count(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

constexpr char kGivenFill[] = "fill=\"#202020\"/>";
constexpr char kPlacedFill[] = "fill=\"#1f6fd0\"/>";
constexpr char kConflictFill[] = "fill=\"#d01f1f\"/>";

TEST(BoardSvgTest, GivenAndPlacedQueensHaveTheirColours) {
  const Columns solution = {2, 4, 1, 3};
  const Columns given = {2, 0, 0, 3};
  const std::string svg = BoardSvg(solution, given, {});
  EXPECT_THAT(svg, ::testing::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_THAT(svg, ::testing::HasSubstr("<title>4 queens on 4 x 4</title>"));
  EXPECT_EQ(Count(svg, "<circle"), 4);
  EXPECT_EQ(Count(svg, kGivenFill), 2);
  EXPECT_EQ(Count(svg, kPlacedFill), 2);
  // Row 1's queen in column 2: the disc's centre in the middle of that cell.
  EXPECT_THAT(svg, ::testing::HasSubstr("<circle cx=\"1.5\" cy=\"0.5\""));
}

TEST(BoardSvgTest, ConflictsAreRedAndJoined) {
  const Columns board = {1, 0, 3, 0};
  const Conflict conflict{{1, 1}, {3, 3}, AttackLine::kDiagonal};
  const std::string svg = BoardSvg(board, board, {&conflict, 1});
  EXPECT_EQ(Count(svg, kConflictFill), 2);
  EXPECT_EQ(Count(svg, "<line x1=\"0.5\" y1=\"0.5\" x2=\"2.5\" y2=\"2.5\""), 1);
}

TEST(BoardSvgTest, GrowsWithTheQueensNotTheCells) {
  const Columns empty(kMaxPictureSize, 0);
  EXPECT_LT(BoardSvg(empty, {}, {}).size(), 2000u);
}

TEST(DrawBoardTest, MarksConflictingQueens) {
  const Columns board = {1, 0, 3};
  const Conflict conflict{{1, 1}, {3, 3}, AttackLine::kDiagonal};
  EXPECT_EQ(DrawBoard(board, {}, {&conflict, 1}), "X . .\n. . .\n. . X\n");
  EXPECT_EQ(DrawBoard(board), "Q . .\n. . .\n. . Q\n");
}

}  // namespace
}  // namespace nqueens::client

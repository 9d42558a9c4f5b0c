#include "client/parts/ordered_boards.h"

#include <vector>

#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

// Boards told apart by their one column.
Columns B(uint32_t id) { return Columns{id}; }

class OrderedBoardsTest : public ::testing::Test {
 protected:
  OrderedBoards Make(uint64_t parts, uint64_t limit, bool refuse_after = false) {
    return OrderedBoards(parts, limit, [this, refuse_after](const Columns& board) {
      handed_.push_back(board[0]);
      return !refuse_after;
    });
  }
  std::vector<uint32_t> handed_;
};

TEST_F(OrderedBoardsTest, HandsBoardsOnInPartOrderWhateverOrderThePartsEndIn) {
  OrderedBoards boards = Make(3, 0);
  EXPECT_TRUE(boards.Add(2, 0, B(20)));
  EXPECT_TRUE(boards.Add(1, 0, B(10)));
  EXPECT_FALSE(boards.PartDone(2));
  EXPECT_TRUE(handed_.empty());  // part 0 is due first
  EXPECT_TRUE(boards.Add(0, 0, B(0)));
  EXPECT_EQ(handed_, std::vector<uint32_t>({0}));  // the part due goes straight through
  EXPECT_TRUE(boards.Add(1, 1, B(11)));
  EXPECT_FALSE(boards.PartDone(0));
  EXPECT_EQ(handed_, std::vector<uint32_t>({0, 10, 11}));
  EXPECT_TRUE(boards.Add(1, 2, B(12)));
  EXPECT_TRUE(boards.PartDone(1));  // parts 1 and 2 are done: so is the job
  EXPECT_EQ(handed_, std::vector<uint32_t>({0, 10, 11, 12, 20}));
  EXPECT_EQ(boards.handed(), 5u);
}

TEST_F(OrderedBoardsTest, ARetryHandsOnOnlyWhatTheFailedTryHadNotGiven) {
  OrderedBoards boards = Make(2, 0);
  EXPECT_TRUE(boards.Add(1, 0, B(10)));  // a try of part 1 that fails after one board
  EXPECT_TRUE(boards.Add(0, 0, B(0)));
  EXPECT_TRUE(boards.Add(0, 1, B(1)));  // ... and one of part 0 after two
  EXPECT_TRUE(boards.Add(0, 0, B(0)));  // part 0 again, from its start
  EXPECT_TRUE(boards.Add(0, 1, B(1)));
  EXPECT_TRUE(boards.Add(0, 2, B(2)));
  EXPECT_FALSE(boards.PartDone(0));
  EXPECT_TRUE(boards.Add(1, 0, B(10)));  // part 1 again
  EXPECT_TRUE(boards.Add(1, 1, B(11)));
  EXPECT_TRUE(boards.PartDone(1));
  EXPECT_EQ(handed_, std::vector<uint32_t>({0, 1, 2, 10, 11}));
}

TEST_F(OrderedBoardsTest, StopsAtTheLimit) {
  OrderedBoards boards = Make(2, 3);
  EXPECT_TRUE(boards.Add(1, 0, B(10)));
  EXPECT_TRUE(boards.Add(1, 1, B(11)));
  EXPECT_TRUE(boards.Add(0, 0, B(0)));
  EXPECT_TRUE(boards.PartDone(0));  // 0, 10, 11: enough
  EXPECT_FALSE(boards.Add(1, 2, B(12)));
  EXPECT_EQ(handed_, std::vector<uint32_t>({0, 10, 11}));
  EXPECT_EQ(boards.handed(), 3u);
}

TEST_F(OrderedBoardsTest, StopsWhenTheSinkRefuses) {
  OrderedBoards boards = Make(2, 0, /*refuse_after=*/true);
  EXPECT_FALSE(boards.Add(0, 0, B(0)));
  EXPECT_FALSE(boards.Add(1, 0, B(10)));
  EXPECT_TRUE(boards.PartDone(1));
  EXPECT_EQ(handed_, std::vector<uint32_t>({0}));
}

}  // namespace
}  // namespace nqueens::client

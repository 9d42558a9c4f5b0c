// Blocks 4-5 (the finishing stage) on their own: what they reach validates
// and keeps every given queen, they claim nothing on boards they cannot
// finish, and they keep to their backtrack budget.
#include <cstdint>
#include <optional>

#include "base/rng.h"
#include "counting_stop.h"
#include "gtest/gtest.h"
#include "nqueens/validate.h"
#include "pipeline/board_state.h"
#include "pipeline/stages.h"
#include "pipeline/sub_board.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

using test_stop::kNever;

struct Finished {
  StageResult result = StageResult::kDeadEnd;
  Columns board;  // the full board when kReached
  CompletionStats stats;
};

// Projects `composition`'s free rows and columns (kLines, as block 4 does)
// and runs the finishing stage on them with the paper's bounds.
Finished RunFinish(const Columns& composition, uint64_t backtrack_limit, uint64_t seed) {
  Finished finished;
  StopPoller stop(kNever);
  absl::StatusOr<BoardState> state = BoardState::Create(composition, stop);
  EXPECT_TRUE(state.ok());
  std::vector<uint32_t> rows, columns;
  std::vector<bool> used(composition.size() + 1, false);
  for (uint32_t row = 1; row <= composition.size(); ++row) {
    if (composition[row - 1] == kEmptyRow) rows.push_back(row);
    used[composition[row - 1]] = true;
  }
  for (uint32_t column = 1; column <= composition.size(); ++column) {
    if (!used[column]) columns.push_back(column);
  }
  std::optional<SubBoard> board =
      SubBoard::Project(*state, rows, columns, CellTracking::kLines, stop);
  EXPECT_TRUE(board.has_value());
  if (board->HasDeadRow()) return finished;
  Rng rng(seed);
  BacktrackBudget budget(finished.stats, backtrack_limit);
  FinishCursor cursor;
  finished.result = Finish(*board, FinishBounds{25, 100}, rng, stop, budget, cursor);
  if (finished.result == StageResult::kReached) {
    board->WriteTo(*state);
    finished.board = std::move(*state).TakeColumns();
  }
  return finished;
}

bool Extends(const Columns& board, const Columns& composition) {
  absl::StatusOr<ValidationReport> report = Validate(board);
  if (!report.ok() || !report->complete) return false;
  for (size_t row = 0; row < board.size(); ++row) {
    if (composition[row] != kEmptyRow && composition[row] != board[row]) return false;
  }
  return true;
}

TEST(FinishTest, WhatItReachesIsASolutionKeepingTheGivenQueens) {
  int reached = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const uint32_t n = 12 + static_cast<uint32_t>(seed % 30);
    const Columns composition = test_boards::RandomSubComposition(
        test_boards::RandomSolution(n, seed), n - 8, seed);  // eight free rows
    const Finished finished = RunFinish(composition, 1000, seed);
    if (finished.result != StageResult::kReached) continue;
    ++reached;
    EXPECT_TRUE(Extends(finished.board, composition)) << "seed " << seed;
  }
  EXPECT_GT(reached, 30);  // completable by construction: nearly all finish
}

TEST(FinishTest, ClaimsNothingOnBoardsWithoutACompletion) {
  int unsolvable = 0;
  for (uint64_t seed = 1; seed <= 300 && unsolvable < 20; ++seed) {
    const Columns composition = test_boards::RandomComposition(10, 6, seed);
    if (test_boards::BruteForceHasCompletion(composition)) continue;
    ++unsolvable;
    EXPECT_NE(RunFinish(composition, 1000, seed).result, StageResult::kReached);
  }
  EXPECT_EQ(unsolvable, 20);
}

TEST(FinishTest, KeepsToItsBacktrackBudget) {
  int spent = 0;  // runs that used the whole budget
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const Columns composition = test_boards::RandomComposition(14, 8, seed);
    const Finished finished = RunFinish(composition, 3, seed);
    EXPECT_LE(finished.stats.backtracks, 3u) << "seed " << seed;
    spent += finished.stats.backtracks == 3;
  }
  EXPECT_GT(spent, 0);
}

}  // namespace
}  // namespace nqueens::internal

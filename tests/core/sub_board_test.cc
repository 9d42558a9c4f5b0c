// SubBoard, the projection of blocks 2-5, against a brute-force picture of
// the same board: its free cells, in both cell-tracking modes, before and
// after every placement; the damage of a cell; and compaction.
#include "pipeline/sub_board.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "counting_stop.h"
#include "gtest/gtest.h"
#include "pipeline/board_state.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

using test_stop::kNever;

// The board as queens in original coordinates (1-based), with the free rows
// and free columns the sub-board projects, ascending.
struct Picture {
  uint32_t n = 0;
  std::vector<std::pair<uint32_t, uint32_t>> queens;
  std::vector<uint32_t> rows, columns;

  explicit Picture(const Columns& composition) : n(static_cast<uint32_t>(composition.size())) {
    std::vector<bool> used(n + 1, false);
    for (uint32_t row = 1; row <= n; ++row) {
      if (composition[row - 1] == kEmptyRow) {
        rows.push_back(row);
      } else {
        queens.emplace_back(row, composition[row - 1]);
        used[composition[row - 1]] = true;
      }
    }
    for (uint32_t column = 1; column <= n; ++column) {
      if (!used[column]) columns.push_back(column);
    }
  }
  bool Attacked(uint32_t row, uint32_t column) const {
    for (const auto& [r, c] : queens) {
      if (r == row || c == column || r + c == row + column || r + column == row + c) return true;
    }
    return false;
  }
  // The free cells of sub-board row i (an index into `rows`), by brute force.
  std::vector<uint32_t> FreeCells(uint32_t i) const {
    std::vector<uint32_t> cells;
    for (uint32_t j = 0; j < columns.size(); ++j) {
      if (!Attacked(rows[i], columns[j])) cells.push_back(j);
    }
    return cells;
  }
};

// `composition` (a valid one) as the pipeline holds it.
BoardState StateOf(const Columns& composition) {
  StopPoller stop(kNever);
  absl::StatusOr<BoardState> state = BoardState::Create(composition, stop);
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

std::optional<SubBoard> Project(const BoardState& state, const Picture& picture,
                                CellTracking tracking) {
  StopPoller stop(kNever);
  return SubBoard::Project(state, picture.rows, picture.columns, tracking, stop);
}

// Sub-board row i is live while picture.queens has no queen in rows[i].
bool Live(const Picture& picture, uint32_t i) {
  return std::none_of(picture.queens.begin(), picture.queens.end(),
                      [&](const auto& queen) { return queen.first == picture.rows[i]; });
}

void ExpectMatches(const SubBoard& board, const Picture& picture) {
  std::set<uint32_t> live;
  for (uint32_t k = 0; k < board.live_rows(); ++k) live.insert(board.LiveRow(k));
  for (uint32_t i = 0; i < picture.rows.size(); ++i) {
    ASSERT_EQ(live.count(i) == 1, Live(picture, i)) << "row " << i;
    if (!Live(picture, i)) continue;
    const std::vector<uint32_t> expected = picture.FreeCells(i);
    ASSERT_EQ(board.FreeCells(i), expected) << "row " << i;
    ASSERT_EQ(board.FreeCount(i), expected.size()) << "row " << i;
    for (uint32_t k = 0; k < expected.size(); ++k) ASSERT_EQ(board.NthFreeCell(i, k), expected[k]);
  }
}

TEST(SubBoardTest, BothTrackingModesFollowTheBoardThroughEveryPlacement) {
  int placements = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const uint32_t n = 20 + static_cast<uint32_t>(seed) * 7;
    const Columns composition = test_boards::RandomComposition(n, n / 2, seed);
    const BoardState state = StateOf(composition);
    Picture picture(composition);
    std::optional<SubBoard> scan = Project(state, picture, CellTracking::kScan);
    std::optional<SubBoard> lines = Project(state, picture, CellTracking::kLines);
    ASSERT_TRUE(scan.has_value() && lines.has_value());
    ExpectMatches(*scan, picture);
    ExpectMatches(*lines, picture);
    // Random queens on free cells of live rows until a dead end or the end.
    Rng rng(seed);
    while (scan->live_rows() > 0 && !scan->HasDeadRow()) {
      const uint32_t row = scan->LiveRow(static_cast<uint32_t>(rng.Below(scan->live_rows())));
      const uint32_t column =
          scan->NthFreeCell(row, static_cast<uint32_t>(rng.Below(scan->FreeCount(row))));
      const bool scan_alive = scan->Place(row, column);
      const bool lines_alive = lines->Place(row, column);
      ++placements;
      picture.queens.emplace_back(picture.rows[row], picture.columns[column]);
      ASSERT_EQ(scan_alive, lines_alive);
      ASSERT_EQ(scan->HasDeadRow(), lines->HasDeadRow());
      ASSERT_EQ(scan_alive, !scan->HasDeadRow());
      ExpectMatches(*scan, picture);
      ExpectMatches(*lines, picture);
    }
  }
  EXPECT_GT(placements, 12);  // more than one per board
}

TEST(SubBoardTest, DamageCountsTheFreeCellsOfOtherLiveRowsAQueenWouldClose) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const uint32_t n = 30 + static_cast<uint32_t>(seed) * 5;
    const Columns composition = test_boards::RandomComposition(n, n / 3, seed);
    const BoardState state = StateOf(composition);
    const Picture picture(composition);
    std::optional<SubBoard> board = Project(state, picture, CellTracking::kLines);
    ASSERT_TRUE(board.has_value());
    for (uint32_t i = 0; i < picture.rows.size(); ++i) {
      for (uint32_t j : picture.FreeCells(i)) {
        const uint32_t row = picture.rows[i], column = picture.columns[j];
        uint32_t closed = 0;
        for (uint32_t other = 0; other < picture.rows.size(); ++other) {
          if (other == i) continue;
          for (uint32_t k : picture.FreeCells(other)) {
            const uint32_t r = picture.rows[other], c = picture.columns[k];
            closed += c == column || r + c == row + column || r + column == row + c;
          }
        }
        ASSERT_EQ(board->Damage(i, j), closed) << "cell " << i << ", " << j;
      }
    }
  }
}

TEST(SubBoardTest, CompactionKeepsTheLiveRowsAndTheirFreeCells) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const uint32_t n = 40 + static_cast<uint32_t>(seed) * 3;
    const Columns composition = test_boards::RandomComposition(n, n / 2, seed);
    const BoardState state = StateOf(composition);
    const Picture picture(composition);
    std::optional<SubBoard> board = Project(state, picture, CellTracking::kScan);
    ASSERT_TRUE(board.has_value());
    // A few queens first, so that there is something to compact away.
    for (int placed = 0; placed < 3 && board->live_rows() > 0 && !board->HasDeadRow(); ++placed) {
      const uint32_t row = board->LiveRow(0);
      if (board->FreeCount(row) == 0) break;
      board->Place(row, board->NthFreeCell(row, 0));
    }
    StopPoller stop(kNever);
    std::optional<SubBoard> compact = board->Compact(stop);
    ASSERT_TRUE(compact.has_value());
    ASSERT_EQ(compact->live_rows(), board->live_rows());
    std::multiset<uint32_t> before, after;
    for (uint32_t k = 0; k < board->live_rows(); ++k) {
      before.insert(board->FreeCount(board->LiveRow(k)));
      after.insert(compact->FreeCount(compact->LiveRow(k)));
    }
    EXPECT_EQ(after, before);
    EXPECT_EQ(compact->HasDeadRow(), board->HasDeadRow());
  }
}

}  // namespace
}  // namespace nqueens::internal

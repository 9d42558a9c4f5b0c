// Blocks 4-5 (Grigoryan 2019, sections 4.7-4.8 and 6): the "last kilometre".
// Min-risk: fill the row with the fewest free cells first. Min-damage: in it,
// take the cell that closes the fewest free cells of the other rows. Ties are
// broken at random, so repeating the same branch can end differently.
#include <algorithm>
#include <utility>

#include "pipeline/stages.h"

namespace nqueens::internal {
namespace {

// Min-risk row: among rows with the fewest free cells (in row order), a
// random one of the first two when exactly two tie, of the first three when
// more do.
uint32_t PickMinRiskRow(const SubBoard& board, Rng& rng) {
  uint32_t best_count = SubBoard::kNone;
  uint32_t ties = 0;
  uint32_t first[3] = {};  // the lowest-numbered tied rows, ascending
  for (uint32_t i = 0; i < board.live_rows(); ++i) {
    const uint32_t row = board.LiveRow(i);
    const uint32_t count = board.FreeCount(row);
    if (count > best_count) continue;
    if (count < best_count) {
      best_count = count;
      ties = 0;
    }
    // Keep first[] the (up to) three smallest row indices seen with this count.
    uint32_t slot = std::min(ties, 3u);
    while (slot > 0 && first[slot - 1] > row) {
      if (slot < 3) first[slot] = first[slot - 1];
      --slot;
    }
    if (slot < 3) first[slot] = row;
    ++ties;
  }
  if (ties == 1) return first[0];
  return first[rng.Below(ties == 2 ? 2 : 3)];
}

// Min-damage cell of `row`: a random one of the first two cells (in column
// order) with the least damage when several tie.
uint32_t PickMinDamageCell(const SubBoard& board, uint32_t row, Rng& rng) {
  if (board.FreeCount(row) == 1) return board.NthFreeCell(row, 0);  // no choice
  uint32_t best_damage = SubBoard::kNone;
  uint32_t first[2] = {};
  uint32_t ties = 0;
  for (uint32_t cell : board.FreeCells(row)) {
    const uint32_t damage = board.Damage(row, cell);
    if (damage > best_damage) continue;
    if (damage < best_damage) {
      best_damage = damage;
      ties = 0;
    }
    if (ties < 2) first[ties] = cell;
    ++ties;
  }
  return ties == 1 ? first[0] : first[rng.Below(2)];
}

// Block 5's inner loop: min-risk/min-damage until every row has a queen
// (kReached) or a row loses its last free cell (kDeadEnd).
StageResult Descend(SubBoard& board, Rng& rng, StopPoller& stop) {
  while (board.live_rows() > 0) {
    // Picking the min-risk row scans every live row.
    if (stop.ShouldStop(board.live_rows())) return StageResult::kStopped;
    const uint32_t row = PickMinRiskRow(board, rng);
    if (!board.Place(row, PickMinDamageCell(board, row, rng))) {
      return StageResult::kDeadEnd;
    }
  }
  return StageResult::kReached;
}

// Block 4: the live rows ranked by free cells, fewest first.
std::vector<uint32_t> RankRows(const SubBoard& board) {
  std::vector<uint32_t> rows;
  rows.reserve(board.live_rows());
  for (uint32_t i = 0; i < board.live_rows(); ++i) rows.push_back(board.LiveRow(i));
  std::sort(rows.begin(), rows.end(), [&board](uint32_t a, uint32_t b) {
    return std::make_pair(board.FreeCount(a), a) < std::make_pair(board.FreeCount(b), b);
  });
  return rows;
}

// A row's free cells, least damage first.
std::vector<uint32_t> RankCells(const SubBoard& board, uint32_t row) {
  std::vector<std::pair<uint32_t, uint32_t>> scored;  // (damage, cell)
  for (uint32_t cell : board.FreeCells(row)) scored.emplace_back(board.Damage(row, cell), cell);
  std::stable_sort(scored.begin(), scored.end());
  std::vector<uint32_t> cells;
  cells.reserve(scored.size());
  for (const auto& [damage, cell] : scored) cells.push_back(cell);
  return cells;
}

}  // namespace

StageResult Finish(SubBoard& board, const FinishBounds& bounds, Rng& rng, StopPoller& stop,
                   BacktrackBudget& budget, FinishCursor& cursor) {
  if (board.live_rows() == 0) return StageResult::kReached;
  if (board.HasDeadRow()) return StageResult::kDeadEnd;  // block 4's check
  uint32_t dead_ends = 0;
  // The two outer loops pick the first queen from the block-4 state; the
  // inner loop descends from it and is repeated while its random tie-breaks
  // might still change the outcome.
  const std::vector<uint32_t> rows = RankRows(board);
  for (; cursor.row_rank < rows.size(); ++cursor.row_rank, cursor.cell_rank = 0) {
    const uint32_t row = rows[cursor.row_rank];
    const std::vector<uint32_t> cells = RankCells(board, row);
    for (; cursor.cell_rank < cells.size(); ++cursor.cell_rank) {
      const uint32_t cell = cells[cursor.cell_rank];
      bool out_of_bounds = false;
      for (uint32_t repeat = 0; repeat < bounds.repeat_bound; ++repeat) {
        // The copy is O(size^2 / 64) words and the descent's own polls come
        // every few placements: poll here too.
        if (stop.CheckNow()) return StageResult::kStopped;
        SubBoard trial = board;
        const bool first_placed = trial.Place(row, cell);
        const StageResult result = first_placed ? Descend(trial, rng, stop) : StageResult::kDeadEnd;
        if (result == StageResult::kReached) {
          board = std::move(trial);
          return result;
        }
        if (result == StageResult::kStopped) return result;
        out_of_bounds = !budget.Record(Block::kFinish) || ++dead_ends >= bounds.sim_bound5;
        if (out_of_bounds || !first_placed) break;  // no randomness: repeating is futile
      }
      if (out_of_bounds) {
        ++cursor.cell_rank;  // the next entry starts with the next first queen
        return StageResult::kDeadEnd;
      }
    }
  }
  cursor = {};
  return StageResult::kDeadEnd;
}

}  // namespace nqueens::internal

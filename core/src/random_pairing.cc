// Block 1, randSet&randSet (Grigoryan 2019, section 4.4): shuffle the lists of
// free rows and free columns and pair them in order, keeping a pair when both
// its diagonals are free; repeat on what is left.
#include "stages.h"

namespace nqueens::internal {

StageResult RandomPairing(BoardState& state, uint32_t target_queens, Rng& rng,
                          StopPoller& stop, std::vector<uint32_t>& free_rows,
                          std::vector<uint32_t>& free_columns) {
  while (state.queens() < target_queens) {
    const auto should_stop = [&stop] { return stop.CheckNow(); };
    if (!rng.Shuffle(free_rows.begin(), free_rows.end(), should_stop) ||
        !rng.Shuffle(free_columns.begin(), free_columns.end(), should_stop)) {
      return StageResult::kStopped;
    }
    // Unplaced pairs move to the front; both lists stay aligned.
    size_t kept = 0;
    size_t i = 0;
    for (; i < free_rows.size() && state.queens() < target_queens; ++i) {
      if (stop.ShouldStop()) return StageResult::kStopped;
      if (state.DiagonalsFree(free_rows[i], free_columns[i])) {
        state.Place(free_rows[i], free_columns[i]);
      } else {
        free_rows[kept] = free_rows[i];
        free_columns[kept] = free_columns[i];
        ++kept;
      }
    }
    const bool placed_any = kept < i;
    for (; i < free_rows.size(); ++i, ++kept) {  // the goal was met mid-pass
      free_rows[kept] = free_rows[i];
      free_columns[kept] = free_columns[i];
    }
    free_rows.resize(kept);
    free_columns.resize(kept);
    if (!placed_any) return StageResult::kDeadEnd;
  }
  return StageResult::kReached;
}

}  // namespace nqueens::internal

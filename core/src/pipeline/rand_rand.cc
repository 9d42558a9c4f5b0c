// Block 3, rand&rand (Grigoryan 2019, section 4.6): a random free cell of a
// random free row, one queen at a time. Slower than randSet&randSet but it
// spends the free cells more evenly, so it takes over near the end.
#include "pipeline/stages.h"

namespace nqueens::internal {

StageResult RandRand(SubBoard& board, uint32_t target_live_rows, Rng& rng, StopPoller& stop) {
  while (board.live_rows() > target_live_rows) {
    // A placement scans every live row: 2,800 at n = 10^9.
    if (stop.ShouldStop(board.live_rows())) return StageResult::kStopped;
    const uint32_t row = board.LiveRow(rng.Below(board.live_rows()));
    const uint32_t column = board.NthFreeCell(row, rng.Below(board.FreeCount(row)));
    if (!board.Place(row, column)) return StageResult::kDeadEnd;
  }
  return StageResult::kReached;
}

}  // namespace nqueens::internal

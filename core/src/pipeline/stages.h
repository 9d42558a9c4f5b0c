// The pipeline's stages (Grigoryan 2019, section 4), one file each:
//   random_pairing.cc  block 1, randSet&randSet, up to baseLevel2
//   projection.cc      blocks 2 and 4, the SubBoard (sub_board.h)
//   rand_rand.cc       block 3, rand&rand, up to baseLevel3
//   finish.cc          blocks 4-5, min-risk / min-damage with repeats
// and the bookkeeping they share. pipeline.cc chains them and owns the
// backtracking policy between base levels.
#ifndef NQUEENS_PIPELINE_STAGES_H_
#define NQUEENS_PIPELINE_STAGES_H_

#include <cstdint>
#include <vector>

#include "absl/time/clock.h"
#include "base/rng.h"
#include "base/stop_poller.h"
#include "nqueens/solver.h"
#include "nqueens/threads.h"
#include "pipeline/board_state.h"
#include "pipeline/sub_board.h"

namespace nqueens::internal {

enum class StageResult {
  kReached,  // the stage's goal was met
  kDeadEnd,  // the branch died (or the stage's bounds ran out)
  kStopped,  // the StopPoller fired
};

// Counts backtracks of one run against its budget (the paper's totSimBound)
// and records them in the statistics.
class BacktrackBudget {
 public:
  BacktrackBudget(CompletionStats& stats, uint64_t limit) : stats_(stats), limit_(limit) {}
  // Records a return to `block`'s start; false once the budget is spent,
  // and then records nothing, so that no run goes past its limit.
  bool Record(Block block) {
    if (Exhausted()) return false;
    ++stats_.backtracks;
    ++stats_.backtracks_to_block[static_cast<int>(block)];
    return ++used_ < limit_;
  }
  bool Exhausted() const { return used_ >= limit_; }

 private:
  CompletionStats& stats_;
  uint64_t limit_;
  uint64_t used_ = 0;
};

// Adds the wall time of its scope to a block's statistics.
class BlockClock {
 public:
  BlockClock(CompletionStats& stats, Block block)
      : stats_(stats), block_(block), start_(absl::Now()) {}
  ~BlockClock() { stats_.time_in_block[static_cast<int>(block_)] += absl::Now() - start_; }
  BlockClock(const BlockClock&) = delete;
  BlockClock& operator=(const BlockClock&) = delete;

 private:
  CompletionStats& stats_;
  Block block_;
  absl::Time start_;
};

// Block 1. Pairs the state's free rows and free columns in random order,
// pass after pass, in chunks on huge boards (PipelineParams::pairing_chunk),
// on `threads`, until the board holds `target_queens`; kDeadEnd when a whole
// pass places nothing. The board depends on `rng` alone, not on the threads.
// Unless stopped, `free_rows` and `free_columns` then hold the rows and
// columns still free, ascending.
StageResult RandomPairing(BoardState& state, uint32_t target_queens, const PipelineParams& params,
                          const SearchThreads& threads, Rng& rng, StopPoller& stop,
                          HugeVector<uint32_t>& free_rows, HugeVector<uint32_t>& free_columns);

// Block 3. Places queens on random free cells of random live rows until only
// `target_live_rows` rows are live; kDeadEnd when a live row loses its last
// free cell. `board` must have no dead row.
StageResult RandRand(SubBoard& board, uint32_t target_live_rows, Rng& rng, StopPoller& stop);

struct FinishBounds {
  uint32_t repeat_bound;  // inner-loop repeats per outer choice
  uint32_t sim_bound5;    // dead ends before giving up the block-4 state
};

// Where block 5's two outer loops stand: the rank of the row and of the cell
// that picks the first queen. Entries into block 5 from the same block-4
// state go on from here instead of trying the same first queens again.
struct FinishCursor {
  size_t row_rank = 0;
  size_t cell_rank = 0;
};

// Blocks 4-5. Completes `board` (the block-4 state): kReached leaves the
// solved SubBoard in `board`. Every dead end is a backtrack to block 5's start
// recorded in `budget`; kDeadEnd when the bounds or the budget run out, with
// `cursor` at the next first queen to try (back at the start once every free
// cell of every row was tried).
StageResult Finish(SubBoard& board, const FinishBounds& bounds, Rng& rng, StopPoller& stop,
                   BacktrackBudget& budget, FinishCursor& cursor);

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_STAGES_H_

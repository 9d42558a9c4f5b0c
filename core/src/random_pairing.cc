// Block 1, randSet&randSet (Grigoryan 2019, section 4.4): shuffle the lists of
// free rows and free columns and pair them in order, keeping a pair when both
// its diagonals are free; repeat on what is left.
//
// At n = 10^8 the lists hold 400 MB each, so the shuffles are bucketed
// (shuffle.h), only the columns are reshuffled between passes (see
// RandomPairing), and the pairing loop prefetches the control bits and the
// row of the pair a few steps ahead: its cost is the cache misses, not
// arithmetic.
#include <algorithm>
#include <array>
#include <utility>

#include "shuffle.h"
#include "stages.h"

namespace nqueens::internal {
namespace {

// How many pairs ahead the pairing loop prefetches (measured at 3 * 10^7:
// 16 halves the time per pair against none, 64 takes another third off).
constexpr size_t kPrefetchDistance = 64;

// The pairing loop runs in stretches of this many pairs; between stretches it
// writes the stretch's queens into the board, checks the goal and polls the
// stop condition, so the loop itself has none of that.
constexpr size_t kStretch = 4096;

// The queens placed in one stretch, written into the board after it: the
// writes land on random rows of a 400 MB array, and batching lets them
// overlap.
class QueenBatch {
 public:
  void AddIf(bool take, uint32_t row, uint32_t column) {
    batch_[size_] = {row, column};
    size_ += take;
  }
  void WriteTo(BoardState& state) {
    for (size_t i = 0; i < size_; ++i) {
      if (i + kPrefetchDistance < size_) {
        state.PrefetchQueen(batch_[i + kPrefetchDistance].first,
                            batch_[i + kPrefetchDistance].second);
      }
      state.WriteQueen(batch_[i].first, batch_[i].second);
    }
    size_ = 0;
  }

 private:
  std::array<std::pair<uint32_t, uint32_t>, kStretch> batch_;
  size_t size_ = 0;
};

// Tries pairs [begin, end) and writes the unplaced ones, in order, from
// `kept` on; returns the new end of the kept pairs. Branch-free: the pair is
// written to the front either way and kept only when it was not placed.
size_t PairStretch(BoardState& state, uint32_t* rows, uint32_t* columns, size_t begin,
                   size_t end, size_t size, size_t kept, QueenBatch& queens) {
  for (size_t i = begin; i < end; ++i) {
    if (i + kPrefetchDistance < size) {
      state.PrefetchDiagonals(rows[i + kPrefetchDistance], columns[i + kPrefetchDistance]);
    }
    const uint32_t row = rows[i], column = columns[i];
    const bool placed = state.TryClaimDiagonals(row, column);
    queens.AddIf(placed, row, column);
    rows[kept] = row;
    columns[kept] = column;
    kept += !placed;
  }
  return kept;
}

// One pass: places every pair whose diagonals are free, until the board holds
// `target_queens`; the unplaced pairs stay, in order, at the front of both
// lists, which shrink to them. kDeadEnd when nothing was placed.
StageResult PairOnce(BoardState& state, uint32_t target_queens, StopPoller& stop,
                     HugeVector<uint32_t>& rows, HugeVector<uint32_t>& columns) {
  const size_t size = rows.size();
  QueenBatch queens;
  size_t kept = 0;
  size_t i = 0;
  while (i < size && state.queens() < target_queens) {
    if (stop.CheckNow()) return StageResult::kStopped;
    // A pair places at most one queen, so this stretch cannot overshoot.
    const size_t end = std::min({size, i + kStretch, i + (target_queens - state.queens())});
    kept = PairStretch(state, rows.data(), columns.data(), i, end, size, kept, queens);
    i = end;
    queens.WriteTo(state);
  }
  const bool placed_any = kept < i;
  for (; i < size; ++i, ++kept) {  // the goal was met mid-pass
    rows[kept] = rows[i];
    columns[kept] = columns[i];
  }
  rows.resize(kept);
  columns.resize(kept);
  return placed_any ? StageResult::kReached : StageResult::kDeadEnd;
}

// Shuffles `values` through `scratch`, which keeps its memory from pass to
// pass: fresh pages every pass cost more in kernel page clearing than the
// shuffle itself.
template <typename StopFn>
bool Reshuffle(HugeVector<uint32_t>& values, HugeVector<uint32_t>& scratch, Rng& rng,
               StopFn should_stop) {
  if (!ShuffledCopy(values, rng, should_stop, scratch)) return false;
  values.swap(scratch);
  return true;
}

}  // namespace

StageResult RandomPairing(BoardState& state, uint32_t target_queens, Rng& rng,
                          StopPoller& stop, HugeVector<uint32_t>& free_rows,
                          HugeVector<uint32_t>& free_columns) {
  const auto should_stop = [&stop] { return stop.CheckNow(); };
  const size_t free_count = state.n() - state.queens();
  // The rows are shuffled once, here, and the columns before every pass: a
  // uniformly random order of the columns against the rows in any order is a
  // uniformly random pairing, as the paper's two shuffles per pass give, at
  // half their cost. The rows keep the random order of this first shuffle.
  // The sorted rows wait in the columns' list until it is filled.
  state.FreeRows(free_columns);
  if (!ShuffledCopy(free_columns, rng, should_stop, free_rows) ||
      !ShuffledCopy(free_count, [&state](auto emit) { state.ForEachFreeColumn(emit); }, rng,
                    should_stop, free_columns)) {
    return StageResult::kStopped;
  }
  HugeVector<uint32_t> scratch;
  for (bool first_pass = true; state.queens() < target_queens; first_pass = false) {
    if (!first_pass && !Reshuffle(free_columns, scratch, rng, should_stop)) {
      return StageResult::kStopped;
    }
    const StageResult pass = PairOnce(state, target_queens, stop, free_rows, free_columns);
    if (pass != StageResult::kReached) return pass;
  }
  return StageResult::kReached;
}

}  // namespace nqueens::internal

// Block 1, randSet&randSet (Grigoryan 2019, section 4.4): shuffle the lists of
// free rows and free columns and pair them in order, keeping a pair when both
// its diagonals are free; repeat on what is left.
//
// At n = 10^8 the lists hold 400 MB each, so the shuffles are bucketed
// (shuffle.h) and the pairing loop prefetches the control bits and the row of
// the pair a few steps ahead: its cost is the cache misses, not arithmetic.
#include <array>
#include <utility>

#include "shuffle.h"
#include "stages.h"

namespace nqueens::internal {
namespace {

// How many pairs ahead the pairing loop prefetches (measured at 3 * 10^7:
// 16 halves the time per pair against none, 64 takes another third off).
constexpr size_t kPrefetchDistance = 64;

// The queens placed by a pass, written into the board in batches: the writes
// land on random rows of a 400 MB array, and batching lets them overlap.
class QueenWriter {
 public:
  explicit QueenWriter(BoardState& state) : state_(state) {}
  ~QueenWriter() { Flush(); }
  // Places (row, column) when `take`; branch-free.
  void AddIf(bool take, uint32_t row, uint32_t column) {
    state_.ClaimDiagonalsIf(take, row, column);
    batch_[size_] = {row, column};
    size_ += take;
    if (size_ == batch_.size()) Flush();
  }
  void Flush() {
    for (size_t i = 0; i < size_; ++i) {
      if (i + kPrefetchDistance < size_) {
        state_.PrefetchQueen(batch_[i + kPrefetchDistance].first,
                             batch_[i + kPrefetchDistance].second);
      }
      state_.WriteQueen(batch_[i].first, batch_[i].second);
    }
    size_ = 0;
  }

 private:
  BoardState& state_;
  std::array<std::pair<uint32_t, uint32_t>, 4096> batch_;
  size_t size_ = 0;
};

// One pass: places every pair whose diagonals are free, until the board holds
// `target_queens`; the unplaced pairs stay, in order, at the front of both
// lists, which shrink to them. kDeadEnd when nothing was placed.
StageResult PairOnce(BoardState& state, uint32_t target_queens, StopPoller& stop,
                     std::vector<uint32_t>& rows, std::vector<uint32_t>& columns) {
  const size_t size = rows.size();
  QueenWriter writer(state);
  size_t kept = 0;
  size_t i = 0;
  for (; i < size && state.queens() < target_queens; ++i) {
    if (stop.ShouldStop()) return StageResult::kStopped;
    if (i + kPrefetchDistance < size) {
      state.PrefetchDiagonals(rows[i + kPrefetchDistance], columns[i + kPrefetchDistance]);
    }
    // Branch-free: the unplaced pair is written to the front either way and
    // kept only when it was not placed.
    const uint32_t row = rows[i], column = columns[i];
    const bool free = state.DiagonalsFree(row, column);
    writer.AddIf(free, row, column);
    rows[kept] = row;
    columns[kept] = column;
    kept += !free;
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
bool Reshuffle(std::vector<uint32_t>& values, std::vector<uint32_t>& scratch, Rng& rng,
               StopFn should_stop) {
  const auto visit = [&values](auto emit) {
    for (uint32_t value : values) {
      if (!emit(value)) return;
    }
  };
  if (!ShuffledCopy(values.size(), visit, rng, should_stop, scratch)) return false;
  values.swap(scratch);
  return true;
}

}  // namespace

StageResult RandomPairing(BoardState& state, uint32_t target_queens, Rng& rng,
                          StopPoller& stop, std::vector<uint32_t>& free_rows,
                          std::vector<uint32_t>& free_columns) {
  const auto should_stop = [&stop] { return stop.CheckNow(); };
  const size_t free_count = state.n() - state.queens();
  // The first lists come shuffled straight from the board.
  if (!ShuffledCopy(free_count, [&state](auto emit) { state.ForEachFreeRow(emit); }, rng,
                    should_stop, free_rows) ||
      !ShuffledCopy(free_count, [&state](auto emit) { state.ForEachFreeColumn(emit); }, rng,
                    should_stop, free_columns)) {
    return StageResult::kStopped;
  }
  std::vector<uint32_t> scratch;
  for (bool first_pass = true; state.queens() < target_queens; first_pass = false) {
    if (!first_pass && (!Reshuffle(free_rows, scratch, rng, should_stop) ||
                        !Reshuffle(free_columns, scratch, rng, should_stop))) {
      return StageResult::kStopped;
    }
    const StageResult pass = PairOnce(state, target_queens, stop, free_rows, free_columns);
    if (pass != StageResult::kReached) return pass;
  }
  return StageResult::kReached;
}

}  // namespace nqueens::internal

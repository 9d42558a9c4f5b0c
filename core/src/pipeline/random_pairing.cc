// Block 1, randSet&randSet (Grigoryan 2019, section 4.4): shuffle the lists of
// free rows and free columns and pair them in order, keeping a pair when both
// its diagonals are free; repeat on what is left.
//
// At n = 10^8 a uniformly random pairing touches a random bit of 50 MB of
// diagonal bits and a random row of a 400 MB board per pair, and its cache
// misses are the whole cost. So on huge boards each pass is cut into chunks
// (PipelineParams::pairing_chunk): the lists stay sorted chunk by chunk, a
// row chunk meets a random column chunk, and inside that pair the pairing is
// uniformly random. A chunk pair's diagonals then span a few KiB. Smaller
// boards have one chunk per pass: the paper's uniformly random pairing.
#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "pipeline/stages.h"

namespace nqueens::internal {
namespace {

// How many pairs ahead the pairing loop prefetches: one chunk pair's diagonals
// are in cache, but a one-chunk pass over a huge board is not.
constexpr size_t kPrefetchDistance = 64;

// The pairing loop runs in stretches of this many pairs; between stretches it
// writes the stretch's queens into the board, checks the goal and polls the
// stop condition, so the loop itself has none of that.
constexpr size_t kStretch = 4096;

// The queens placed in one stretch, written into the board after it.
class QueenBatch {
 public:
  void AddIf(bool take, uint32_t row, uint32_t column) {
    batch_[size_] = {row, column};
    size_ += take;
  }
  void WriteTo(BoardState& state) {
    for (size_t i = 0; i < size_; ++i) state.WriteQueen(batch_[i].first, batch_[i].second);
    size_ = 0;
  }

 private:
  std::array<std::pair<uint32_t, uint32_t>, kStretch> batch_;
  size_t size_ = 0;
};

// A list of free rows or columns cut into chunks of near-equal count. A pass
// keeps each chunk's unplaced entries at its front and then joins the chunks,
// so the list stays sorted chunk by chunk.
class ChunkedList {
 public:
  ChunkedList(HugeVector<uint32_t>& list, size_t chunks)
      : list_(list), size_(list.size()), chunks_(chunks) {}

  // Makes the per-chunk counts; false once `stop` fires. Each is a fresh
  // huge page or two at n = 10^9, faulted in with a poll between them.
  bool Prepare(StopPoller& stop) {
    return AppendPolled(kept_, chunks_, 0, stop) && AppendPolled(tried_, chunks_, 0, stop);
  }

  uint32_t* Begin(size_t chunk) { return list_.data() + Start(chunk); }
  // Asks for the chunk's cache lines, to be written.
  void Prefetch(size_t chunk) {
    constexpr size_t kPerLine = 64 / sizeof(uint32_t);
    const uint32_t* begin = Begin(chunk);
    for (size_t i = 0; i < Size(chunk); i += kPerLine) __builtin_prefetch(begin + i, 1);
  }
  size_t Size(size_t chunk) const { return Start(chunk + 1) - Start(chunk); }
  // Of the chunk's first `tried` entries, the first `kept` were not placed.
  void Record(size_t chunk, size_t kept, size_t tried) {
    kept_[chunk] = static_cast<uint32_t>(kept);
    tried_[chunk] = static_cast<uint32_t>(tried);
  }
  // Shrinks the list to the kept and the untried entries, chunk after chunk.
  // O(list), polled: false once `stop` fires, leaving the list unusable.
  bool Join(StopPoller& stop) {
    size_t end = 0;
    for (size_t chunk = 0; chunk < chunks_; ++chunk) {
      uint32_t* begin = Begin(chunk);
      if (!MoveDown(begin, begin + kept_[chunk], end, stop) ||
          !MoveDown(begin + tried_[chunk], begin + Size(chunk), end, stop)) {
        return false;
      }
    }
    list_.resize(end);
    return true;
  }

 private:
  // Moves [from, to) down to list_[end...] (no higher than `from`, so the two
  // may overlap) and advances `end`, polling between stretches.
  bool MoveDown(const uint32_t* from, const uint32_t* to, size_t& end, StopPoller& stop) {
    while (from < to) {
      const size_t count = std::min<size_t>(to - from, StopPoller::kRowsPerPoll);
      if (stop.ShouldStop(count)) return false;
      std::memmove(list_.data() + end, from, count * sizeof(uint32_t));
      from += count;
      end += count;
    }
    return true;
  }

  size_t Start(size_t chunk) const { return chunk * size_ / chunks_; }

  HugeVector<uint32_t>& list_;
  size_t size_;
  size_t chunks_;
  // 4 bytes a chunk (a chunk holds fewer than 2^32 entries), in huge pages:
  // at n = 10^9 a pass has 488,000 chunks, and the four count arrays are
  // faulted in unpolled (docs/constants.md, ChunkedList).
  HugeVector<uint32_t> kept_, tried_;
};

// How many chunks a pass over `free` free rows cuts the lists into.
size_t ChunkCount(size_t free, uint32_t n, const PipelineParams& params) {
  if (n < params.pairing_chunks_from_n) return 1;
  return std::max<size_t>(1, free / std::max<uint32_t>(params.pairing_chunk, 1));
}

// A random order of 0..count-1 into `order`; false once `stop` fires. Polled:
// at n = 10^9 a pass orders 488,000 chunks twice, most of the time spent
// faulting their pages in (docs/constants.md, RandomOrder).
bool RandomOrder(size_t count, Rng& rng, StopPoller& stop, HugeVector<uint32_t>& order) {
  order.reserve(count);
  const bool counted = RunInStretches(0, count, stop, [&order](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) order.push_back(static_cast<uint32_t>(i));
  });
  return counted && rng.Shuffle(order.begin(), order.end(), [&stop] { return stop.CheckNow(); });
}

// Tries pairs [begin, end) of rows[] and columns[] and writes the unplaced
// ones, in order, from `kept` on; returns the new end of the kept pairs.
// Branch-free: the pair is written to the front either way and kept only when
// it was not placed.
size_t PairStretch(BoardState& state, uint32_t* rows, uint32_t* columns, size_t begin, size_t end,
                   size_t size, size_t kept, QueenBatch& queens) {
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

// One pass of block 1; see the top of the file.
class Pass {
 public:
  // `shuffle_rows`: shuffle each row chunk too (the columns always are).
  Pass(BoardState& state, uint32_t target_queens, StopPoller& stop, HugeVector<uint32_t>& rows,
       HugeVector<uint32_t>& columns, size_t chunks, bool shuffle_rows)
      : state_(state),
        target_queens_(target_queens),
        stop_(stop),
        chunks_(chunks),
        shuffle_rows_(shuffle_rows),
        rows_(rows, chunks),
        columns_(columns, chunks) {}

  // Places every pair whose diagonals are free, until the board holds
  // `target_queens`; the lists shrink to the unplaced rows and columns.
  // kDeadEnd when nothing was placed.
  StageResult Run(Rng& rng) {
    const uint32_t queens_before = state_.queens();
    if (!rows_.Prepare(stop_) || !columns_.Prepare(stop_)) return StageResult::kStopped;
    HugeVector<uint32_t> row_chunks, column_chunks;
    if (!RandomOrder(chunks_, rng, stop_, row_chunks) ||
        !RandomOrder(chunks_, rng, stop_, column_chunks)) {
      return StageResult::kStopped;
    }
    for (size_t i = 0; i < chunks_ && state_.queens() < target_queens_; ++i) {
      // The chunks come from memory in random order: ask for the next pair's
      // while this one is paired (the shuffles' random swaps would otherwise
      // wait for every line; docs/constants.md, Pass::Run).
      if (i + 1 < chunks_) {
        rows_.Prefetch(row_chunks[i + 1]);
        columns_.Prefetch(column_chunks[i + 1]);
      }
      if (!PairChunks(row_chunks[i], column_chunks[i], rng)) return StageResult::kStopped;
    }
    if (!rows_.Join(stop_) || !columns_.Join(stop_)) return StageResult::kStopped;
    return state_.queens() > queens_before ? StageResult::kReached : StageResult::kDeadEnd;
  }

 private:
  // Pairs a row chunk with a column chunk, both in random order. False when
  // stopped.
  bool PairChunks(size_t row_chunk, size_t column_chunk, Rng& rng) {
    uint32_t* rows = rows_.Begin(row_chunk);
    uint32_t* columns = columns_.Begin(column_chunk);
    const size_t row_count = rows_.Size(row_chunk), column_count = columns_.Size(column_chunk);
    const auto should_stop = [this] { return stop_.CheckNow(); };
    if ((shuffle_rows_ && !rng.Shuffle(rows, rows + row_count, should_stop)) ||
        !rng.Shuffle(columns, columns + column_count, should_stop)) {
      return false;
    }
    const size_t pairs = std::min(row_count, column_count);
    QueenBatch queens;
    size_t kept = 0, tried = 0;
    while (tried < pairs && state_.queens() < target_queens_) {
      if (stop_.CheckNow()) return false;
      // A pair places at most one queen, so this stretch cannot overshoot.
      const size_t end =
          std::min({pairs, tried + kStretch, tried + (target_queens_ - state_.queens())});
      kept = PairStretch(state_, rows, columns, tried, end, pairs, kept, queens);
      tried = end;
      queens.WriteTo(state_);
    }
    rows_.Record(row_chunk, kept, tried);
    columns_.Record(column_chunk, kept, tried);
    return true;
  }

  BoardState& state_;
  uint32_t target_queens_;
  StopPoller& stop_;
  size_t chunks_;
  bool shuffle_rows_;
  ChunkedList rows_, columns_;
};

}  // namespace

StageResult RandomPairing(BoardState& state, uint32_t target_queens, const PipelineParams& params,
                          Rng& rng, StopPoller& stop, HugeVector<uint32_t>& free_rows,
                          HugeVector<uint32_t>& free_columns) {
  if (!state.FreeRows(free_rows, stop) || !state.FreeColumns(free_columns, stop)) {
    return StageResult::kStopped;
  }
  // A uniformly random order of the columns against the rows in any fixed
  // order is a uniformly random pairing, as the paper's two shuffles per pass
  // give; so a one-chunk pass after another leaves the rows in the random
  // order they have. They still need one: where a pass stops at the goal,
  // the rows it reached must be a random part of them, and a row's place in
  // the order decides which of two pairs on one diagonal wins.
  enum { kSorted, kRandomInChunks, kRandom } row_order = kSorted;
  while (state.queens() < target_queens) {
    const size_t chunks = ChunkCount(free_rows.size(), state.n(), params);
    Pass pass(state, target_queens, stop, free_rows, free_columns, chunks,
              /*shuffle_rows=*/chunks > 1 ? row_order == kSorted : row_order != kRandom);
    const StageResult result = pass.Run(rng);
    if (result != StageResult::kReached) return result;
    row_order = chunks > 1 ? kRandomInChunks : kRandom;
  }
  // Few lines are left free; the lists' memory would otherwise stay, under
  // the memory that blocks 2-5 take, until the run ends.
  free_rows.shrink_to_fit();
  free_columns.shrink_to_fit();
  return StageResult::kReached;
}

}  // namespace nqueens::internal

// Block 1, randSet&randSet (Grigoryan 2019, section 4.4): shuffle the lists of
// free rows and free columns and pair them in order, keeping a pair when both
// its diagonals are free; repeat on what is left.
//
// At n = 10^8 a uniformly random pairing touches a random bit of 50 MB of
// diagonal bits and a random row of a 400 MB board per pair, and its cache
// misses are the whole cost. So on huge boards each pass is cut into chunks
// (PipelineParams::pairing_chunk): the free rows and the free columns are
// cut, in ascending order, into chunks of near-equal count (free_lines.h), a
// row chunk meets a column chunk drawn at random, spread over the diagonals
// (chunk_partners.h), and inside that pair the pairing is uniformly random.
// A chunk pair's diagonals then span a few KiB. Smaller boards have one chunk
// per pass: the paper's uniformly random pairing.
//
// Once the free rows are a list (few are left, or one chunk a pass), they
// keep the random order a pass tried them in, and the next passes shuffle
// only the columns: a uniformly random order of the columns against the rows
// in any fixed order is a uniformly random pairing, as the paper's two
// shuffles give. The rows still need a random order: where a pass stops at
// the goal, the rows it reached must be a random part of them, and a row's
// place in the order decides which of two pairs on one diagonal wins.
//
// Chunk pairs write disjoint rows and columns, and their diagonals seldom
// meet, so the threads of the call pair them at once (chunk_pair_order.h).
// Each pair draws its order from a generator of its own, seeded by the pass
// and the pair's place in it, so the board depends on the seed alone, not on
// the threads or their timing.
#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "base/parallel_parts.h"
#include "base/prefetch.h"
#include "pipeline/chunk_pair_order.h"
#include "pipeline/chunk_partners.h"
#include "pipeline/free_lines.h"
#include "pipeline/stages.h"

namespace nqueens::internal {
namespace {

// How many pairs ahead the pairing loop prefetches each pair's diagonals, where
// the pairs' diagonals are too wide for Pass::Prefetch to have fetched them
// all (a one-chunk pass, or chunks spread thin once few lines are free).
// Where they are not, the prefetches only cost: about 1 ns a pair at
// n = 10^8 while many lines are free (docs/constants.md, kPrefetchDistance).
constexpr size_t kPrefetchDistance = 64;

// The pairing loop runs in stretches of this many pairs; between stretches it
// polls the stop condition, so the loop itself does not.
constexpr size_t kStretch = 4096;

// Fewer chunk pairs than this in a row are paired on the calling thread: the
// helpers' start would cost more than they save.
constexpr size_t kParallelFromPairs = 8;

// Fewer free lines than this are cut on the calling thread alone: a cut
// costs about what a helper's start does below this (docs/constants.md,
// kParallelCutFrom).
constexpr size_t kParallelCutFrom = size_t{1} << 14;

// No cap on the queens a chunk pair places.
constexpr uint64_t kNoRoom = ~uint64_t{0};

// How many chunks a pass over `free` free rows cuts the lines into.
size_t ChunkCount(size_t free, uint32_t n, const PipelineParams& params) {
  if (n < params.pairing_chunks_from_n) return 1;
  return std::max<size_t>(1, free / std::max<uint32_t>(params.pairing_chunk, 1));
}

// The pairs one stretch placed, written into the board after it, so that the
// pairing loop itself only claims diagonals and notes the pair.
class QueenBatch {
 public:
  // Tries pairs [begin, end) of rows[] and columns[], noting the placed
  // ones, and prefetches the diagonals of the pairs before `prefetch_end`.
  // Branch-free: whether a pair is placed is a coin toss. The count is kept
  // in a local: the writes to the diagonal bits could alias a member.
  void TryPairs(BoardState& state, const uint32_t* rows, const uint32_t* columns, size_t begin,
                size_t end, size_t prefetch_end) {
    size_t size = size_;
    for (size_t i = begin; i < end; ++i) {
      if (i + kPrefetchDistance < prefetch_end) {
        state.PrefetchDiagonals(rows[i + kPrefetchDistance], columns[i + kPrefetchDistance]);
      }
      pairs_[size] = static_cast<uint32_t>(i);
      size += state.TryClaimDiagonals(rows[i], columns[i]);
    }
    size_ = size;
  }
  // Writes the queens of the noted pairs of rows[] and columns[] (not
  // counted: BoardState::AddQueens), marks their lines taken
  // (FreeLines::kTaken), and returns how many there were.
  size_t WriteTo(BoardState& state, uint32_t* rows, uint32_t* columns) {
    const size_t size = std::exchange(size_, 0);
    for (size_t i = 0; i < size; ++i) {
      const uint32_t pair = pairs_[i];
      state.WriteQueen(rows[pair], columns[pair]);
      rows[pair] = FreeLines::kTaken;
      columns[pair] = FreeLines::kTaken;
    }
    return size;
  }

 private:
  std::array<uint32_t, kStretch> pairs_;  // a pair's place in rows[] and columns[]
  size_t size_ = 0;
};

// What one thread needs to pair chunk pairs: room for a chunk of rows and one
// of columns while they are read from bits, and for one stretch's queens.
class ChunkPairer {
 public:
  ChunkPairer(BoardState& state, FreeLines& rows, FreeLines& columns)
      : state_(state), rows_(rows), columns_(columns) {}

  // Pairs row chunk `row_chunk` with column chunk `column_chunk` in the
  // random order `rng` draws, placing at most `room` queens. Returns how many
  // it placed (written to the board, not counted: BoardState::AddQueens), or
  // nullopt once should_stop(steps) says so. Listed lines are paired where
  // they lie, and keep the order they were tried in.
  template <typename ShouldStop>
  std::optional<uint64_t> Pair(size_t row_chunk, size_t column_chunk, Rng rng, uint64_t room,
                               ShouldStop&& should_stop) {
    const auto check = [&should_stop] { return should_stop(1); };
    const std::optional<absl::Span<uint32_t>> rows =
        rows_.Shuffled(row_chunk, /*keep_order=*/true, rng, row_buffer_, check);
    if (!rows) return std::nullopt;
    const std::optional<absl::Span<uint32_t>> columns =
        columns_.Shuffled(column_chunk, /*keep_order=*/false, rng, column_buffer_, check);
    if (!columns) return std::nullopt;
    const size_t pairs = std::min(rows->size(), columns->size());
    const size_t prefetch_end = PrefetchedAsRegion(row_chunk, column_chunk) ? 0 : pairs;
    uint64_t placed = 0;
    for (size_t tried = 0; tried < pairs && placed < room;) {
      // A pair places at most one queen, so this stretch cannot overshoot.
      const size_t end = std::min<uint64_t>({pairs, tried + kStretch, tried + (room - placed)});
      if (should_stop(end - tried)) return std::nullopt;
      queens_.TryPairs(state_, rows->data(), columns->data(), tried, end, prefetch_end);
      placed += queens_.WriteTo(state_, rows->data(), columns->data());
      tried = end;
    }
    return placed;
  }

 private:
  // Whether the chunk pair's diagonals, each array's bits between its
  // lowest and highest diagonal, are few enough for Pass::Prefetch to have
  // asked for them (base/prefetch.h).
  bool PrefetchedAsRegion(size_t row_chunk, size_t column_chunk) const {
    const uint64_t span = uint64_t{rows_.Last(row_chunk) - rows_.First(row_chunk)} +
                          (columns_.Last(column_chunk) - columns_.First(column_chunk));
    return rows_.Chunks() > 1 && span / 8 < kPrefetchMaxBytes;
  }

  BoardState& state_;
  FreeLines& rows_;
  FreeLines& columns_;
  std::vector<uint32_t> row_buffer_, column_buffer_;
  QueenBatch queens_;
};

// One pass of block 1; see the top of the file.
class Pass {
 public:
  Pass(BoardState& state, uint32_t target_queens, const SearchThreads& threads, StopPoller& stop,
       FreeLines& rows, FreeLines& columns)
      : state_(state),
        target_queens_(target_queens),
        threads_(threads),
        stop_(stop),
        rows_(rows),
        columns_(columns),
        pairer_(state, rows, columns) {}

  // Places every pair whose diagonals are free, until the board holds
  // `target_queens`. kDeadEnd when nothing was placed.
  StageResult Run(size_t chunks, Rng& rng) {
    const uint32_t queens_before = state_.queens();
    const size_t free = state_.n() - state_.queens();
    if (!Cut(free, chunks) || !partners_.Draw(chunks, rng, stop_, row_chunks_, column_chunks_)) {
      return StageResult::kStopped;
    }
    seed_ = rng.Next();
    for (size_t begin = 0; begin < chunks && state_.queens() < target_queens_;) {
      // The pairs from `begin` on that cannot reach the goal together run in
      // any order; the pair that may reach it runs alone, capped.
      const uint64_t room = target_queens_ - state_.queens();
      size_t end = begin;
      for (uint64_t most = 0; end < chunks && most + PairSize(end) <= room; ++end) {
        most += PairSize(end);
      }
      const bool parallel = threads_.count > 1 && end - begin >= kParallelFromPairs;
      if (!(parallel ? PairInParallel(begin, end) : PairHere(begin, end, room))) {
        return StageResult::kStopped;
      }
      begin = std::max(end, begin + 1);
    }
    rows_.MarkRandomOrder();
    return state_.queens() > queens_before ? StageResult::kReached : StageResult::kDeadEnd;
  }

 private:
  // Cuts the rows and the columns into `chunks` chunks each: at once, when the
  // call has a second thread and the cuts are long enough to pay for its
  // start (the first cut to a list, at n / FreeLines::kListBelow free lines,
  // takes tens of milliseconds at n = 10^8). False once stopped.
  bool Cut(size_t free, size_t chunks) {
    if (threads_.count < 2 || free < kParallelCutFrom) {
      return rows_.Cut(free, chunks, stop_) && columns_.Cut(free, chunks, stop_);
    }
    std::atomic<bool> abandoned{false};
    PartsJob job;
    job.parts = 2;
    job.start_thread = [&](bool on_caller) -> PartRunner {
      return [&, on_caller](size_t part) {
        FreeLines& lines = part == 0 ? rows_ : columns_;
        if (on_caller) return lines.Cut(free, chunks, stop_);
        // A helper watches `abandoned`, as in PairInParallel: the caller polls.
        StopCondition condition;
        condition.cancelled = [&abandoned] { return abandoned.load(std::memory_order_relaxed); };
        StopPoller stop(condition);
        return lines.Cut(free, chunks, stop);
      };
    };
    job.keep_going = [this] { return !stop_.CheckNow(); };
    RunParts(job, threads_, abandoned);
    return !abandoned.load() && !stop_.CheckNow();
  }

  // The most queens pair j can place.
  size_t PairSize(size_t j) const {
    return std::min(rows_.Count(row_chunks_[j]), columns_.Count(column_chunks_[j]));
  }
  Rng PairRng(size_t j) const { return Rng(seed_ ^ (j * 0x9e3779b97f4a7c15ULL)); }
  // Asks for what pair j reads and writes, while an earlier pair is worked on.
  void Prefetch(size_t j) const {
    const size_t row_chunk = row_chunks_[j], column_chunk = column_chunks_[j];
    rows_.Prefetch(row_chunk);
    columns_.Prefetch(column_chunk);
    state_.PrefetchRegion(rows_.First(row_chunk), rows_.Last(row_chunk),
                          columns_.First(column_chunk), columns_.Last(column_chunk));
  }

  // Pairs begin .. end - 1 (or just `begin`, capped at `room` queens, when
  // end == begin) on this thread; false once stopped.
  bool PairHere(size_t begin, size_t end, uint64_t room) {
    const auto should_stop = [this](uint64_t steps) { return stop_.ShouldStop(steps); };
    const size_t last = std::max(end, begin + 1);
    for (size_t j = begin; j < last; ++j) {
      if (j + 1 < last) Prefetch(j + 1);
      const std::optional<uint64_t> placed =
          pairer_.Pair(row_chunks_[j], column_chunks_[j], PairRng(j), room, should_stop);
      if (!placed) return false;
      state_.AddQueens(static_cast<uint32_t>(*placed));
    }
    return true;
  }

  // Pairs begin .. end - 1 on the call's threads; false once stopped.
  bool PairInParallel(size_t begin, size_t end) {
    const uint32_t n = state_.n();
    ChunkPairOrder order(begin, end, [this, n](size_t j) {
      const size_t row_chunk = row_chunks_[j], column_chunk = column_chunks_[j];
      return WordsOf(n, rows_.First(row_chunk), rows_.Last(row_chunk), columns_.First(column_chunk),
                     columns_.Last(column_chunk));
    });
    std::atomic<bool> abandoned{false};
    std::atomic<uint64_t> placed{0};
    PartsJob job;
    job.parts = static_cast<size_t>(threads_.count);
    job.start_thread = [&](bool on_caller) -> PartRunner {
      return [&, on_caller](size_t) {
        ChunkPairer pairer(state_, rows_, columns_);
        const auto should_stop = [&](uint64_t steps) {
          return on_caller ? stop_.ShouldStop(steps) : abandoned.load(std::memory_order_relaxed);
        };
        while (const std::optional<size_t> j = order.Take()) {
          // Likely this thread's next pair.
          if (*j + threads_.count < end) Prefetch(*j + threads_.count);
          const std::optional<uint64_t> count =
              pairer.Pair(row_chunks_[*j], column_chunks_[*j], PairRng(*j), kNoRoom, should_stop);
          order.Done(*j);
          if (!count) return false;
          placed += *count;
        }
        return true;
      };
    };
    job.keep_going = [this] { return !stop_.CheckNow(); };
    RunParts(job, threads_, abandoned);
    state_.AddQueens(static_cast<uint32_t>(placed.load()));
    return !stop_.CheckNow();
  }

  BoardState& state_;
  const uint32_t target_queens_;
  const SearchThreads& threads_;
  StopPoller& stop_;
  FreeLines& rows_;
  FreeLines& columns_;
  ChunkPairer pairer_;                               // the calling thread's
  HugeVector<uint32_t> row_chunks_, column_chunks_;  // pair j: row_chunks_[j] x column_chunks_[j]
  ChunkPartners partners_;
  uint64_t seed_ = 0;
};

}  // namespace

StageResult RandomPairing(BoardState& state, uint32_t target_queens, const PipelineParams& params,
                          const SearchThreads& threads, Rng& rng, StopPoller& stop,
                          HugeVector<uint32_t>& free_rows, HugeVector<uint32_t>& free_columns) {
  FreeLines rows(state.row_used(), state.n()), columns(state.column_used(), state.n());
  Pass pass(state, target_queens, threads, stop, rows, columns);
  StageResult result = StageResult::kReached;
  while (result == StageResult::kReached && state.queens() < target_queens) {
    result = pass.Run(ChunkCount(state.n() - state.queens(), state.n(), params), rng);
  }
  if (result == StageResult::kStopped || !state.FreeRows(free_rows, stop) ||
      !state.FreeColumns(free_columns, stop)) {
    return StageResult::kStopped;
  }
  return result;
}

}  // namespace nqueens::internal

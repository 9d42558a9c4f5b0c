#include "pipeline/board_state.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/parallel_parts.h"
#include "base/validation.h"

namespace nqueens::internal {
namespace {

// Below this many rows the given queens are placed on one thread: a
// helper's start would cost a noticeable share of the pass.
constexpr uint32_t kTwoThreadPlacingFrom = uint32_t{1} << 20;

// Bits a line array (index 1..n) and a diagonal array (1..2n) hold.
size_t LineBits(uint64_t n) { return n + 1; }
size_t DiagonalBits(uint64_t n) { return 2 * n + 1; }

}  // namespace

absl::StatusOr<BoardState> BoardState::Create(Columns composition, StopPoller& stop,
                                              const SearchThreads& threads) {
  BoardState state(std::move(composition));
  const bool placed = threads.count > 1 && state.n_ >= kTwoThreadPlacingFrom
                          ? state.PlaceGivenQueensOnTwoThreads(threads, stop)
                          : state.ClearControlBits(stop) && state.PlaceGivenQueens(stop);
  if (placed) return state;
  return Refused(state.columns_, stop);
}

BoardState BoardState::Incoming(uint32_t n) {
  BoardState state{Columns()};
  state.n_ = n;
  StopCondition never;
  StopPoller stop(never);
  state.ClearControlBits(stop);
  return state;
}

bool BoardState::PlaceRows(const uint32_t* board, uint32_t first_row, uint32_t last_row) {
  StopCondition never;
  StopPoller stop(never);
  return PlaceGivenRows(board, first_row, last_row, stop);
}

absl::StatusOr<BoardState> BoardState::Adopt(BoardState incoming, uint32_t placed,
                                             Columns composition, StopPoller& stop) {
  if (composition.size() != incoming.n_) {
    return absl::InvalidArgumentError(absl::StrCat("a board of ", composition.size(),
                                                   " rows for a composition of ", incoming.n_));
  }
  incoming.columns_ = std::move(composition);
  if (placed >= incoming.n_ ||
      incoming.PlaceGivenRows(incoming.columns_.data(), placed + 1, incoming.n_, stop)) {
    return incoming;
  }
  return Refused(incoming.columns_, stop);
}

absl::Status BoardState::Refused(const Columns& composition, StopPoller& stop) {
  if (!stop.status().ok()) return stop.status();
  // Something is wrong: let the validator find it and name the rows.
  absl::Status status = CheckComposition(composition, stop);
  if (status.ok()) status = absl::InternalError("composition rejected but valid");
  return status;
}

BoardState::BoardState(Columns composition)
    : n_(static_cast<uint32_t>(composition.size())), columns_(std::move(composition)) {}

bool BoardState::ClearControlBits(StopPoller& stop) {
  return ClearLineBits(stop) && ClearDiagonalBits(stop);
}

uint64_t BoardState::ControlBytes(uint64_t n) {
  return 3 * BitArray::BytesFor(LineBits(n)) + 2 * BitArray::BytesFor(DiagonalBits(n));
}

bool BoardState::ClearLineBits(StopPoller& stop) {
  return given_.Reset(LineBits(n_), stop) && row_used_.Reset(LineBits(n_), stop) &&
         column_used_.Reset(LineBits(n_), stop);
}

bool BoardState::ClearDiagonalBits(StopPoller& stop) {
  return diagonal_used_.Reset(DiagonalBits(n_), stop) &&
         anti_diagonal_used_.Reset(DiagonalBits(n_), stop);
}

bool BoardState::Restore(StopPoller& stop) {
  const bool emptied = RunInStretches(1, size_t{n_} + 1, stop, [this](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      columns_[row - 1] = given_.Test(row) ? columns_[row - 1] : kEmptyRow;
    }
  });
  if (!emptied || !row_used_.ClearAll(stop) || !column_used_.ClearAll(stop) ||
      !diagonal_used_.ClearAll(stop) || !anti_diagonal_used_.ClearAll(stop)) {
    return false;
  }
  queens_ = 0;
  return PlaceGivenQueens(stop);
}

template <typename Prefetch, typename Visit>
bool BoardState::ForEachGivenQueen(const uint32_t* board, uint32_t first_row, uint32_t last_row,
                                   StopPoller& stop, Prefetch prefetch, Visit visit) const {
  // A block of rows at a time: first the given ones among them, without a
  // branch (on a random composition whether a row is given is a coin toss),
  // then their queens, prefetching for a queen a few queens ahead: the rows
  // come in order but their columns at random, and at n = 10^8 each queen
  // would otherwise wait for its cache misses.
  constexpr uint32_t kBlock = 4096;
  constexpr uint32_t kPrefetchDistance = 16;
  static_assert(StopPoller::kRowsPerPoll % kBlock == 0, "polls fall between blocks");
  std::array<uint32_t, kBlock + 1> given_rows;
  for (uint32_t first = first_row; first <= last_row; first += kBlock) {
    if ((first - first_row) % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return false;
    const uint32_t last = std::min(last_row, first + (kBlock - 1));
    uint32_t count = 0;
    for (uint32_t row = first; row <= last; ++row) {
      given_rows[count] = row;
      count += board[row - 1] != kEmptyRow;
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (i + kPrefetchDistance < count) {
        const uint32_t ahead = given_rows[i + kPrefetchDistance];
        prefetch(ahead, std::min(board[ahead - 1], n_));
      }
      const uint32_t row = given_rows[i];
      if (!visit(row, board[row - 1])) return false;
    }
  }
  return true;
}

bool BoardState::PlaceGivenQueens(StopPoller& stop) {
  return PlaceGivenRows(columns_.data(), 1, n_, stop);
}

bool BoardState::PlaceGivenRows(const uint32_t* board, uint32_t first_row, uint32_t last_row,
                                StopPoller& stop) {
  return ForEachGivenQueen(
      board, first_row, last_row, stop,
      [this](uint32_t row, uint32_t column) {
        column_used_.Prefetch(column);
        PrefetchDiagonals(row, column);
      },
      [this](uint32_t row, uint32_t column) { return PlaceGiven(row, column); });
}

bool BoardState::PlaceGiven(uint32_t row, uint32_t column) {
  if (column > n_ || !ColumnFree(column) || !DiagonalsFree(row, column)) return false;
  // Place() but for the board's own entry, which holds the queen already
  // (and is not columns_ yet for an incoming composition).
  given_.Set(row);
  ClaimDiagonals(row, column);
  row_used_.Set(row);
  column_used_.Set(column);
  AddQueens(1);
  return true;
}

bool BoardState::PlaceGivenQueensOnTwoThreads(const SearchThreads& threads, StopPoller& stop) {
  std::atomic<bool> abandoned{false};
  PartsJob job;
  job.parts = 2;
  job.start_thread = [&](bool on_caller) -> PartRunner {
    return [&, on_caller](size_t part) {
      // A helper watches `abandoned`, as block 1's do: the caller polls.
      StopCondition condition;
      condition.cancelled = [&abandoned] { return abandoned.load(std::memory_order_relaxed); };
      StopPoller helper_stop(condition);
      StopPoller& part_stop = on_caller ? stop : helper_stop;
      return part == 0 ? ClearLineBits(part_stop) && PlaceGivenLines(part_stop)
                       : ClearDiagonalBits(part_stop) && PlaceGivenDiagonals(part_stop);
    };
  };
  job.keep_going = [&stop] { return !stop.CheckNow(); };
  RunParts(job, threads, abandoned);
  return !abandoned.load() && !stop.CheckNow();
}

bool BoardState::PlaceGivenLines(StopPoller& stop) {
  uint32_t queens = 0;
  const bool placed = ForEachGivenQueen(
      stop, [this](uint32_t, uint32_t column) { column_used_.Prefetch(column); },
      [this, &queens](uint32_t row, uint32_t column) {
        if (column > n_ || !ColumnFree(column)) return false;
        given_.Set(row);
        row_used_.Set(row);
        column_used_.Set(column);
        ++queens;
        return true;
      });
  queens_ = queens;
  return placed;
}

bool BoardState::PlaceGivenDiagonals(StopPoller& stop) {
  return ForEachGivenQueen(
      stop, [this](uint32_t row, uint32_t column) { PrefetchDiagonals(row, column); },
      [this](uint32_t row, uint32_t column) {
        // A column off the board is PlaceGivenLines' to refuse.
        if (column > n_) return true;
        if (!DiagonalsFree(row, column)) return false;
        ClaimDiagonals(row, column);
        return true;
      });
}

bool BoardState::ListClear(const BitArray& used, HugeVector<uint32_t>& out,
                           StopPoller& stop) const {
  out.clear();
  out.reserve(size_t{n_} - queens_);  // growing by doubling would peak at 3 lists
  // Each stretch grows `out` by its count of clear bits and writes them
  // through a pointer: push_back's checks cost more instructions a line
  // (docs/constants.md, BoardState::ListClear).
  return RunInStretches(1, size_t{n_} + 1, stop, [&used, &out](size_t first, size_t last) {
    size_t next = out.size();
    out.resize(next + used.CountClear(first, last));
    uint32_t* const slots = out.data();
    used.ForEachClear(first, last, [slots, &next](size_t line) {
      slots[next++] = static_cast<uint32_t>(line);
      return true;
    });
  });
}

}  // namespace nqueens::internal

#include "pipeline/board_state.h"

#include <algorithm>
#include <array>
#include <utility>

#include "base/validation.h"

namespace nqueens::internal {

absl::StatusOr<BoardState> BoardState::Create(Columns composition, StopPoller& stop) {
  BoardState state(std::move(composition));
  if (!state.ClearControlBits(stop)) return stop.status();
  if (state.PlaceGivenQueens(stop)) return state;
  if (!stop.status().ok()) return stop.status();
  // Something is wrong: let the validator find it and name the rows.
  absl::Status status = CheckComposition(state.columns_, stop);
  if (status.ok()) status = absl::InternalError("composition rejected but valid");
  return status;
}

BoardState::BoardState(Columns composition)
    : n_(static_cast<uint32_t>(composition.size())), columns_(std::move(composition)) {}

bool BoardState::ClearControlBits(StopPoller& stop) {
  return given_.Reset(size_t{n_} + 1, stop) && row_used_.Reset(size_t{n_} + 1, stop) &&
         column_used_.Reset(size_t{n_} + 1, stop) &&
         diagonal_used_.Reset(2 * size_t{n_} + 1, stop) &&
         anti_diagonal_used_.Reset(2 * size_t{n_} + 1, stop);
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

bool BoardState::PlaceGivenQueens(StopPoller& stop) {
  // A block of rows at a time: first the given ones among them, without a
  // branch (on a random composition whether a row is given is a coin toss),
  // then their queens, fetching the control bits of a queen a few queens
  // ahead: the rows come in order but their columns at random, and at
  // n = 10^8 each queen would otherwise wait for three cache misses.
  constexpr uint32_t kBlock = 4096;
  constexpr uint32_t kPrefetchDistance = 16;
  static_assert(StopPoller::kRowsPerPoll % kBlock == 0, "polls fall between blocks");
  std::array<uint32_t, kBlock + 1> given_rows;
  for (uint32_t first = 1; first <= n_; first += kBlock) {
    if ((first - 1) % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return false;
    const uint32_t last = std::min(n_, first + (kBlock - 1));
    uint32_t count = 0;
    for (uint32_t row = first; row <= last; ++row) {
      given_rows[count] = row;
      count += !RowEmpty(row);
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (i + kPrefetchDistance < count) {
        const uint32_t ahead = given_rows[i + kPrefetchDistance];
        const uint32_t column = std::min(columns_[ahead - 1], n_);
        column_used_.Prefetch(column);
        PrefetchDiagonals(ahead, column);
      }
      const uint32_t row = given_rows[i], column = columns_[row - 1];
      if (column > n_ || !ColumnFree(column) || !DiagonalsFree(row, column)) return false;
      given_.Set(row);
      Place(row, column);
    }
  }
  return true;
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

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
  return given_.Reset(size_t{n_} + 1, stop) && column_used_.Reset(size_t{n_} + 1, stop) &&
         diagonal_used_.Reset(2 * size_t{n_} + 1, stop) &&
         anti_diagonal_used_.Reset(2 * size_t{n_} + 1, stop);
}

bool BoardState::Restore(StopPoller& stop) {
  const bool emptied = RunInStretches(1, size_t{n_} + 1, stop, [this](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      columns_[row - 1] = given_.Test(row) ? columns_[row - 1] : kEmptyRow;
    }
  });
  if (!emptied || !column_used_.ClearAll(stop) || !diagonal_used_.ClearAll(stop) ||
      !anti_diagonal_used_.ClearAll(stop)) {
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

bool BoardState::FreeRows(HugeVector<uint32_t>& out, StopPoller& stop) const {
  // Branch-free: whether a row is empty is a coin toss on a random board, and
  // a mispredicted branch per row cost more than the whole loop. The loop
  // writes one past the last free row, so `out` needs room for that one too;
  // it grows a stretch at a time, while the stretch is in cache.
  const size_t room = size_t{n_} - queens_ + 1;
  out.clear();
  out.reserve(room);
  return RunInStretches(1, size_t{n_} + 1, stop, [this, &out, room](size_t first, size_t last) {
    size_t next = out.size();
    out.resize(std::min(room, next + (last - first) + 1));
    for (size_t row = first; row < last; ++row) {
      out[next] = static_cast<uint32_t>(row);
      next += RowEmpty(static_cast<uint32_t>(row));
    }
    out.resize(next);
  });
}

bool BoardState::FreeColumns(HugeVector<uint32_t>& out, StopPoller& stop) const {
  out.clear();
  out.reserve(size_t{n_} - queens_);  // growing by doubling would peak at 3 lists
  // Each stretch grows `out` by its count of free columns and writes them
  // through a pointer: push_back's checks cost more instructions a column
  // (docs/constants.md, BoardState::FreeColumns).
  return RunInStretches(1, size_t{n_} + 1, stop, [this, &out](size_t first, size_t last) {
    size_t next = out.size();
    out.resize(next + column_used_.CountClear(first, last));
    uint32_t* const slots = out.data();
    column_used_.ForEachClear(first, last, [slots, &next](size_t column) {
      slots[next++] = static_cast<uint32_t>(column);
      return true;
    });
  });
}

}  // namespace nqueens::internal

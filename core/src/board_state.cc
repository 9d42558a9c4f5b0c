#include "board_state.h"

#include <algorithm>
#include <array>
#include <utility>

#include "nqueens/validate.h"

namespace nqueens::internal {

absl::StatusOr<BoardState> BoardState::Create(Columns composition) {
  BoardState state(std::move(composition));
  if (state.PlaceGivenQueens()) return state;
  // Something is wrong: let the validator find it and name the rows.
  absl::Status status = CheckComposition(state.columns_);
  if (status.ok()) status = absl::InternalError("composition rejected but valid");
  return status;
}

BoardState::BoardState(Columns composition)
    : n_(static_cast<uint32_t>(composition.size())),
      columns_(std::move(composition)),
      given_(n_ + 1),
      column_used_(n_ + 1),
      diagonal_used_(2 * size_t{n_} + 1),
      anti_diagonal_used_(2 * size_t{n_} + 1) {}

void BoardState::Restore() {
  for (uint32_t row = 1; row <= n_; ++row) {
    columns_[row - 1] = given_.Test(row) ? columns_[row - 1] : kEmptyRow;
  }
  column_used_.ClearAll();
  diagonal_used_.ClearAll();
  anti_diagonal_used_.ClearAll();
  queens_ = 0;
  PlaceGivenQueens();
}

bool BoardState::PlaceGivenQueens() {
  // A block of rows at a time: first the given ones among them, without a
  // branch (on a random composition whether a row is given is a coin toss),
  // then their queens, fetching the control bits of a queen a few queens
  // ahead: the rows come in order but their columns at random, and at
  // n = 10^8 each queen would otherwise wait for three cache misses.
  constexpr uint32_t kBlock = 4096;
  constexpr uint32_t kPrefetchDistance = 16;
  std::array<uint32_t, kBlock + 1> given_rows;
  for (uint32_t first = 1; first <= n_; first += kBlock) {
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

void BoardState::FreeRows(HugeVector<uint32_t>& out) const {
  // Branch-free: whether a row is empty is a coin toss on a random board, and
  // a mispredicted branch per row cost more than the whole loop.
  out.resize(size_t{n_} - queens_ + 1);  // the loop writes one past the last
  size_t next = 0;
  for (uint32_t row = 1; row <= n_; ++row) {
    out[next] = row;
    next += RowEmpty(row);
  }
  out.resize(next);
}

void BoardState::FreeColumns(HugeVector<uint32_t>& out) const {
  out.clear();
  out.reserve(size_t{n_} - queens_);  // growing by doubling would peak at 3 lists
  ForEachFreeColumn([&out](uint32_t column) {
    out.push_back(column);
    return true;
  });
}

}  // namespace nqueens::internal

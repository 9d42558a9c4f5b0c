#include "board_state.h"

#include <utility>

#include "nqueens/validate.h"

namespace nqueens::internal {

absl::StatusOr<BoardState> BoardState::Create(Columns composition) {
  BoardState state(std::move(composition));
  for (uint32_t row = 1; row <= state.n_; ++row) {
    if (!state.RowEmpty(row)) state.given_.Set(row);
  }
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
    if (!given_.Test(row)) columns_[row - 1] = kEmptyRow;
  }
  column_used_.ClearAll();
  diagonal_used_.ClearAll();
  anti_diagonal_used_.ClearAll();
  queens_ = 0;
  PlaceGivenQueens();
}

bool BoardState::PlaceGivenQueens() {
  for (uint32_t row = 1; row <= n_; ++row) {
    const uint32_t column = columns_[row - 1];
    if (column == kEmptyRow) continue;
    if (column > n_ || !ColumnFree(column) || !DiagonalsFree(row, column)) return false;
    Place(row, column);
  }
  return true;
}

void BoardState::FreeRows(std::vector<uint32_t>& out) const {
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

void BoardState::FreeColumns(std::vector<uint32_t>& out) const {
  out.clear();
  ForEachFreeColumn([&out](uint32_t column) {
    out.push_back(column);
    return true;
  });
}

}  // namespace nqueens::internal

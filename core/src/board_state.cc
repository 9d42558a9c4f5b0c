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

std::vector<uint32_t> BoardState::FreeRows() const {
  std::vector<uint32_t> rows;
  rows.reserve(n_ - queens_);
  ForEachFreeRow([&rows](uint32_t row) {
    rows.push_back(row);
    return true;
  });
  return rows;
}

std::vector<uint32_t> BoardState::FreeColumns() const {
  std::vector<uint32_t> columns;
  columns.reserve(n_ - queens_);
  ForEachFreeColumn([&columns](uint32_t column) {
    columns.push_back(column);
    return true;
  });
  return columns;
}

}  // namespace nqueens::internal

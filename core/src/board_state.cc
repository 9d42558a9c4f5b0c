#include "board_state.h"

#include <utility>

namespace nqueens::internal {

BoardState::BoardState(Columns composition)
    : n_(static_cast<uint32_t>(composition.size())),
      columns_(std::move(composition)),
      given_(n_ + 1),
      column_used_(n_ + 1),
      diagonal_used_(2 * size_t{n_} + 1),
      anti_diagonal_used_(2 * size_t{n_} + 1) {
  for (uint32_t row = 1; row <= n_; ++row) {
    if (!RowEmpty(row)) given_.Set(row);
  }
  PlaceGivenQueens();
}

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

void BoardState::PlaceGivenQueens() {
  for (uint32_t row = 1; row <= n_; ++row) {
    const uint32_t column = columns_[row - 1];
    if (column == kEmptyRow) continue;
    column_used_.Set(column);
    diagonal_used_.Set(n_ + column - row);
    anti_diagonal_used_.Set(row + column);
    ++queens_;
  }
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

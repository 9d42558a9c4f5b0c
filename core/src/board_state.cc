#include "board_state.h"

#include <utility>

namespace nqueens::internal {

BoardState::BoardState(Columns composition)
    : n_(static_cast<uint32_t>(composition.size())),
      columns_(std::move(composition)),
      column_used_(n_ + 1),
      diagonal_used_(2 * size_t{n_} + 1),
      anti_diagonal_used_(2 * size_t{n_} + 1) {
  for (uint32_t row = 1; row <= n_; ++row) {
    const uint32_t column = columns_[row - 1];
    if (column == kEmptyRow) continue;
    columns_[row - 1] = kEmptyRow;  // Place() writes it back
    Place(row, column);
  }
}

void BoardState::Place(uint32_t row, uint32_t column) {
  columns_[row - 1] = column;
  column_used_.Set(column);
  diagonal_used_.Set(n_ + column - row);
  anti_diagonal_used_.Set(row + column);
  ++queens_;
}

std::vector<uint32_t> BoardState::FreeRows() const {
  std::vector<uint32_t> rows;
  rows.reserve(n_ - queens_);
  for (uint32_t row = 1; row <= n_; ++row) {
    if (RowEmpty(row)) rows.push_back(row);
  }
  return rows;
}

std::vector<uint32_t> BoardState::FreeColumns() const {
  std::vector<uint32_t> columns;
  columns.reserve(n_ - queens_);
  for (uint32_t column = 1; column <= n_; ++column) {
    if (ColumnFree(column)) columns.push_back(column);
  }
  return columns;
}

}  // namespace nqueens::internal

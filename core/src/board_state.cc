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

namespace {

// The values `for_each` yields, as a list with room for `count` of them.
template <typename ForEach>
std::vector<uint32_t> Collect(size_t count, ForEach for_each) {
  std::vector<uint32_t> values;
  values.reserve(count);
  for_each([&values](uint32_t value) {
    values.push_back(value);
    return true;
  });
  return values;
}

}  // namespace

std::vector<uint32_t> BoardState::FreeRows() const {
  return Collect(n_ - queens_, [this](auto emit) { ForEachFreeRow(emit); });
}

std::vector<uint32_t> BoardState::FreeColumns() const {
  return Collect(n_ - queens_, [this](auto emit) { ForEachFreeColumn(emit); });
}

}  // namespace nqueens::internal

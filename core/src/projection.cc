// Blocks 2 and 4: projecting the board onto its free rows x free columns,
// and the bookkeeping of queens placed on that projection.
#include <algorithm>
#include <utility>

#include "sub_board.h"

namespace nqueens::internal {

ColumnIndex::ColumnIndex(uint32_t n, const std::vector<uint32_t>& sorted_columns)
    : n_(n), members_(n / 64 + 1, 0), rank_(members_.size(), 0) {
  for (uint32_t column : sorted_columns) members_[column >> 6] |= uint64_t{1} << (column & 63);
  uint32_t before = 0;
  for (size_t word = 0; word < members_.size(); ++word) {
    rank_[word] = before;
    before += static_cast<uint32_t>(__builtin_popcountll(members_[word]));
  }
}

SubBoard::SubBoard(const BoardState& state, std::vector<uint32_t> rows,
                   std::vector<uint32_t> columns)
    : n_(state.n()),
      rows_(std::move(rows)),
      columns_(std::move(columns)),
      column_index_(std::make_shared<ColumnIndex>(n_, columns_)) {
  Allocate(static_cast<uint32_t>(rows_.size()));
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    for (uint32_t column = 0; column < columns_.size(); ++column) {
      if (state.DiagonalsFree(rows_[row], columns_[column])) SetFree(row, column);
    }
  }
}

SubBoard SubBoard::Compact() const {
  SubBoard compact;
  compact.n_ = n_;
  std::vector<uint32_t> kept_columns;  // indices here
  std::vector<bool> column_taken(columns_.size(), false);
  for (uint32_t column : queen_column_) {
    if (column != kNone) column_taken[column] = true;
  }
  for (uint32_t column = 0; column < columns_.size(); ++column) {
    if (!column_taken[column]) {
      kept_columns.push_back(column);
      compact.columns_.push_back(columns_[column]);
    }
  }
  std::vector<uint32_t> kept_rows;
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    if (queen_column_[row] == kNone) {
      kept_rows.push_back(row);
      compact.rows_.push_back(rows_[row]);
    }
  }
  compact.column_index_ = std::make_shared<ColumnIndex>(n_, compact.columns_);
  compact.Allocate(static_cast<uint32_t>(kept_rows.size()));
  for (uint32_t row = 0; row < kept_rows.size(); ++row) {
    for (uint32_t column = 0; column < kept_columns.size(); ++column) {
      if (Test(kept_rows[row], kept_columns[column])) compact.SetFree(row, column);
    }
  }
  return compact;
}

void SubBoard::Allocate(uint32_t size) {
  words_per_row_ = (size + 63) / 64;
  free_.assign(size_t{size} * words_per_row_, 0);
  free_count_.assign(size, 0);
  column_free_count_.assign(size, 0);
  live_.resize(size);
  live_position_.resize(size);
  for (uint32_t row = 0; row < size; ++row) live_[row] = live_position_[row] = row;
  queen_column_.assign(size, kNone);
}

void SubBoard::SetFree(uint32_t row, uint32_t column) {
  free_[row * words_per_row_ + column / 64] |= uint64_t{1} << (column % 64);
  ++free_count_[row];
  ++column_free_count_[column];
}

void SubBoard::CloseCell(uint32_t row, uint32_t column) {
  if (!Test(row, column)) return;
  free_[row * words_per_row_ + column / 64] &= ~(uint64_t{1} << (column % 64));
  --free_count_[row];
  --column_free_count_[column];
}

void SubBoard::RemoveLive(uint32_t row) {
  const uint32_t position = live_position_[row];
  const uint32_t last = live_.back();
  live_[position] = last;
  live_position_[last] = position;
  live_.pop_back();
  live_position_[row] = kNone;
}

bool SubBoard::HasDeadRow() const {
  return std::any_of(live_.begin(), live_.end(),
                     [this](uint32_t row) { return free_count_[row] == 0; });
}

std::vector<uint32_t> SubBoard::FreeCells(uint32_t row) const {
  std::vector<uint32_t> cells;
  cells.reserve(free_count_[row]);
  const uint64_t* words = &free_[row * words_per_row_];
  for (uint32_t w = 0; w < words_per_row_; ++w) {
    for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      cells.push_back(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
    }
  }
  return cells;
}

uint32_t SubBoard::NthFreeCell(uint32_t row, uint32_t k) const {
  const uint64_t* words = &free_[row * words_per_row_];
  for (uint32_t w = 0;; ++w) {
    uint64_t bits = words[w];
    const uint32_t count = static_cast<uint32_t>(__builtin_popcountll(bits));
    if (k < count) {
      for (; k > 0; --k) bits &= bits - 1;
      return w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
    }
    k -= count;
  }
}

template <typename Visit>
void SubBoard::ForEachDiagonalCell(uint32_t row, uint32_t from_row,
                                   uint32_t column, Visit visit) const {
  // A queen at original (R, C) attacks (R', C + (R' - R)) and (R', C - (R' - R)).
  const int64_t shift = int64_t{rows_[row]} - rows_[from_row];
  const int64_t original = columns_[column];
  for (int64_t target : {original + shift, original - shift}) {
    const uint32_t index = column_index_->Find(target);
    if (index != ColumnIndex::kAbsent) visit(index);
  }
}

uint32_t SubBoard::Damage(uint32_t row, uint32_t column) const {
  // Cells sharing the column or a diagonal with (row, column) lie in other
  // rows, and no cell other than (row, column) shares two of these lines.
  uint32_t damage = column_free_count_[column] - 1;
  for (uint32_t other : live_) {
    if (other == row) continue;
    ForEachDiagonalCell(other, row, column, [&](uint32_t cell) {
      damage += Test(other, cell) ? 1 : 0;
    });
  }
  return damage;
}

bool SubBoard::Place(uint32_t row, uint32_t column) {
  for (uint32_t cell : FreeCells(row)) CloseCell(row, cell);
  RemoveLive(row);
  queen_column_[row] = column;
  bool all_rows_alive = true;
  for (uint32_t other : live_) {
    CloseCell(other, column);
    ForEachDiagonalCell(other, row, column,
                        [&](uint32_t cell) { CloseCell(other, cell); });
    all_rows_alive &= free_count_[other] > 0;
  }
  return all_rows_alive;
}

void SubBoard::WriteTo(BoardState& state) const {
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    if (queen_column_[row] != kNone) {
      state.Place(rows_[row], columns_[queen_column_[row]]);
    }
  }
}

}  // namespace nqueens::internal

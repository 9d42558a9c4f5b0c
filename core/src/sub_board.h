// The projection of blocks 2 and 4 (Grigoryan 2019, sections 4.5 and 4.7):
// the free rows x free columns of the board as a small matrix L whose cells
// keep their original row and column, so diagonal attacks are still computed
// in original coordinates (the paper's rAr/tAr arrays).
//
// Blocks 3 (rand&rand) and 5 (min-risk/min-damage) place queens on it. A row
// is *live* until it gets a queen. Placing a queen closes its row, its column
// and the cells of its diagonals in every live row; a live row left with no
// free cell is a dead end, detected at once.
#ifndef NQUEENS_SRC_SUB_BOARD_H_
#define NQUEENS_SRC_SUB_BOARD_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "board_state.h"

namespace nqueens::internal {

// Maps an original column (1..n) to its index among a sorted set of columns
// in O(1): one bit per board column plus a running count per 64-bit word, so
// about 0.19 bytes per board row. Immutable once built; SubBoard copies share
// it.
class ColumnIndex {
 public:
  static constexpr uint32_t kAbsent = std::numeric_limits<uint32_t>::max();

  ColumnIndex(uint32_t n, const std::vector<uint32_t>& sorted_columns);
  // Index of `column` in the set, or kAbsent (also for columns outside 1..n).
  uint32_t Find(int64_t column) const {
    if (column < 1 || column > n_) return kAbsent;
    const uint64_t word = members_[column >> 6];
    const uint64_t bit = uint64_t{1} << (column & 63);
    if ((word & bit) == 0) return kAbsent;
    return rank_[column >> 6] + static_cast<uint32_t>(__builtin_popcountll(word & (bit - 1)));
  }

 private:
  uint32_t n_;
  std::vector<uint64_t> members_;  // bit c: column c is in the set
  std::vector<uint32_t> rank_;     // members in the words before this one
};

class SubBoard {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  // Projects `state` onto `rows` x `columns` (its free rows and free
  // columns, ascending, equally many).
  SubBoard(const BoardState& state, std::vector<uint32_t> rows,
           std::vector<uint32_t> columns);

  // Block 4: a smaller projection holding only the live rows and the unused
  // columns.
  SubBoard Compact() const;

  uint32_t live_rows() const { return static_cast<uint32_t>(live_.size()); }
  // The i-th live row (order changes as rows die).
  uint32_t LiveRow(uint32_t i) const { return live_[i]; }
  uint32_t FreeCount(uint32_t row) const { return free_count_[row]; }
  // True when a live row has no free cell left.
  bool HasDeadRow() const;

  // The free cells of `row`, ascending.
  std::vector<uint32_t> FreeCells(uint32_t row) const;
  // The k-th (0-based) free cell of `row`; k < FreeCount(row).
  uint32_t NthFreeCell(uint32_t row, uint32_t k) const;
  // Free cells of the other live rows that a queen on (row, column) closes:
  // the min-damage criterion (the paper's array E).
  uint32_t Damage(uint32_t row, uint32_t column) const;

  // Puts a queen on the free cell (row, column). Returns false when this
  // leaves some live row without a free cell (a dead end).
  bool Place(uint32_t row, uint32_t column);

  // Copies the queens placed here onto the full board.
  void WriteTo(BoardState& state) const;

 private:
  SubBoard() = default;
  void Allocate(uint32_t size);
  bool Test(uint32_t row, uint32_t column) const {
    return (free_[row * words_per_row_ + column / 64] >> (column % 64)) & 1;
  }
  void SetFree(uint32_t row, uint32_t column);
  void CloseCell(uint32_t row, uint32_t column);
  void RemoveLive(uint32_t row);
  // The two cells of `row` on the diagonals through (from_row, column).
  template <typename Visit>
  void ForEachDiagonalCell(uint32_t row, uint32_t from_row, uint32_t column,
                           Visit visit) const;

  uint32_t n_ = 0;                // size of the full board
  std::vector<uint32_t> rows_;    // original row of each row here
  std::vector<uint32_t> columns_; // original column of each column, ascending
  std::shared_ptr<const ColumnIndex> column_index_;  // original column -> index
  uint32_t words_per_row_ = 0;
  std::vector<uint64_t> free_;    // bit (row, column): the cell is free
  std::vector<uint32_t> free_count_;         // free cells per row
  std::vector<uint32_t> column_free_count_;  // free cells per column
  std::vector<uint32_t> live_;               // rows still without a queen
  std::vector<uint32_t> live_position_;      // index into live_, or kNone
  std::vector<uint32_t> queen_column_;       // column of the row's queen, or kNone
};

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_SUB_BOARD_H_

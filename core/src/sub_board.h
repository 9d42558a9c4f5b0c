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
#include <vector>

#include "board_state.h"

namespace nqueens::internal {

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
  // Index of original column `column` here, or kNone.
  uint32_t IndexOfColumn(int64_t column) const;
  // The two cells of `row` on the diagonals through (from_row, column).
  template <typename Visit>
  void ForEachDiagonalCell(uint32_t row, uint32_t from_row, uint32_t column,
                           Visit visit) const;

  uint32_t n_ = 0;                // size of the full board
  std::vector<uint32_t> rows_;    // original row of each row here
  std::vector<uint32_t> columns_; // original column of each column, ascending
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

// The whole board as the pipeline's first stages see it (Grigoryan 2019,
// section 3): the array Q plus one control bit per column and per diagonal.
// The n x n matrix itself is never stored.
//
// The state owns the board it was given and remembers which rows were given,
// so a run can go back to the input (Restore) without a second copy of it:
// at n = 10^8 every byte per row is 100 MB.
#ifndef NQUEENS_PIPELINE_BOARD_STATE_H_
#define NQUEENS_PIPELINE_BOARD_STATE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "base/bit_array.h"
#include "base/prefetch.h"
#include "base/stop_poller.h"
#include "nqueens/board.h"
#include "nqueens/threads.h"

namespace nqueens::internal {

class BoardState {
 public:
  // Takes `composition` (n = its size, within kMaxBoardSize) and checks it
  // while placing its queens: one pass instead of a separate Validate.
  // INVALID_ARGUMENT, naming the rows, when queens attack each other or a
  // column is out of range; the poller's status when it stops (the pass is
  // O(n), polled).
  // With two threads or more, the control bits of the rows and columns and
  // those of the diagonals are filled at once, each by a thread that reads
  // every given queen: no word is written by both, and no atomic operation
  // is needed, as it would be with the rows split between the threads.
  static absl::StatusOr<BoardState> Create(Columns composition, StopPoller& stop,
                                           const SearchThreads& threads = SearchThreads());

  // A composition taken in two steps, for one whose rows arrive in order (a
  // stream): Incoming(n) clears the control bits of n rows, PlaceRows places
  // the given queens of rows as they come, from the caller's board, and
  // Adopt takes that board, places the rows not placed yet and answers as
  // Create does.
  static BoardState Incoming(uint32_t n);
  // What the control bits of n rows hold.
  static uint64_t ControlBytes(uint64_t n);
  // Places the given queens of rows first_row .. last_row (1-based) of
  // `board`; false at one out of range or attacked by an earlier one.
  bool PlaceRows(const uint32_t* board, uint32_t first_row, uint32_t last_row);
  // `placed`: rows 1 .. placed went through PlaceRows, all of them true.
  static absl::StatusOr<BoardState> Adopt(BoardState incoming, uint32_t placed, Columns composition,
                                          StopPoller& stop);

  uint32_t n() const { return n_; }
  uint32_t queens() const { return queens_; }
  const Columns& columns() const { return columns_; }
  Columns TakeColumns() && { return std::move(columns_); }

  // Back to the composition given to the constructor. O(n), polled: false
  // once `stop` fires, leaving the state unusable.
  bool Restore(StopPoller& stop);

  bool RowEmpty(uint32_t row) const { return columns_[row - 1] == kEmptyRow; }
  bool ColumnFree(uint32_t column) const { return !column_used_.Test(column); }
  // Both diagonals through (row, column) are free; rows and columns 1-based.
  // Both bits are read, without a branch between them (`|`, not `||`); the
  // casts say so to clang's -Wbitwise-instead-of-logical.
  bool DiagonalsFree(uint32_t row, uint32_t column) const {
    return !(static_cast<int>(diagonal_used_.Test(n_ + column - row)) |
             static_cast<int>(anti_diagonal_used_.Test(row + column)));
  }
  // Ask the memory system for what DiagonalsFree and WriteQueen will touch,
  // so that loops over random cells of a huge board overlap their misses.
  void PrefetchDiagonals(uint32_t row, uint32_t column) const {
    diagonal_used_.Prefetch(n_ + column - row);
    anti_diagonal_used_.Prefetch(row + column);
  }

  // Prefetches what placing queens on rows [first_row, last_row] and columns
  // [first_column, last_column] touches, where it is small enough
  // (base/prefetch.h): block 1's next chunk pair.
  void PrefetchRegion(uint32_t first_row, uint32_t last_row, uint32_t first_column,
                      uint32_t last_column) const {
    PrefetchRange(&columns_[first_row - 1], &columns_[last_row - 1] + 1, /*write=*/true);
    diagonal_used_.PrefetchRange(n_ + first_column - last_row, n_ + last_column - first_row + 1,
                                 /*write=*/true);
    anti_diagonal_used_.PrefetchRange(first_row + first_column, last_row + last_column + 1,
                                      /*write=*/true);
  }

  // Puts a queen on a free cell.
  void Place(uint32_t row, uint32_t column) {
    ClaimDiagonals(row, column);
    WriteQueen(row, column);
    AddQueens(1);
  }
  // Place() in three parts, for block 1's batched writes from several
  // threads: the diagonals are claimed at once (later DiagonalsFree calls
  // depend on them); WriteQueen fills in the row and the column a little
  // later, and AddQueens counts a batch of queens. In between, RowEmpty,
  // ColumnFree and queens() are stale for those cells. Threads that write
  // bits of different 64-bit words of each array may do so at once.
  void ClaimDiagonals(uint32_t row, uint32_t column) {
    diagonal_used_.Set(n_ + column - row);
    anti_diagonal_used_.Set(row + column);
  }
  // Claims both diagonals through (row, column) when both are free, and says
  // whether it did; without a branch (block 1's accept-or-reject is a coin
  // toss the branch predictor cannot learn).
  bool TryClaimDiagonals(uint32_t row, uint32_t column) {
    const bool free = DiagonalsFree(row, column);
    diagonal_used_.SetIf(n_ + column - row, free);
    anti_diagonal_used_.SetIf(row + column, free);
    return free;
  }
  void WriteQueen(uint32_t row, uint32_t column) {
    columns_[row - 1] = column;
    row_used_.Set(row);
    column_used_.Set(column);
  }
  void AddQueens(uint32_t count) { queens_ += count; }

  // One bit per row and per column (index 1..n), set where a queen stands:
  // block 1 reads the free lines from them instead of keeping lists.
  const BitArray& row_used() const { return row_used_; }
  const BitArray& column_used() const { return column_used_; }

  // Calls emit(column) for each unused column, ascending, while emit returns
  // true.
  template <typename Emit>
  void ForEachFreeColumn(Emit emit) const {
    column_used_.ForEachClear(
        1, size_t{n_} + 1, [&emit](size_t column) { return emit(static_cast<uint32_t>(column)); });
  }
  // The empty rows and the unused columns, ascending, into `out` (whose
  // memory is reused). O(n / 64 + free lines), polled: false once `stop`
  // fires, with `out` unusable.
  bool FreeRows(HugeVector<uint32_t>& out, StopPoller& stop) const {
    return ListClear(row_used_, out, stop);
  }
  bool FreeColumns(HugeVector<uint32_t>& out, StopPoller& stop) const {
    return ListClear(column_used_, out, stop);
  }

 private:
  explicit BoardState(Columns composition);
  // Sizes and clears the control bits, all of them or those of the rows and
  // columns or of the diagonals; false once `stop` fires.
  bool ClearControlBits(StopPoller& stop);
  bool ClearLineBits(StopPoller& stop);
  bool ClearDiagonalBits(StopPoller& stop);
  // Places the given queens; false at the first one out of range or
  // attacked by an earlier one, or once `stop` fires (the state is then
  // unusable).
  bool PlaceGivenQueens(StopPoller& stop);
  // The same with the control bits cleared first, on two of `threads`: one
  // places the queens in their rows and columns (PlaceGivenLines), the other
  // on their diagonals (PlaceGivenDiagonals).
  bool PlaceGivenQueensOnTwoThreads(const SearchThreads& threads, StopPoller& stop);
  bool PlaceGivenLines(StopPoller& stop);
  bool PlaceGivenDiagonals(StopPoller& stop);
  // Calls visit(row, column) for each given queen of rows first_row ..
  // last_row of `board`, in row order, and prefetch(row, column) for the
  // queen a few ahead; false once `visit` returns false or `stop` fires.
  template <typename Prefetch, typename Visit>
  bool ForEachGivenQueen(const uint32_t* board, uint32_t first_row, uint32_t last_row,
                         StopPoller& stop, Prefetch prefetch, Visit visit) const;
  // Every given queen of the state's own board.
  template <typename Prefetch, typename Visit>
  bool ForEachGivenQueen(StopPoller& stop, Prefetch prefetch, Visit visit) const {
    return ForEachGivenQueen(columns_.data(), 1, n_, stop, prefetch, visit);
  }
  // PlaceGivenQueens for rows first_row .. last_row of `board`.
  bool PlaceGivenRows(const uint32_t* board, uint32_t first_row, uint32_t last_row,
                      StopPoller& stop);
  // Places one given queen; false when it is out of range or attacked.
  bool PlaceGiven(uint32_t row, uint32_t column);
  // The error for a composition a placement refused: the validator names
  // the rows.
  static absl::Status Refused(const Columns& composition, StopPoller& stop);
  // The clear bits 1..n of `used`, ascending, into `out`.
  bool ListClear(const BitArray& used, HugeVector<uint32_t>& out, StopPoller& stop) const;

  uint32_t n_;
  uint32_t queens_ = 0;
  Columns columns_;
  BitArray given_;               // index: row; the row's queen was given
  BitArray row_used_;            // index: row, 1..n
  BitArray column_used_;         // index: column, 1..n
  BitArray diagonal_used_;       // index: r = n + column - row, 1..2n-1
  BitArray anti_diagonal_used_;  // index: t = row + column, 2..2n
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_BOARD_STATE_H_

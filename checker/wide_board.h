// The board of a composition with any number of free rows, as the tree walk
// (tree_walk.h) sees it at one node: which lines and diagonals hold a queen,
// and each free line's count of open cells. Placing or lifting a queen
// visits its row, column and diagonals, O(d); memory is O(n + d) whatever
// the depth. Certificates of boards with more than 64 free rows are small,
// so this board is simple rather than fast.
#ifndef NQUEENS_CHECKER_WIDE_BOARD_H_
#define NQUEENS_CHECKER_WIDE_BOARD_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "checker/composition.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

class WideBoard {
 public:
  // O(d^2) to count the open cells.
  explicit WideBoard(const Composition& composition);

  uint32_t d() const { return composition_.d(); }
  // Lines are free indices below d.
  bool Unplaced(bool row, uint32_t line) const {
    return (row ? row_placed_ : column_placed_)[line] == 0;
  }
  bool Open(uint32_t a, uint32_t b) const {
    const uint64_t r = composition_.Row(a), c = composition_.Column(b);
    return row_placed_[a] == 0 && column_placed_[b] == 0 && !down_[composition_.Down(r, c)] &&
           !up_[r + c];
  }
  // The open cells of a line among the other free indices 0 .. 63, by that
  // index.
  uint64_t OpenWord(bool row, uint32_t line) const;
  // Calls visit(a) for each unplaced row a, ascending.
  template <typename Visit>
  void ForEachUnplacedRow(Visit visit) const {
    for (uint32_t a = 0; a < d(); ++a) {
      if (Unplaced(true, a)) visit(a);
    }
  }
  uint32_t OpenCount(bool row, uint32_t line) const {
    return (row ? row_open_ : column_open_)[line];
  }
  // A queen on open cell (a, b).
  void Place(uint32_t a, uint32_t b) {
    Recount(a, b, -1);
    Mark(a, b, true);
    placed_.emplace_back(a, b);
  }
  // Lifts the queen placed last.
  void Undo() {
    const auto [a, b] = placed_.back();
    placed_.pop_back();
    Mark(a, b, false);
    Recount(a, b, 1);
  }
  // Lifts every queen.
  void Reset() {
    while (!placed_.empty()) Undo();
  }
  // The line a `branch` is on: the unplaced line with the fewest open cells,
  // of lowest rank among rows and among columns, a row rather than a column;
  // false when every line holds a queen.
  bool Choose(const Ranks& ranks, bool* by_row, uint32_t* line) const;
  // Choose reads the ranks it is given: nothing to prepare.
  void RankBy(const Ranks&) {}
  // An unplaced line without open cells, rows first: true and the line.
  bool EmptyLine(bool* row, uint32_t* line) const;
  // Whether the diagonal sums bound fails.
  bool SumsFail() const;
  // The free columns holding an open cell of these distinct unplaced rows.
  uint32_t UnionColumns(const std::vector<uint32_t>& rows) const;

 private:
  // Adds `delta` to the counts of the open cells that a queen on (a, b),
  // not marked, attacks (its own cell included).
  void Recount(uint32_t a, uint32_t b, int delta);
  void Mark(uint32_t a, uint32_t b, bool queen);

  const Composition& composition_;
  std::vector<uint8_t> row_placed_, column_placed_;
  std::vector<bool> down_, up_;  // the composition's queens' and the path's
  std::vector<uint32_t> row_open_, column_open_;
  std::vector<std::pair<uint32_t, uint32_t>> placed_;
  // Scratch of SumsFail and UnionColumns.
  mutable std::vector<int64_t> sums_, differences_;
  mutable std::vector<uint64_t> column_seen_;
  mutable uint64_t seen_stamp_ = 0;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_WIDE_BOARD_H_

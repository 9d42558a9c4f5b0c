#include "checker/row_matching.h"

namespace nqueens::checker {
namespace {

uint64_t Bit(uint32_t x) { return uint64_t{1} << x; }
uint32_t Lowest(uint64_t word) { return static_cast<uint32_t>(__builtin_ctzll(word)); }

// A matching of rows to columns, grown a row at a time. Its arrays hold
// values only for the matched rows and columns.
class Matching {
 public:
  explicit Matching(const uint64_t open[64]) : open_(open) {}

  // Matches `row` to a column no row took, if its open cells have one.
  bool Greedy(uint32_t row) {
    const uint64_t free = open_[row] & ~matched_columns_;
    if (free == 0) return false;
    Set(row, Lowest(free));
    return true;
  }

  // Matches unmatched `root` through an augmenting path: rows reached,
  // their open columns not reached yet, those columns' rows next, until a
  // column no row took. When there is none, false and *reached the rows
  // reached: their open columns are the columns reached, each the match of
  // one of them but `root`.
  bool Augment(uint32_t root, uint64_t* reached) {
    uint8_t from[64];  // per column reached: the row it was reached from
    uint64_t reached_columns = 0, pending = Bit(root);
    *reached = pending;
    while (pending != 0) {
      const uint32_t row = Lowest(pending);
      pending &= pending - 1;
      uint64_t fresh = open_[row] & ~reached_columns;
      reached_columns |= fresh;
      if (const uint64_t free = fresh & ~matched_columns_; free != 0) {
        Flip(root, row, Lowest(free), from);
        return true;
      }
      for (; fresh != 0; fresh &= fresh - 1) {
        const uint32_t column = Lowest(fresh);
        from[column] = static_cast<uint8_t>(row);
        pending |= Bit(row_of_[column]);
      }
      *reached |= pending;
    }
    return false;
  }

 private:
  void Set(uint32_t row, uint32_t column) {
    matched_columns_ |= Bit(column);
    row_of_[column] = static_cast<uint8_t>(row);
    column_of_[row] = static_cast<uint8_t>(column);
  }

  // Along the path from `root` to `row` and its free `column`: each row
  // takes the column it reached, leaving its own to the row before it.
  void Flip(uint32_t root, uint32_t row, uint32_t column, const uint8_t from[64]) {
    while (row != root) {
      const uint32_t previous = column_of_[row];
      Set(row, column);
      column = previous;
      row = from[column];
    }
    Set(root, column);
  }

  const uint64_t* open_;
  uint64_t matched_columns_ = 0;
  uint8_t row_of_[64];     // per matched column
  uint8_t column_of_[64];  // per matched row
};

}  // namespace

bool RowsMatch(uint64_t rows, const uint64_t open[64], uint64_t* hall_rows) {
  Matching matching(open);
  uint64_t unmatched = 0;
  for (; rows != 0; rows &= rows - 1) {
    const uint32_t row = Lowest(rows);
    if (!matching.Greedy(row)) unmatched |= Bit(row);
  }
  for (; unmatched != 0; unmatched &= unmatched - 1) {
    if (!matching.Augment(Lowest(unmatched), hall_rows)) return false;
  }
  return true;
}

}  // namespace nqueens::checker

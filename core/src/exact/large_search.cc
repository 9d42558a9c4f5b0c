#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "base/rng.h"
#include "exact/search_engines.h"
#include "exact/search_parts.h"

namespace nqueens::internal {
namespace {

using WideCell = WideCells::Type;

// The trail engine's algorithm and tree (search_engines.h) in O(d^2 / 4)
// bytes: the root's open cells (the free board's) and the current ones, a
// bit each. Nothing is recorded to undo a placement: the cells it closed are
// the open cells of its row, column and two diagonals, and a cell of these
// lines is open again once the queen is lifted unless another queen of the
// path holds one of its lines, which the path's lines (a set of at most d
// per kind) tell. The diagonals are not listed either (the trail engine's
// lists take 16 bytes a cell): a walk over the free rows and columns in
// order finds a diagonal's cells in O(d). So a node costs O(d), and O(d)
// more for each cell it orders (a walk of the cell's diagonals); the
// augmenting paths keep their own stack, d deep at most.
class LargeSearch : public UndoingSearch<LargeSearch, WideCells> {
 public:
  LargeSearch(const FreeBoard& board, uint64_t tie_seed);

  // As the trail engine's.
  bool Matched() {
    return matching_.Repair(open_, rows_, column_of_row_.data(), row_of_column_.data());
  }
  std::vector<uint32_t> HallRows() const { return matching_.HallRows(row_of_column_.data()); }
  void Place(WideCell cell);
  void Lift(WideCell cell);
  // A node costs O(d) steps.
  uint64_t StepsPerNode() const { return board_.size(); }

  // The trail engine's first-solution order: the other open cells of its row
  // and column now, and of its diagonals at the root.
  uint64_t Damage(WideCell cell) const {
    const uint32_t a = WideCells::Row(cell), b = WideCells::Column(cell);
    return uint64_t{rows_open_.open(a)} + columns_open_.open(b) - 2 + RootCellsOnDiagonal(0, a, b) -
           1 + RootCellsOnDiagonal(1, a, b) - 1;
  }

 private:
  void Close(uint32_t a, uint32_t b);
  void Reopen(uint32_t a, uint32_t b);

  // The diagonal of kind 0 (board column - board row) or kind 1 (board
  // column + board row) through free cell (a, b).
  int64_t DiagonalOf(int kind, uint32_t a, uint32_t b) const {
    const int64_t row = board_.row(a), column = board_.column(b);
    return kind == 0 ? column - row : column + row;
  }
  // Calls visit(a, b) for every free cell on diagonal `key` of `kind`.
  template <typename Visit>
  void ForEachCellOnDiagonal(int kind, int64_t key, Visit visit) const;
  // The root's open cells on the diagonals through (a, b), (a, b) counted
  // once per diagonal.
  uint32_t RootCellsOnDiagonal(int kind, uint32_t a, uint32_t b) const;

  // open_ holds the open cells now; board_.open() those of the root.
  std::vector<bool> row_placed_, column_placed_;
  absl::flat_hash_set<int64_t> path_diagonals_[2];  // by kind
  // One matching of unplaced rows to open columns for the whole path: a
  // placement drops the pairs it closes, and lifting it leaves a matching of
  // the parent's board, repaired like any other.
  std::vector<uint32_t> column_of_row_, row_of_column_;
  MatchingRepair matching_;
};

LargeSearch::LargeSearch(const FreeBoard& board, uint64_t tie_seed)
    : UndoingSearch(board, tie_seed),
      row_placed_(board.size()),
      column_placed_(board.size()),
      column_of_row_(board.size(), kNone),
      row_of_column_(board.size(), kNone),
      matching_(open_.words_per_row()) {}

template <typename Visit>
void LargeSearch::ForEachCellOnDiagonal(int kind, int64_t key, Visit visit) const {
  // The free rows and columns are numbered in board order, so along the rows
  // the column sought moves one way: up for kind 0, down for kind 1.
  const uint32_t d = board_.size();
  if (kind == 0) {
    uint32_t b = 0;
    for (uint32_t a = 0; a < d; ++a) {
      const int64_t column = key + board_.row(a);
      while (b < d && board_.column(b) < column) ++b;
      if (b == d) return;
      if (board_.column(b) == column) visit(a, b);
    }
  } else {
    uint32_t past = d;  // one past the column looked at
    for (uint32_t a = 0; a < d; ++a) {
      const int64_t column = key - board_.row(a);
      while (past > 0 && board_.column(past - 1) > column) --past;
      if (past == 0) return;
      if (board_.column(past - 1) == column) visit(a, past - 1);
    }
  }
}

uint32_t LargeSearch::RootCellsOnDiagonal(int kind, uint32_t a, uint32_t b) const {
  uint32_t cells = 0;
  ForEachCellOnDiagonal(kind, DiagonalOf(kind, a, b),
                        [&](uint32_t x, uint32_t y) { cells += board_.open().Test(x, y); });
  return cells;
}

void LargeSearch::Close(uint32_t a, uint32_t b) {
  if (!open_.TestAndClear(a, b)) return;
  rows_open_.Subtract(a, 1);
  columns_open_.Subtract(b, 1);
  // Matched pairs are open cells, so a match here was of a cell just closed.
  if (column_of_row_[a] == b) column_of_row_[a] = row_of_column_[b] = kNone;
}

void LargeSearch::Reopen(uint32_t a, uint32_t b) {
  if (open_.Test(a, b) || !board_.open().Test(a, b) || row_placed_[a] || column_placed_[b] ||
      path_diagonals_[0].contains(DiagonalOf(0, a, b)) ||
      path_diagonals_[1].contains(DiagonalOf(1, a, b))) {
    return;
  }
  open_.Set(a, b);
  rows_open_.Add(a, 1);
  columns_open_.Add(b, 1);
}

void LargeSearch::Place(WideCell cell) {
  const uint32_t a = WideCells::Row(cell), b = WideCells::Column(cell);
  for (int kind : {0, 1}) {
    ForEachCellOnDiagonal(kind, DiagonalOf(kind, a, b),
                          [&](uint32_t x, uint32_t y) { Close(x, y); });
    path_diagonals_[kind].insert(DiagonalOf(kind, a, b));
  }
  ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t y) { Close(a, y); });
  for (uint32_t x : rows_) Close(x, b);
  rows_.Remove(a);
  columns_.Remove(b);
  row_placed_[a] = column_placed_[b] = true;
}

void LargeSearch::Lift(WideCell cell) {
  const uint32_t a = WideCells::Row(cell), b = WideCells::Column(cell);
  rows_.RestoreLast();
  columns_.RestoreLast();
  row_placed_[a] = column_placed_[b] = false;
  for (int kind : {0, 1}) path_diagonals_[kind].erase(DiagonalOf(kind, a, b));
  const auto reopen = [this](uint32_t x, uint32_t y) { Reopen(x, y); };
  for (int kind : {0, 1}) ForEachCellOnDiagonal(kind, DiagonalOf(kind, a, b), reopen);
  ForEachBit(board_.open().Row(a), open_.words_per_row(), [&](uint32_t y) { Reopen(a, y); });
  for (uint32_t x : rows_) Reopen(x, b);
}

}  // namespace

SearchOutcome RunLargeSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                  uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                  CertificateWriter* certificate) {
  return RunUndoingEngine<LargeSearch>(board, node_budget, stop, tie_seed, prefix, certificate);
}

}  // namespace nqueens::internal

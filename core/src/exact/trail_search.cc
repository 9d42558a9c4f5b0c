#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "base/rng.h"
#include "exact/search_engines.h"
#include "exact/search_parts.h"

namespace nqueens::internal {
namespace {

// A stack of fixed capacity: pushes are a store, with no growth check in the
// hot loops.
class FixedStack {
 public:
  // One spare slot: PushIf stores even when it does not push.
  explicit FixedStack(size_t capacity) : items_(capacity + 1) {}
  // Pushes `item` when `push` is 1 (and not when 0), without a branch.
  void PushIf(uint32_t item, uint32_t push) {
    items_[size_] = item;
    size_ += push;
  }
  uint32_t operator[](size_t i) const { return items_[i]; }
  size_t size() const { return size_; }
  void Truncate(size_t size) { size_ = size; }

 private:
  std::vector<uint32_t> items_;
  size_t size_ = 0;
};

// The engine on one mutable copy of the open cells: a placement closes
// cells and records them on a trail, and lifting the queen reopens them, so
// a node costs about the cells it closes plus a scan of the unplaced rows
// and columns. Cells are tried least damage first (damage: about the open
// cells the queen closes). Nodes whose rows cannot even be matched to
// distinct open columns are cut.
class TrailSearch : public UndoingSearch<TrailSearch, NarrowCells> {
 public:
  TrailSearch(const FreeBoard& board, uint64_t tie_seed);

  // Whether the unplaced rows still match distinct open columns (the bound
  // UndoingSearch::Branch cuts by), and the rows that fail it.
  bool Matched() { return matching_.Repair(open_, rows_, column_of_row_, row_of_column_); }
  std::vector<uint32_t> HallRows() const { return matching_.HallRows(row_of_column_); }
  // The queen on the cell: closes its row, column and diagonals.
  void Place(Cell cell);
  // Undoes the last Place.
  void Lift(Cell cell);
  static uint64_t StepsPerNode() { return 1; }

  // The first-solution order: every other open cell of its row and column
  // closes, and of its lines, which are counted as they were at the root to
  // keep Close cheap.
  uint64_t Damage(Cell cell) const;

 private:
  // Closes (a, b) if it is open. Branch-free: the hot loops close cells that
  // are open or not in no predictable pattern.
  void Close(uint32_t a, uint32_t b);

  FixedStack trail_;  // closed cells, to reopen on backtracking
  // The trail's size before each placement of the path, by depth.
  std::vector<size_t> marks_;
  uint32_t depth_ = 0;

  // A matching of unplaced rows to open columns per depth of the path: a
  // child starts from a copy of its parent's (Close drops the pairs it
  // closes) and repairs it, much cheaper than a new one; backtracking finds
  // the parent's intact. Level i holds column_of_row then row_of_column.
  std::vector<uint32_t> matchings_;
  uint32_t* column_of_row_;  // of the current depth
  uint32_t* row_of_column_;
  MatchingRepair matching_;
};

TrailSearch::TrailSearch(const FreeBoard& board, uint64_t tie_seed)
    : UndoingSearch(board, tie_seed),
      // Along one path a cell is closed at most once.
      trail_(size_t{board.size()} * board.size()),
      marks_(board.size()),
      matchings_(size_t{board.size() + 1} * 2 * board.size(), kNone),
      column_of_row_(matchings_.data()),
      row_of_column_(matchings_.data() + board.size()),
      matching_(open_.words_per_row()) {}

uint64_t TrailSearch::Damage(Cell cell) const {
  const uint32_t a = RowOf(cell), b = ColumnOf(cell);
  uint64_t cells = rows_open_.open(a) + columns_open_.open(b) - 2;
  for (uint32_t line : board_.LinesThrough(a, b)) {
    if (line != kNone) cells += board_.CellsOf(line).size() - 1;
  }
  return cells;
}

// Inlined by force: it is the innermost step, called from three loops.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void TrailSearch::Close(uint32_t a, uint32_t b) {
  const uint32_t was_open = open_.TestAndClear(a, b);
  rows_open_.Subtract(a, was_open);
  columns_open_.Subtract(b, was_open);
  trail_.PushIf(MakeCell(a, b), was_open);
  // Matched pairs are open cells, so a match here was of a cell just closed.
  if (column_of_row_[a] == b) column_of_row_[a] = row_of_column_[b] = kNone;
}

void TrailSearch::Place(Cell cell) {
  const uint32_t a = RowOf(cell), b = ColumnOf(cell);
  marks_[depth_++] = trail_.size();
  const size_t lines = size_t{2} * board_.size();
  std::copy_n(column_of_row_, lines, column_of_row_ + lines);
  column_of_row_ += lines;
  row_of_column_ += lines;
  for (uint32_t line : board_.LinesThrough(a, b)) {
    if (line == kNone) continue;
    for (Cell other : board_.CellsOf(line)) Close(RowOf(other), ColumnOf(other));
  }
  ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t other) { Close(a, other); });
  for (uint32_t other : rows_) Close(other, b);
  rows_.Remove(a);
  columns_.Remove(b);
}

void TrailSearch::Lift(Cell /*cell*/) {
  const size_t mark = marks_[--depth_];
  for (size_t i = trail_.size(); i > mark; --i) {
    const uint32_t a = RowOf(trail_[i - 1]), b = ColumnOf(trail_[i - 1]);
    open_.Set(a, b);
    rows_open_.Add(a, 1);
    columns_open_.Add(b, 1);
  }
  trail_.Truncate(mark);
  column_of_row_ -= size_t{2} * board_.size();
  row_of_column_ -= size_t{2} * board_.size();
  rows_.RestoreLast();
  columns_.RestoreLast();
}

}  // namespace

SearchOutcome RunTrailSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                  uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                  CertificateWriter* certificate) {
  return RunUndoingEngine<TrailSearch>(board, node_budget, stop, tie_seed, prefix, certificate);
}

}  // namespace nqueens::internal

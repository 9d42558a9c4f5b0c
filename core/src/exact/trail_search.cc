#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
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
  void push_back(uint32_t item) { items_[size_++] = item; }
  // Pushes `item` when `push` is 1 (and not when 0), without a branch.
  void PushIf(uint32_t item, uint32_t push) {
    items_[size_] = item;
    size_ += push;
  }
  uint32_t operator[](size_t i) const { return items_[i]; }
  uint32_t& operator[](size_t i) { return items_[i]; }
  size_t size() const { return size_; }
  void Truncate(size_t size) { size_ = size; }

 private:
  std::vector<uint32_t> items_;
  size_t size_ = 0;
};

// The DFS itself, on one mutable copy of the open cells: a placement closes
// cells and records them on a trail, and backtracking reopens them, so a node
// costs about the cells it closes plus a scan of the unplaced rows and
// columns. Each node branches on the unplaced row or column with the fewest
// open cells (a line with one is forced); in kFirstSolution mode the cells
// are tried least damage first (damage: about the open cells the queen
// closes). Nodes whose rows cannot even be matched to distinct open columns
// are cut.
class TrailSearch : public UndoingSearch<TrailSearch, NarrowCells> {
 public:
  TrailSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget, StopPoller& stop,
              uint64_t tie_seed = 0);

  void Run() {
    // Building the free board took O(n): a stop may already be due.
    if (!stop_.CheckNow() && Visit(1.0)) explored_ = 1.0;
  }

  // The first-solution order: every other open cell of its row and column
  // closes, and of its lines, which are counted as they were at the root to
  // keep Close cheap.
  uint64_t Damage(Cell cell) const;

 private:
  // Explores the current node. Returns false to unwind the whole search
  // (solution found in kFirstSolution mode, budget exhausted or stop).
  // `share`: of the whole tree, as in SearchOutcome::explored.
  bool Visit(double share);
  // The queen on (a, b): closes its row, column and diagonals.
  void Place(uint32_t a, uint32_t b);
  // Undoes the Place that left the trail at `mark` cells.
  void Undo(size_t mark);
  // Closes (a, b) if it is open. Branch-free: the hot loops close cells that
  // are open or not in no predictable pattern.
  void Close(uint32_t a, uint32_t b);

  FixedStack trail_;       // closed cells, to reopen on backtracking
  FixedStack candidates_;  // the cells of every node on the path

  // A matching of unplaced rows to open columns per depth of the path: a
  // child starts from a copy of its parent's (Close drops the pairs it
  // closes) and repairs it, much cheaper than a new one; backtracking finds
  // the parent's intact. Level i holds column_of_row then row_of_column.
  std::vector<uint32_t> matchings_;
  uint32_t* column_of_row_;  // of the current depth
  uint32_t* row_of_column_;
  MatchingRepair matching_;
};

TrailSearch::TrailSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget,
                         StopPoller& stop, uint64_t tie_seed)
    : UndoingSearch(board, mode, node_budget, stop, tie_seed),
      // Along one path a cell is closed at most once, and a node offers at
      // most one candidate per unplaced row or column.
      trail_(size_t{board.size()} * board.size()),
      candidates_(size_t{board.size()} * (board.size() + 1) / 2),
      matchings_(size_t{board.size() + 1} * 2 * board.size(), kNone),
      column_of_row_(matchings_.data()),
      row_of_column_(matchings_.data() + board.size()),
      matching_(open_.words_per_row()) {}

bool TrailSearch::Visit(double share) {
  if (rows_.empty()) {
    ++solutions_;
    return mode_ == SearchMode::kCountAll;
  }
  const size_t first = candidates_.size();
  if (!PushBranchCells(candidates_) ||
      !matching_.Repair(open_, rows_, column_of_row_, row_of_column_)) {
    candidates_.Truncate(first);
    return true;
  }
  bool go_on = true;
  const size_t count = candidates_.size() - first;
  size_t i = first;
  for (; go_on && i < candidates_.size(); ++i) {
    if (nodes_ == node_budget_) {
      budget_exhausted_ = true;
      go_on = false;
      break;
    }
    ++nodes_;
    if (stop_.ShouldStop()) {
      go_on = false;
      break;
    }
    const size_t mark = trail_.size();
    Place(RowOf(candidates_[i]), ColumnOf(candidates_[i]));
    go_on = Visit(share / static_cast<double>(count));
    Undo(mark);
    // Cut below: the children before this one are done.
    if (!go_on) break;
  }
  if (!go_on) explored_ += share * static_cast<double>(i - first) / static_cast<double>(count);
  candidates_.Truncate(first);
  return go_on;
}

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

void TrailSearch::Place(uint32_t a, uint32_t b) {
  const size_t lines = size_t{2} * board_.size();
  std::copy_n(column_of_row_, lines, column_of_row_ + lines);
  column_of_row_ += lines;
  row_of_column_ += lines;
  placement_[a] = b;
  for (uint32_t line : board_.LinesThrough(a, b)) {
    if (line == kNone) continue;
    for (Cell other : board_.CellsOf(line)) Close(RowOf(other), ColumnOf(other));
  }
  ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t other) { Close(a, other); });
  for (uint32_t other : rows_) Close(other, b);
  rows_.Remove(a);
  columns_.Remove(b);
}

void TrailSearch::Undo(size_t mark) {
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

SearchOutcome RunTrailSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget,
                             StopPoller& stop, uint64_t tie_seed) {
  return RunEngine<TrailSearch>(board, mode, node_budget, stop, tie_seed);
}

}  // namespace nqueens::internal

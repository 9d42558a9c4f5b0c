#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "rng.h"
#include "search_engines.h"
#include "search_lines.h"

namespace nqueens::internal {
namespace {

// A cell of a large free board: free row a in the high half, free column b
// in the low one.
using WideCell = uint64_t;
WideCell MakeWideCell(uint32_t a, uint32_t b) { return uint64_t{a} << 32 | b; }
uint32_t RowOf(WideCell cell) { return static_cast<uint32_t>(cell >> 32); }
uint32_t ColumnOf(WideCell cell) { return static_cast<uint32_t>(cell); }

// The trail engine's algorithm and tree (search_engines.h) in O(d^2 / 4)
// bytes: the root's open cells (the free board's) and the current ones, a
// bit each. Nothing is recorded to undo a placement: the cells it closed are
// the open cells of its row, column and two diagonals, and a cell of these
// lines is open again once the queen is lifted unless another queen of the
// path holds one of its lines, which the path's lines (a set of at most d
// per kind) tell. The diagonals are not listed either (the trail engine's
// lists take 16 bytes a cell): a walk over the free rows and columns in
// order finds a diagonal's cells in O(d). So a node costs O(d), and the DFS
// and the augmenting paths keep their own stacks, d deep at most.
class LargeSearch {
 public:
  LargeSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget, StopPoller& stop,
              uint64_t tie_seed);

  void Run();

  uint64_t solutions() const { return solutions_; }
  uint64_t nodes() const { return nodes_; }
  bool budget_exhausted() const { return budget_exhausted_; }
  double explored() const { return explored_; }
  uint32_t placement(uint32_t a) const { return placement_[a]; }

 private:
  // A node of the path: its cells to try, candidates_[first, end), of which
  // those before `next` were tried; `placed` while the one before `next`
  // stands on the board. `share` of the whole tree, as in
  // SearchOutcome::explored.
  struct Frame {
    size_t first, next, end;
    double share;
    bool placed;
  };
  // A row of an augmenting path: the word of its row to look at next and
  // the column it took.
  struct PathStep {
    uint32_t row, word, column;
  };

  // The node just reached: counts a solution, or pushes the node's frame
  // unless it is a dead end. False once the search is over (kFirstSolution).
  bool Enter(double share);
  bool PushBranchCells();
  void OrderByDamage(size_t first, bool by_row);
  void Place(WideCell cell);
  void Lift(WideCell cell);
  void Close(uint32_t a, uint32_t b);
  void Reopen(uint32_t a, uint32_t b);
  bool RepairMatching();
  bool Augment(uint32_t a);

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

  const FreeBoard& board_;
  const SearchMode mode_;
  const uint64_t node_budget_;
  StopPoller& stop_;
  uint64_t solutions_ = 0;
  uint64_t nodes_ = 0;
  bool budget_exhausted_ = false;
  double explored_ = 0;

  BitMatrix open_;  // now; board_.open() at the root
  Rng tie_breaks_;
  LineKeys rows_open_, columns_open_;
  UndoableSet rows_, columns_;  // unplaced
  std::vector<bool> row_placed_, column_placed_;
  absl::flat_hash_set<int64_t> path_diagonals_[2];  // by kind
  std::vector<Frame> frames_;
  std::vector<WideCell> candidates_;
  std::vector<std::pair<uint64_t, WideCell>> ranked_;  // scratch of OrderByDamage
  std::vector<uint32_t> placement_;
  // One matching of unplaced rows to open columns for the whole path: a
  // placement drops the pairs it closes, and lifting it leaves a matching of
  // the parent's board, repaired like any other.
  std::vector<uint32_t> column_of_row_, row_of_column_;
  std::vector<uint64_t> seen_;  // columns visited by one Augment
  std::vector<PathStep> path_;  // of one Augment
};

LargeSearch::LargeSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget,
                         StopPoller& stop, uint64_t tie_seed)
    : board_(board),
      mode_(mode),
      node_budget_(node_budget),
      stop_(stop),
      open_(board.open()),
      tie_breaks_(tie_seed),
      rows_open_(board.size(), tie_breaks_),
      columns_open_(board.size(), tie_breaks_),
      rows_(board.size()),
      columns_(board.size()),
      row_placed_(board.size()),
      column_placed_(board.size()),
      placement_(board.size()),
      column_of_row_(board.size(), kNone),
      row_of_column_(board.size(), kNone),
      seen_(open_.words_per_row()) {
  for (uint32_t a = 0; a < board.size(); ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      rows_open_.Add(a, 1);
      columns_open_.Add(b, 1);
    });
  }
}

void LargeSearch::Run() {
  // Building the free board took O(n + d^2): a stop may already be due.
  if (stop_.CheckNow()) return;
  bool go_on = Enter(1.0);
  while (go_on && !frames_.empty()) {
    Frame& frame = frames_.back();
    if (frame.placed) {
      Lift(candidates_[frame.next - 1]);
      frame.placed = false;
    }
    if (frame.next == frame.end) {
      candidates_.resize(frame.first);
      frames_.pop_back();
      continue;
    }
    if (nodes_ == node_budget_) {
      budget_exhausted_ = true;
      go_on = false;
      break;
    }
    ++nodes_;
    // A node costs O(d) steps.
    if (stop_.ShouldStop(board_.size())) {
      go_on = false;
      break;
    }
    Place(candidates_[frame.next++]);
    frame.placed = true;
    go_on = Enter(frame.share / static_cast<double>(frame.end - frame.first));
  }
  if (go_on) {
    explored_ = 1.0;
    return;
  }
  // Cut: of each node on the path, the children before the one in progress
  // are done.
  for (const Frame& frame : frames_) {
    const size_t done = frame.next - frame.first - (frame.placed ? 1 : 0);
    explored_ +=
        frame.share * static_cast<double>(done) / static_cast<double>(frame.end - frame.first);
  }
}

bool LargeSearch::Enter(double share) {
  if (rows_.empty()) {
    ++solutions_;
    return mode_ == SearchMode::kCountAll;
  }
  const size_t first = candidates_.size();
  if (!PushBranchCells() || !RepairMatching()) {
    candidates_.resize(first);
    return true;
  }
  frames_.push_back({first, first, candidates_.size(), share, false});
  return true;
}

bool LargeSearch::PushBranchCells() {
  const uint32_t row = rows_open_.Fewest(rows_), column = columns_open_.Fewest(columns_);
  // There are as many unplaced columns as rows: each one needs a queen.
  if (rows_open_.open(row) == 0 || columns_open_.open(column) == 0) return false;
  const bool by_row = rows_open_.open(row) <= columns_open_.open(column);
  const size_t first = candidates_.size();
  if (by_row) {
    ForEachBit(open_.Row(row), open_.words_per_row(),
               [&](uint32_t b) { candidates_.push_back(MakeWideCell(row, b)); });
  } else {
    for (uint32_t a : rows_) {
      if (open_.Test(a, column)) candidates_.push_back(MakeWideCell(a, column));
    }
  }
  if (mode_ == SearchMode::kFirstSolution) OrderByDamage(first, by_row);
  return true;
}

// As the trail engine orders them: the other open cells of its row and
// column now, and of its diagonals at the root.
void LargeSearch::OrderByDamage(size_t first, bool by_row) {
  ranked_.clear();
  for (size_t i = first; i < candidates_.size(); ++i) {
    const uint32_t a = RowOf(candidates_[i]), b = ColumnOf(candidates_[i]);
    const uint64_t damage = rows_open_.open(a) + columns_open_.open(b) - 2 +
                            RootCellsOnDiagonal(0, a, b) - 1 + RootCellsOnDiagonal(1, a, b) - 1;
    ranked_.emplace_back(damage << 32 | (by_row ? columns_open_.rank(b) : rows_open_.rank(a)),
                         candidates_[i]);
  }
  std::sort(ranked_.begin(), ranked_.end());
  for (size_t i = 0; i < ranked_.size(); ++i) candidates_[first + i] = ranked_[i].second;
}

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
  const uint32_t a = RowOf(cell), b = ColumnOf(cell);
  placement_[a] = b;
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
  const uint32_t a = RowOf(cell), b = ColumnOf(cell);
  rows_.RestoreLast();
  columns_.RestoreLast();
  row_placed_[a] = column_placed_[b] = false;
  for (int kind : {0, 1}) path_diagonals_[kind].erase(DiagonalOf(kind, a, b));
  const auto reopen = [this](uint32_t x, uint32_t y) { Reopen(x, y); };
  for (int kind : {0, 1}) ForEachCellOnDiagonal(kind, DiagonalOf(kind, a, b), reopen);
  ForEachBit(board_.open().Row(a), open_.words_per_row(), [&](uint32_t y) { Reopen(a, y); });
  for (uint32_t x : rows_) Reopen(x, b);
}

// Matches every unmatched unplaced row by an augmenting path. False when that
// is impossible: then the rows cannot take distinct columns even with the
// diagonals among them ignored.
bool LargeSearch::RepairMatching() {
  for (uint32_t a : rows_) {
    if (column_of_row_[a] == kNone && !Augment(a)) return false;
  }
  return true;
}

// Augmenting path (Kuhn) from row `a`, depth first on path_ rather than the
// call stack (it can be d rows long).
bool LargeSearch::Augment(uint32_t a) {
  std::fill(seen_.begin(), seen_.end(), 0);
  path_.assign(1, {a, 0, kNone});
  while (!path_.empty()) {
    PathStep& step = path_.back();
    const uint64_t* open = open_.Row(step.row);
    uint64_t bits = 0;
    // Re-read after each try: deeper steps mark columns seen too.
    while (step.word < open_.words_per_row() && (bits = open[step.word] & ~seen_[step.word]) == 0) {
      ++step.word;
    }
    if (step.word == open_.words_per_row()) {
      path_.pop_back();
      continue;
    }
    step.column = step.word * 64 + static_cast<uint32_t>(absl::countr_zero(bits));
    seen_[step.word] |= bits & -bits;
    const uint32_t holder = row_of_column_[step.column];
    if (holder == kNone) {
      for (const PathStep& taken : path_) {
        row_of_column_[taken.column] = taken.row;
        column_of_row_[taken.row] = taken.column;
      }
      return true;
    }
    path_.push_back({holder, 0, kNone});
  }
  return false;
}

}  // namespace

SearchOutcome RunLargeSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget,
                             StopPoller& stop, uint64_t tie_seed) {
  LargeSearch search(board, mode, node_budget, stop, tie_seed);
  search.Run();
  SearchOutcome outcome{
      search.solutions(), search.nodes(), search.budget_exhausted(), search.explored(), {}};
  if (outcome.solutions > 0) {
    for (uint32_t a = 0; a < board.size(); ++a) outcome.placement.push_back(search.placement(a));
  }
  return outcome;
}

}  // namespace nqueens::internal

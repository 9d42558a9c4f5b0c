#include "exact_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "bit_array.h"
#include "rng.h"

namespace nqueens::internal {
namespace {

// Nodes of the first run of ExactComplete; each restart doubles it.
constexpr uint64_t kFirstRunBudget = 1024;

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// A size x size matrix of bits, each row in its own run of 64-bit words.
class BitMatrix {
 public:
  explicit BitMatrix(uint32_t size)
      : words_per_row_((size + 63) / 64), words_(size_t{size} * words_per_row_) {}

  bool Test(uint32_t row, uint32_t column) const {
    return (Word(row, column) >> (column % 64) & 1) != 0;
  }
  void Set(uint32_t row, uint32_t column) { Word(row, column) |= Bit(column); }
  void Clear(uint32_t row, uint32_t column) { Word(row, column) &= ~Bit(column); }

  uint32_t words_per_row() const { return words_per_row_; }
  const uint64_t* Row(uint32_t row) const { return &words_[size_t{row} * words_per_row_]; }

 private:
  static uint64_t Bit(uint32_t column) { return uint64_t{1} << (column % 64); }
  uint64_t& Word(uint32_t row, uint32_t column) {
    return words_[size_t{row} * words_per_row_ + column / 64];
  }
  uint64_t Word(uint32_t row, uint32_t column) const {
    return words_[size_t{row} * words_per_row_ + column / 64];
  }

  uint32_t words_per_row_;
  std::vector<uint64_t> words_;
};

// Calls visit(column) for every bit set in `words` (a row of a BitMatrix),
// lowest first. `words` is read one word at a time, so visit may clear bits
// of the row it walks.
template <typename Visit>
void ForEachBit(const uint64_t* words, uint32_t word_count, Visit visit) {
  for (uint32_t w = 0; w < word_count; ++w) {
    for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      visit(w * 64 + static_cast<uint32_t>(absl::countr_zero(bits)));
    }
  }
}

// The part of a composition left to fill, renumbered: free row a (0..d-1) is
// board row rows[a], free column b is board column columns[b], and cell
// (a, b) is numbered a * d + b.
class FreeBoard {
 public:
  static absl::StatusOr<FreeBoard> Build(absl::Span<const uint32_t> composition);

  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  uint32_t row(uint32_t a) const { return rows_[a]; }
  uint32_t column(uint32_t b) const { return columns_[b]; }
  // The cells no given queen attacks.
  const BitMatrix& open() const { return open_; }
  // The open cells on one diagonal (kind 0) or anti-diagonal (kind 1) of
  // open cell `cell`, itself included; empty when it is alone there.
  absl::Span<const uint32_t> Line(uint32_t cell, int kind) const {
    const uint32_t line = line_of_cell_[cell][kind];
    if (line == kNone) return {};
    return absl::MakeConstSpan(line_cells_).subspan(line_start_[line],
                                                    line_start_[line + 1] - line_start_[line]);
  }

 private:
  FreeBoard() : open_(0) {}
  void GroupLines(uint64_t n, int kind);

  std::vector<uint32_t> rows_;     // 1-based, increasing
  std::vector<uint32_t> columns_;  // 1-based, increasing
  BitMatrix open_;
  // Lines holding two open cells or more: line i is line_cells_[line_start_[i]
  // .. line_start_[i + 1]). Memory is O(d^2) whatever n is.
  std::vector<std::array<uint32_t, 2>> line_of_cell_;  // per cell and kind, or kNone
  std::vector<uint32_t> line_start_{0};
  std::vector<uint32_t> line_cells_;
};

// Diagonal keys of cell (row, column) of the n x n board, 1-based: r = n +
// column - row (kind 0) and t = row + column (kind 1), both in 1..2n.
uint64_t DiagonalKey(int kind, uint64_t n, uint64_t row, uint64_t column) {
  return kind == 0 ? n + column - row : row + column;
}

absl::StatusOr<FreeBoard> FreeBoard::Build(absl::Span<const uint32_t> composition) {
  const uint64_t n = composition.size();
  FreeBoard board;
  // One bit per column and per diagonal of the whole board: O(n) time and
  // n / 2 bytes, like the pipeline's own control arrays.
  BitArray column_used(n + 1);
  std::array<BitArray, 2> diagonal_used = {BitArray(2 * n + 1), BitArray(2 * n + 1)};
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t row = i + 1, column = composition[i];
    if (column == kEmptyRow) {
      if (board.rows_.size() == kExactMaxFreeRows) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the exact search handles at most ", kExactMaxFreeRows, " free rows"));
      }
      board.rows_.push_back(static_cast<uint32_t>(row));
      continue;
    }
    if (column > n || column_used.Test(column)) {
      return absl::FailedPreconditionError(
          absl::StrCat("row ", row, " (column ", column, ") breaks the composition"));
    }
    column_used.Set(column);
    for (int kind : {0, 1}) diagonal_used[kind].Set(DiagonalKey(kind, n, row, column));
  }
  for (uint32_t column = 1; column <= n; ++column) {
    if (!column_used.Test(column)) board.columns_.push_back(column);
  }
  const uint32_t d = board.size();
  board.open_ = BitMatrix(d);
  for (uint32_t a = 0; a < d; ++a) {
    for (uint32_t b = 0; b < d; ++b) {
      const uint32_t row = board.rows_[a], column = board.columns_[b];
      if (!diagonal_used[0].Test(DiagonalKey(0, n, row, column)) &&
          !diagonal_used[1].Test(DiagonalKey(1, n, row, column))) {
        board.open_.Set(a, b);
      }
    }
  }
  board.line_of_cell_.assign(size_t{d} * d, {kNone, kNone});
  for (int kind : {0, 1}) board.GroupLines(n, kind);
  return board;
}

// Sorts the open cells by their key of `kind` and makes a line of every run
// of two cells or more.
void FreeBoard::GroupLines(uint64_t n, int kind) {
  const uint32_t d = size();
  std::vector<uint64_t> keyed_cells;  // key << 32 | cell
  for (uint32_t a = 0; a < d; ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      keyed_cells.push_back(DiagonalKey(kind, n, rows_[a], columns_[b]) << 32 | (a * d + b));
    });
  }
  std::sort(keyed_cells.begin(), keyed_cells.end());
  for (size_t begin = 0, end = 0; begin < keyed_cells.size(); begin = end) {
    while (end < keyed_cells.size() && keyed_cells[end] >> 32 == keyed_cells[begin] >> 32) ++end;
    if (end - begin < 2) continue;
    const uint32_t line = static_cast<uint32_t>(line_start_.size() - 1);
    for (size_t i = begin; i < end; ++i) {
      const uint32_t cell = static_cast<uint32_t>(keyed_cells[i]);
      line_cells_.push_back(cell);
      line_of_cell_[cell][kind] = line;
    }
    line_start_.push_back(static_cast<uint32_t>(line_cells_.size()));
  }
}

// The set {0, ..., size-1} minus what was removed, where removals are undone
// in reverse order; each operation O(1), listing O(members) (a sparse set).
class UndoableSet {
 public:
  explicit UndoableSet(uint32_t size) : members_(size), position_(size), count_(size) {
    std::iota(members_.begin(), members_.end(), 0u);
    std::iota(position_.begin(), position_.end(), 0u);
  }

  bool Contains(uint32_t x) const { return position_[x] < count_; }
  // x must be a member.
  void Remove(uint32_t x) {
    const uint32_t last = members_[--count_];
    std::swap(members_[position_[x]], members_[count_]);
    std::swap(position_[x], position_[last]);
  }
  // Puts back the member removed last (it still sits right past the end).
  void RestoreLast() { ++count_; }

  bool empty() const { return count_ == 0; }
  const uint32_t* begin() const { return members_.data(); }
  const uint32_t* end() const { return members_.data() + count_; }

 private:
  std::vector<uint32_t> members_;   // the members first, then the removed, latest first
  std::vector<uint32_t> position_;  // of each value in members_
  uint32_t count_;
};

// The DFS itself, on one mutable copy of the open cells: a placement closes
// cells and records them on a trail, and backtracking reopens them. Each node
// branches on the unplaced row or column with the fewest open cells (a line
// with one is forced); in kFirstSolution mode the cells are tried least
// damage first (damage = open cells the queen closes). Nodes whose rows cannot
// even be matched to distinct open columns are cut.
class Search {
 public:
  enum class Mode { kFirstSolution, kCountAll };

  // Ties between lines (equally few open cells) and between cells (equal
  // damage) go by a random order drawn from `tie_seed`, so that restarts
  // explore differently.
  Search(const FreeBoard& board, Mode mode, uint64_t node_budget, StopPoller& stop,
         uint64_t tie_seed = 0);

  void Run() {
    // Building the free board took O(n): a stop may already be due.
    if (!stop_.CheckNow()) Visit();
  }

  uint64_t solutions() const { return solutions_; }
  uint64_t nodes() const { return nodes_; }
  bool budget_exhausted() const { return budget_exhausted_; }
  // Free column of each free row in the (first) solution found.
  uint32_t placement(uint32_t a) const { return placement_[a]; }

 private:
  // Explores the current node. Returns false to unwind the whole search
  // (solution found in kFirstSolution mode, budget exhausted or stop).
  bool Visit();
  // Appends the cells to branch on to candidates_, in the order to try them.
  // False at a dead end: an unplaced row or column without an open cell.
  bool AppendBranchCells();
  // Sorts candidates_[first..]; they share one row (by_row) or one column.
  void OrderByDamage(size_t first, bool by_row);
  // The queen on (a, b): closes its row, column and diagonals.
  void Place(uint32_t a, uint32_t b);
  // Undoes the Place that left the trail at `mark` entries.
  void Undo(size_t mark);
  void Close(uint32_t a, uint32_t b);
  // Whether every unplaced row can still take a distinct open column.
  bool RepairMatching();
  bool Augment(uint32_t a);

  const FreeBoard& board_;
  const uint32_t d_;
  const Mode mode_;
  const uint64_t node_budget_;
  StopPoller& stop_;
  uint64_t solutions_ = 0;
  uint64_t nodes_ = 0;
  bool budget_exhausted_ = false;

  BitMatrix open_;
  std::vector<uint32_t> open_in_row_, open_in_column_;
  UndoableSet rows_, columns_;  // unplaced
  std::vector<uint32_t> trail_;       // closed cells, to reopen on backtracking
  std::vector<uint32_t> candidates_;  // the cells of every node on the path
  std::vector<std::pair<uint64_t, uint32_t>> ranked_;  // scratch of OrderByDamage
  std::vector<uint32_t> placement_;
  std::vector<uint32_t> row_rank_, column_rank_;  // tie-breaks

  // A matching of unplaced rows to open columns. It survives backtracking
  // (pairs that went stale are dropped when read): each node repairs the one
  // it finds, which is much cheaper than a new one.
  std::vector<uint32_t> column_of_row_, row_of_column_;
  std::vector<uint64_t> seen_;  // columns visited by one Augment
};

Search::Search(const FreeBoard& board, Mode mode, uint64_t node_budget, StopPoller& stop,
               uint64_t tie_seed)
    : board_(board),
      d_(board.size()),
      mode_(mode),
      node_budget_(node_budget),
      stop_(stop),
      open_(board.open()),
      open_in_row_(d_),
      open_in_column_(d_),
      rows_(d_),
      columns_(d_),
      placement_(d_),
      row_rank_(d_),
      column_rank_(d_),
      column_of_row_(d_, kNone),
      row_of_column_(d_, kNone),
      seen_(open_.words_per_row()) {
  for (uint32_t a = 0; a < d_; ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      ++open_in_row_[a];
      ++open_in_column_[b];
    });
  }
  std::iota(row_rank_.begin(), row_rank_.end(), 0u);
  std::iota(column_rank_.begin(), column_rank_.end(), 0u);
  Rng rng(tie_seed);
  rng.Shuffle(row_rank_.begin(), row_rank_.end());
  rng.Shuffle(column_rank_.begin(), column_rank_.end());
}

bool Search::Visit() {
  if (rows_.empty()) {
    ++solutions_;
    return mode_ == Mode::kCountAll;
  }
  const size_t first = candidates_.size();
  if (!AppendBranchCells() || !RepairMatching()) {
    candidates_.resize(first);
    return true;
  }
  bool go_on = true;
  for (size_t i = first; go_on && i < candidates_.size(); ++i) {
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
    Place(candidates_[i] / d_, candidates_[i] % d_);
    go_on = Visit();
    Undo(mark);
  }
  candidates_.resize(first);
  return go_on;
}

bool Search::AppendBranchCells() {
  // (open cells, rank) of the best row and of the best column.
  std::pair<uint32_t, uint32_t> best_row{kNone, kNone}, best_column{kNone, kNone};
  uint32_t row = 0, column = 0;
  for (uint32_t a : rows_) {
    if (std::pair{open_in_row_[a], row_rank_[a]} < best_row) {
      best_row = {open_in_row_[a], row_rank_[a]};
      row = a;
    }
  }
  for (uint32_t b : columns_) {
    if (std::pair{open_in_column_[b], column_rank_[b]} < best_column) {
      best_column = {open_in_column_[b], column_rank_[b]};
      column = b;
    }
  }
  // There are as many unplaced columns as rows: each one needs a queen.
  if (best_row.first == 0 || best_column.first == 0) return false;
  const size_t first = candidates_.size();
  const bool by_row = best_row.first <= best_column.first;
  if (!by_row) {
    for (uint32_t a : rows_) {
      if (open_.Test(a, column)) candidates_.push_back(a * d_ + column);
    }
  } else {
    ForEachBit(open_.Row(row), open_.words_per_row(),
               [&](uint32_t b) { candidates_.push_back(row * d_ + b); });
  }
  // Counting visits every cell anyway, so only the first-solution search orders them.
  if (mode_ == Mode::kFirstSolution) OrderByDamage(first, by_row);
  return true;
}

void Search::OrderByDamage(size_t first, bool by_row) {
  ranked_.clear();
  for (size_t i = first; i < candidates_.size(); ++i) {
    const uint32_t cell = candidates_[i], a = cell / d_, b = cell % d_;
    // The cell's row and column lose every other open cell.
    uint64_t damage = open_in_row_[a] + open_in_column_[b] - 2;
    for (int kind : {0, 1}) {
      for (uint32_t other : board_.Line(cell, kind)) {
        damage += other != cell && open_.Test(other / d_, other % d_);
      }
    }
    ranked_.emplace_back(damage << 32 | (by_row ? column_rank_[b] : row_rank_[a]), cell);
  }
  std::sort(ranked_.begin(), ranked_.end());
  for (size_t i = 0; i < ranked_.size(); ++i) candidates_[first + i] = ranked_[i].second;
}

void Search::Close(uint32_t a, uint32_t b) {
  open_.Clear(a, b);
  --open_in_row_[a];
  --open_in_column_[b];
  trail_.push_back(a * d_ + b);
}

void Search::Place(uint32_t a, uint32_t b) {
  placement_[a] = b;
  const uint32_t cell = a * d_ + b;
  ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t other) { Close(a, other); });
  for (uint32_t other : rows_) {
    if (open_.Test(other, b)) Close(other, b);
  }
  for (int kind : {0, 1}) {
    for (uint32_t other : board_.Line(cell, kind)) {
      if (open_.Test(other / d_, other % d_)) Close(other / d_, other % d_);
    }
  }
  rows_.Remove(a);
  columns_.Remove(b);
}

void Search::Undo(size_t mark) {
  for (; trail_.size() > mark; trail_.pop_back()) {
    const uint32_t a = trail_.back() / d_, b = trail_.back() % d_;
    open_.Set(a, b);
    ++open_in_row_[a];
    ++open_in_column_[b];
  }
  rows_.RestoreLast();
  columns_.RestoreLast();
}

// Drops the pairs that are no longer open, then matches every unmatched
// unplaced row by an augmenting path. False when that is impossible: then the
// rows cannot take distinct columns even with the diagonals among them ignored.
bool Search::RepairMatching() {
  for (uint32_t b : columns_) {
    const uint32_t a = row_of_column_[b];
    if (a != kNone && !(rows_.Contains(a) && column_of_row_[a] == b && open_.Test(a, b))) {
      row_of_column_[b] = kNone;
    }
  }
  for (uint32_t a : rows_) {
    const uint32_t b = column_of_row_[a];
    if (b != kNone && columns_.Contains(b) && row_of_column_[b] == a) continue;
    std::fill(seen_.begin(), seen_.end(), 0);
    if (!Augment(a)) return false;
  }
  return true;
}

// Augmenting path (Kuhn) from row `a` through columns not yet seen_.
bool Search::Augment(uint32_t a) {
  const uint64_t* open = open_.Row(a);
  for (uint32_t w = 0; w < open_.words_per_row(); ++w) {
    for (uint64_t bits = open[w] & ~seen_[w]; bits != 0; bits &= bits - 1) {
      const uint64_t bit = bits & -bits;
      if (seen_[w] & bit) continue;  // seen by a deeper call meanwhile
      seen_[w] |= bit;
      const uint32_t b = w * 64 + static_cast<uint32_t>(absl::countr_zero(bit));
      if (row_of_column_[b] == kNone || Augment(row_of_column_[b])) {
        row_of_column_[b] = a;
        column_of_row_[a] = b;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

// The search's cost is heavy-tailed: most residual boards fall in about one
// node per free row, a few get stuck deep in a hopeless subtree. So the
// search restarts with a doubled budget and new tie-breaks; every run is
// complete, so one that ends within its budget without a solution proves
// there is none. Restarts at most double the nodes such a proof takes.
absl::StatusOr<ExactResult> ExactComplete(absl::Span<const uint32_t> composition,
                                          uint64_t node_budget, StopPoller& stop) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition);
  if (!board.ok()) return board.status();
  ExactResult result;
  uint64_t run_budget = kFirstRunBudget;
  for (uint64_t run = 0;; ++run) {
    Search search(*board, Search::Mode::kFirstSolution,
                  std::min(run_budget, node_budget - result.nodes), stop, run);
    search.Run();
    if (!stop.status().ok()) return stop.status();
    result.nodes += search.nodes();
    if (search.solutions() > 0) {
      result.verdict = ExactVerdict::kSolved;
      result.columns.assign(composition.begin(), composition.end());
      for (uint32_t a = 0; a < board->size(); ++a) {
        result.columns[board->row(a) - 1] = board->column(search.placement(a));
      }
      return result;
    }
    if (!search.budget_exhausted()) {
      result.verdict = ExactVerdict::kUnsolvable;
      return result;
    }
    if (result.nodes >= node_budget) {
      result.verdict = ExactVerdict::kBudgetExhausted;
      return result;
    }
    run_budget = run_budget > node_budget / 2 ? node_budget : run_budget * 2;
  }
}

absl::StatusOr<uint64_t> CountCompletions(absl::Span<const uint32_t> composition,
                                          StopPoller& stop) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition);
  if (!board.ok()) return board.status();
  Search search(*board, Search::Mode::kCountAll, std::numeric_limits<uint64_t>::max(), stop);
  search.Run();
  if (!stop.status().ok()) return stop.status();
  return search.solutions();
}

}  // namespace nqueens::internal

#include "exact_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "bit_array.h"
#include "huge_pages.h"
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
  // Clears the bit and returns its old value, without a branch.
  uint32_t TestAndClear(uint32_t row, uint32_t column) {
    uint64_t& word = Word(row, column);
    const uint32_t was_set = static_cast<uint32_t>(word >> (column % 64) & 1);
    word &= ~Bit(column);
    return was_set;
  }

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

// A cell of the free board: free row a in the high half, free column b in
// the low one (so at most 2^16 free rows).
using Cell = uint32_t;
static_assert(kExactMaxFreeRows <= (1u << 16), "a free row or column must fit in 16 bits");
Cell MakeCell(uint32_t a, uint32_t b) { return a << 16 | b; }
uint32_t RowOf(Cell cell) { return cell >> 16; }
uint32_t ColumnOf(Cell cell) { return cell & 0xffff; }

// The part of a composition left to fill, renumbered: free row a (0..d-1) is
// board row rows[a], free column b is board column columns[b].
class FreeBoard {
 public:
  // O(n) and polled: the poller's status once it fires.
  static absl::StatusOr<FreeBoard> Build(absl::Span<const uint32_t> composition, StopPoller& stop);

  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  uint32_t row(uint32_t a) const { return rows_[a]; }
  uint32_t column(uint32_t b) const { return columns_[b]; }
  // The cells no given queen attacks.
  const BitMatrix& open() const { return open_; }

  // Lines are the diagonals and anti-diagonals holding two open cells or
  // more (a queen alone on its diagonal closes nothing along it).
  uint32_t line_count() const { return static_cast<uint32_t>(line_start_.size() - 1); }
  // The two lines through open cell (a, b), kNone where there is none.
  const std::array<uint32_t, 2>& LinesThrough(uint32_t a, uint32_t b) const {
    return lines_through_[size_t{a} * size() + b];
  }
  absl::Span<const Cell> CellsOf(uint32_t line) const {
    return absl::MakeConstSpan(line_cells_)
        .subspan(line_start_[line], line_start_[line + 1] - line_start_[line]);
  }

 private:
  FreeBoard() : open_(0) {}
  // One bit per column and per diagonal of the whole board: O(n) time and
  // n / 2 bytes, like the pipeline's own control arrays.
  struct UsedLines {
    BitArray columns;
    std::array<BitArray, 2> diagonals;  // by kind
  };
  // Lists the free rows and marks the lines the given queens hold; polled.
  absl::Status MarkGivenQueens(absl::Span<const uint32_t> composition, UsedLines& used,
                               StopPoller& stop);
  // Lists the unused columns; polled.
  bool ListFreeColumns(uint64_t n, const BitArray& column_used, StopPoller& stop);
  void GroupLines(uint64_t n, int kind);

  std::vector<uint32_t> rows_;     // 1-based, increasing
  std::vector<uint32_t> columns_;  // 1-based, increasing
  BitMatrix open_;
  // Line i holds line_cells_[line_start_[i] .. line_start_[i + 1]). All of
  // it is O(d^2) memory, whatever n is.
  std::vector<std::array<uint32_t, 2>> lines_through_;  // per cell, by kind
  std::vector<uint32_t> line_start_{0};
  std::vector<Cell> line_cells_;
};

// Diagonal keys of cell (row, column) of the n x n board, 1-based: r = n +
// column - row (kind 0) and t = row + column (kind 1), both in 1..2n.
uint64_t DiagonalKey(int kind, uint64_t n, uint64_t row, uint64_t column) {
  return kind == 0 ? n + column - row : row + column;
}

absl::Status FreeBoard::MarkGivenQueens(absl::Span<const uint32_t> composition, UsedLines& used,
                                        StopPoller& stop) {
  const uint64_t n = composition.size();
  if (!used.columns.Reset(n + 1, stop) || !used.diagonals[0].Reset(2 * n + 1, stop) ||
      !used.diagonals[1].Reset(2 * n + 1, stop)) {
    return stop.status();
  }
  for (uint64_t first = 0; first < n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const uint64_t last = std::min<uint64_t>(n, first + StopPoller::kRowsPerPoll);
    for (uint64_t i = first; i < last; ++i) {
      const uint64_t row = i + 1, column = composition[i];
      if (column == kEmptyRow) {
        if (rows_.size() == kExactMaxFreeRows) {
          return absl::FailedPreconditionError(
              absl::StrCat("the exact search handles at most ", kExactMaxFreeRows, " free rows"));
        }
        rows_.push_back(static_cast<uint32_t>(row));
        continue;
      }
      if (column > n || used.columns.Test(column)) {
        return absl::FailedPreconditionError(
            absl::StrCat("row ", row, " (column ", column, ") breaks the composition"));
      }
      used.columns.Set(column);
      for (int kind : {0, 1}) used.diagonals[kind].Set(DiagonalKey(kind, n, row, column));
    }
  }
  return absl::OkStatus();
}

bool FreeBoard::ListFreeColumns(uint64_t n, const BitArray& column_used, StopPoller& stop) {
  return RunInStretches(1, n + 1, stop, [this, &column_used](size_t first, size_t last) {
    column_used.ForEachClear(first, last, [this](size_t column) {
      columns_.push_back(static_cast<uint32_t>(column));
      return true;
    });
  });
}

absl::StatusOr<FreeBoard> FreeBoard::Build(absl::Span<const uint32_t> composition,
                                           StopPoller& stop) {
  const uint64_t n = composition.size();
  FreeBoard board;
  UsedLines used;
  if (absl::Status status = board.MarkGivenQueens(composition, used, stop); !status.ok()) {
    return status;
  }
  if (!board.ListFreeColumns(n, used.columns, stop)) return stop.status();
  const uint32_t d = board.size();
  board.open_ = BitMatrix(d);
  for (uint32_t a = 0; a < d; ++a) {
    for (uint32_t b = 0; b < d; ++b) {
      const uint32_t row = board.rows_[a], column = board.columns_[b];
      if (!used.diagonals[0].Test(DiagonalKey(0, n, row, column)) &&
          !used.diagonals[1].Test(DiagonalKey(1, n, row, column))) {
        board.open_.Set(a, b);
      }
    }
  }
  board.lines_through_.assign(size_t{d} * d, {kNone, kNone});
  for (int kind : {0, 1}) board.GroupLines(n, kind);
  return board;
}

// Sorts the open cells by their key of `kind` and makes a line of every run
// of two cells or more.
void FreeBoard::GroupLines(uint64_t n, int kind) {
  std::vector<uint64_t> keyed_cells;  // key << 32 | cell
  for (uint32_t a = 0; a < size(); ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      keyed_cells.push_back(DiagonalKey(kind, n, rows_[a], columns_[b]) << 32 | MakeCell(a, b));
    });
  }
  std::sort(keyed_cells.begin(), keyed_cells.end());
  for (size_t begin = 0, end = 0; begin < keyed_cells.size(); begin = end) {
    while (end < keyed_cells.size() && keyed_cells[end] >> 32 == keyed_cells[begin] >> 32) ++end;
    if (end - begin < 2) continue;
    for (size_t i = begin; i < end; ++i) {
      const Cell cell = static_cast<Cell>(keyed_cells[i]);
      line_cells_.push_back(cell);
      lines_through_[size_t{RowOf(cell)} * size() + ColumnOf(cell)][kind] = line_count();
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

  bool empty() const { return count_ == 0; }
  // x must be a member.
  void Remove(uint32_t x) {
    const uint32_t last = members_[--count_];
    std::swap(members_[position_[x]], members_[count_]);
    std::swap(position_[x], position_[last]);
  }
  // Puts back the member removed last (it still sits right past the end).
  void RestoreLast() { ++count_; }

  const uint32_t* begin() const { return members_.data(); }
  const uint32_t* end() const { return members_.data() + count_; }

 private:
  std::vector<uint32_t> members_;   // the members first, then the removed, latest first
  std::vector<uint32_t> position_;  // of each value in members_
  uint32_t count_;
};

// A stack of fixed capacity: pushes are a store, with no growth check in the
// hot loops.
class FixedStack {
 public:
  // One spare slot: PushIf stores even when it does not push.
  explicit FixedStack(size_t capacity) : items_(capacity + 1) {}
  void Push(uint32_t item) { items_[size_++] = item; }
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

// The open cells of each row (or each column) of the free board, with a
// random rank to break ties, packed as open << 32 | rank << 16 | index: the
// line to branch on is then one min over keys, which compiles without
// branches.
class LineKeys {
 public:
  // No open cells; the ranks are a random permutation drawn from `rng`.
  LineKeys(uint32_t size, Rng& rng) : keys_(size) {
    std::vector<uint32_t> ranks(size);
    std::iota(ranks.begin(), ranks.end(), 0u);
    rng.Shuffle(ranks.begin(), ranks.end());
    for (uint32_t x = 0; x < size; ++x) keys_[x] = uint64_t{ranks[x]} << 16 | x;
  }

  uint32_t open(uint32_t x) const { return static_cast<uint32_t>(keys_[x] >> 32); }
  uint32_t rank(uint32_t x) const { return keys_[x] >> 16 & 0xffff; }
  void Add(uint32_t x, uint32_t cells) { keys_[x] += uint64_t{cells} << 32; }
  void Subtract(uint32_t x, uint32_t cells) { keys_[x] -= uint64_t{cells} << 32; }

  // The member of `lines` with the fewest open cells, ties to the lowest rank.
  uint32_t Fewest(const UndoableSet& lines) const {
    uint64_t best = ~uint64_t{0};
    for (uint32_t x : lines) best = std::min(best, keys_[x]);
    return best & 0xffff;
  }

 private:
  std::vector<uint64_t> keys_;
};

// The DFS itself, on one mutable copy of the open cells: a placement closes
// cells and records them on a trail, and backtracking reopens them, so a node
// costs about the cells it closes plus a scan of the unplaced rows and
// columns. Each node branches on the unplaced row or column with the fewest
// open cells (a line with one is forced); in kFirstSolution mode the cells
// are tried least damage first (damage: about the open cells the queen
// closes). Nodes whose rows cannot even be matched to distinct open columns
// are cut.
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
  // Pushes the cells to branch on onto candidates_, in the order to try
  // them. False at a dead end: an unplaced row or column without open cells.
  bool PushBranchCells();
  // Sorts candidates_[first..]; they share one row (by_row) or one column.
  void OrderByDamage(size_t first, bool by_row);
  // The queen on (a, b): closes its row, column and diagonals.
  void Place(uint32_t a, uint32_t b);
  // Undoes the Place that left the trail at `mark` cells.
  void Undo(size_t mark);
  // Closes (a, b) if it is open. Branch-free: the hot loops close cells that
  // are open or not in no predictable pattern.
  void Close(uint32_t a, uint32_t b);
  // Whether every unplaced row can still take a distinct open column.
  bool RepairMatching();
  bool Augment(uint32_t a);

  const FreeBoard& board_;
  const Mode mode_;
  const uint64_t node_budget_;
  StopPoller& stop_;
  uint64_t solutions_ = 0;
  uint64_t nodes_ = 0;
  bool budget_exhausted_ = false;

  BitMatrix open_;
  Rng tie_breaks_;
  LineKeys rows_open_, columns_open_;              // open cells per row and column
  UndoableSet rows_, columns_;                     // unplaced
  FixedStack trail_;                               // closed cells, to reopen on backtracking
  FixedStack candidates_;                          // the cells of every node on the path
  std::vector<std::pair<uint64_t, Cell>> ranked_;  // scratch of OrderByDamage
  std::vector<uint32_t> placement_;

  // A matching of unplaced rows to open columns per depth of the path: a
  // child starts from a copy of its parent's (Close drops the pairs it
  // closes) and repairs it, much cheaper than a new one; backtracking finds
  // the parent's intact. Level i holds column_of_row then row_of_column.
  std::vector<uint32_t> matchings_;
  uint32_t* column_of_row_;  // of the current depth
  uint32_t* row_of_column_;
  std::vector<uint64_t> seen_;  // columns visited by one Augment
};

Search::Search(const FreeBoard& board, Mode mode, uint64_t node_budget, StopPoller& stop,
               uint64_t tie_seed)
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
      // Along one path a cell is closed at most once, and a node offers at
      // most one candidate per unplaced row or column.
      trail_(size_t{board.size()} * board.size()),
      candidates_(size_t{board.size()} * (board.size() + 1) / 2),
      placement_(board.size()),
      matchings_(size_t{board.size() + 1} * 2 * board.size(), kNone),
      column_of_row_(matchings_.data()),
      row_of_column_(matchings_.data() + board.size()),
      seen_(open_.words_per_row()) {
  for (uint32_t a = 0; a < board.size(); ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      rows_open_.Add(a, 1);
      columns_open_.Add(b, 1);
    });
  }
}

bool Search::Visit() {
  if (rows_.empty()) {
    ++solutions_;
    return mode_ == Mode::kCountAll;
  }
  const size_t first = candidates_.size();
  if (!PushBranchCells() || !RepairMatching()) {
    candidates_.Truncate(first);
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
    Place(RowOf(candidates_[i]), ColumnOf(candidates_[i]));
    go_on = Visit();
    Undo(mark);
  }
  candidates_.Truncate(first);
  return go_on;
}

bool Search::PushBranchCells() {
  const uint32_t row = rows_open_.Fewest(rows_), column = columns_open_.Fewest(columns_);
  // There are as many unplaced columns as rows: each one needs a queen.
  if (rows_open_.open(row) == 0 || columns_open_.open(column) == 0) return false;
  const bool by_row = rows_open_.open(row) <= columns_open_.open(column);
  const size_t first = candidates_.size();
  if (by_row) {
    ForEachBit(open_.Row(row), open_.words_per_row(),
               [&](uint32_t b) { candidates_.Push(MakeCell(row, b)); });
  } else {
    for (uint32_t a : rows_) {
      if (open_.Test(a, column)) candidates_.Push(MakeCell(a, column));
    }
  }
  // Counting visits every cell anyway, so only the first-solution search orders them.
  if (mode_ == Mode::kFirstSolution) OrderByDamage(first, by_row);
  return true;
}

void Search::OrderByDamage(size_t first, bool by_row) {
  ranked_.clear();
  for (size_t i = first; i < candidates_.size(); ++i) {
    const Cell cell = candidates_[i];
    const uint32_t a = RowOf(cell), b = ColumnOf(cell);
    // Every other open cell of its row and column closes, and of its lines,
    // which are counted as they were at the root to keep Close cheap.
    uint64_t damage = rows_open_.open(a) + columns_open_.open(b) - 2;
    for (uint32_t line : board_.LinesThrough(a, b)) {
      if (line != kNone) damage += board_.CellsOf(line).size() - 1;
    }
    ranked_.emplace_back(damage << 32 | (by_row ? columns_open_.rank(b) : rows_open_.rank(a)),
                         cell);
  }
  std::sort(ranked_.begin(), ranked_.end());
  for (size_t i = 0; i < ranked_.size(); ++i) candidates_[first + i] = ranked_[i].second;
}

// Inlined by force: it is the innermost step, called from three loops.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Search::Close(uint32_t a, uint32_t b) {
  const uint32_t was_open = open_.TestAndClear(a, b);
  rows_open_.Subtract(a, was_open);
  columns_open_.Subtract(b, was_open);
  trail_.PushIf(MakeCell(a, b), was_open);
  // Matched pairs are open cells, so a match here was of a cell just closed.
  if (column_of_row_[a] == b) column_of_row_[a] = row_of_column_[b] = kNone;
}

void Search::Place(uint32_t a, uint32_t b) {
  const uint32_t d = board_.size();
  std::copy_n(column_of_row_, 2 * d, column_of_row_ + 2 * d);
  column_of_row_ += 2 * d;
  row_of_column_ += 2 * d;
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

void Search::Undo(size_t mark) {
  for (size_t i = trail_.size(); i > mark; --i) {
    const uint32_t a = RowOf(trail_[i - 1]), b = ColumnOf(trail_[i - 1]);
    open_.Set(a, b);
    rows_open_.Add(a, 1);
    columns_open_.Add(b, 1);
  }
  trail_.Truncate(mark);
  column_of_row_ -= 2 * board_.size();
  row_of_column_ -= 2 * board_.size();
  rows_.RestoreLast();
  columns_.RestoreLast();
}

// Matches every unmatched unplaced row by an augmenting path. False when that
// is impossible: then the rows cannot take distinct columns even with the
// diagonals among them ignored.
bool Search::RepairMatching() {
  for (uint32_t a : rows_) {
    if (column_of_row_[a] != kNone) continue;
    std::fill(seen_.begin(), seen_.end(), 0);
    if (!Augment(a)) return false;
  }
  return true;
}

// Augmenting path (Kuhn) from row `a` through columns not yet seen_.
bool Search::Augment(uint32_t a) {
  const uint64_t* open = open_.Row(a);
  uint64_t* seen = seen_.data();
  for (uint32_t w = 0; w < open_.words_per_row(); ++w) {
    // Re-read after each try: deeper calls mark columns seen too.
    for (uint64_t bits; (bits = open[w] & ~seen[w]) != 0;) {
      const uint32_t b = w * 64 + static_cast<uint32_t>(absl::countr_zero(bits));
      seen[w] |= bits & -bits;
      const uint32_t holder = row_of_column_[b];
      if (holder == kNone || Augment(holder)) {
        row_of_column_[b] = a;
        column_of_row_[a] = b;
        return true;
      }
    }
  }
  return false;
}

// Copies `from` into `to` in polled stretches (the solved board: 4 GB at
// n = 10^9); false once the poll fires.
bool CopyPolled(absl::Span<const uint32_t> from, Columns& to, StopPoller& stop) {
  to.clear();
  ReserveHuge(to, from.size());
  return RunInStretches(0, from.size(), stop, [&from, &to](size_t first, size_t last) {
    to.insert(to.end(), from.begin() + first, from.begin() + last);
  });
}

}  // namespace

// The search's cost is heavy-tailed: most residual boards fall in about one
// node per free row, a few get stuck deep in a hopeless subtree. So the
// search restarts with a doubled budget and new tie-breaks; every run is
// complete, so one that ends within its budget without a solution proves
// there is none. Restarts at most double the nodes such a proof takes.
absl::StatusOr<ExactResult> ExactComplete(absl::Span<const uint32_t> composition,
                                          uint64_t node_budget, StopPoller& stop) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
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
      if (!CopyPolled(composition, result.columns, stop)) return stop.status();
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
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status();
  Search search(*board, Search::Mode::kCountAll, std::numeric_limits<uint64_t>::max(), stop);
  search.Run();
  if (!stop.status().ok()) return stop.status();
  return search.solutions();
}

}  // namespace nqueens::internal

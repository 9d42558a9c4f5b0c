#include "exact_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "rng.h"

namespace nqueens::internal {
namespace {

// Sets of free rows or free columns, one bit per renumbered index.
using BitMask = uint64_t;

// Nodes of the first run of ExactComplete; each restart doubles it.
constexpr uint64_t kFirstRunBudget = 1024;

BitMask Bit(uint32_t index) { return BitMask{1} << index; }
BitMask LowBits(size_t count) { return count == 64 ? ~BitMask{0} : Bit(count) - 1; }

// Keys of the two diagonals through (row, column) of an n x n board, in one
// key space: r = n + j - i as is, t = i + j above 2^32.
uint64_t DiagonalKey(uint64_t n, uint64_t row, uint64_t column) { return n + column - row; }
uint64_t AntiDiagonalKey(uint64_t row, uint64_t column) {
  return (uint64_t{1} << 32) | (row + column);
}

// A set of diagonal keys with a bitmap over their low bits in front: the
// given queens are checked against the free cells' diagonals one by one, most
// miss them all, and a bit test is much cheaper than a hash lookup.
class DiagonalSet {
 public:
  void Insert(uint64_t key) {
    filter_[Slot(key) / 64] |= uint64_t{1} << (Slot(key) % 64);
    keys_.insert(key);
  }
  bool Contains(uint64_t key) const {
    return (filter_[Slot(key) / 64] >> (Slot(key) % 64) & 1) != 0 && keys_.contains(key);
  }
  bool empty() const { return keys_.empty(); }

 private:
  static constexpr uint64_t kFilterBits = uint64_t{1} << 20;  // 128 KiB, cache-sized
  static uint64_t Slot(uint64_t key) { return (key ^ (key >> 32)) & (kFilterBits - 1); }

  std::vector<uint64_t> filter_ = std::vector<uint64_t>(kFilterBits / 64);
  absl::flat_hash_set<uint64_t> keys_;
};

// The part of a composition left to fill, renumbered: free row a (0..d-1) is
// board row rows[a], free column b is board column columns[b].
class FreeBoard {
 public:
  static absl::StatusOr<FreeBoard> Build(absl::Span<const uint32_t> composition);

  size_t size() const { return rows_.size(); }
  uint32_t row(uint32_t a) const { return rows_[a]; }
  uint32_t column(uint32_t b) const { return columns_[b]; }
  // The free columns of free row a that no given queen attacks.
  BitMask open(uint32_t a) const { return open_[a]; }
  // Indexed by free row: the cells of that row a queen on (a, b) attacks
  // (its column and its two diagonals).
  const BitMask* attacks(uint32_t a, uint32_t b) const {
    return &attacks_[(static_cast<size_t>(a) * size() + b) * size()];
  }

 private:
  // For every free column b: the bit of free column columns_[b] + shift, or 0.
  void ShiftedColumnBits(int64_t shift, std::vector<BitMask>& bits) const;
  void MarkDiagonalsOfGivenQueens(absl::Span<const uint32_t> composition);
  void PrecomputeAttacks();

  std::vector<uint32_t> rows_;     // 1-based, increasing
  std::vector<uint32_t> columns_;  // 1-based, increasing
  std::vector<BitMask> open_;
  std::vector<BitMask> attacks_;   // size()^3 masks
};

absl::StatusOr<FreeBoard> FreeBoard::Build(absl::Span<const uint32_t> composition) {
  const uint64_t n = composition.size();
  FreeBoard board;
  std::vector<uint64_t> column_used(n / 64 + 1);  // bit c % 64 of word c / 64
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t column = composition[i];
    if (column == kEmptyRow) {
      if (board.rows_.size() == kExactMaxFreeRows) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the exact search handles at most ", kExactMaxFreeRows, " free rows"));
      }
      board.rows_.push_back(static_cast<uint32_t>(i + 1));
      continue;
    }
    const uint64_t bit = uint64_t{1} << (column % 64);
    if (column > n || (column_used[column / 64] & bit) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("row ", i + 1, " (column ", column, ") breaks the composition"));
    }
    column_used[column / 64] |= bit;
  }
  // Column 0 and the columns past n are not on the board.
  column_used.front() |= 1;
  column_used.back() |= ~uint64_t{0} << (n % 64) << 1;
  for (uint64_t w = 0; w < column_used.size(); ++w) {
    for (uint64_t unused = ~column_used[w]; unused != 0; unused &= unused - 1) {
      board.columns_.push_back(static_cast<uint32_t>(w * 64 + absl::countr_zero(unused)));
    }
  }
  board.MarkDiagonalsOfGivenQueens(composition);
  board.PrecomputeAttacks();
  return board;
}

void FreeBoard::ShiftedColumnBits(int64_t shift, std::vector<BitMask>& bits) const {
  // Both lists increase, so one merge-like pass finds every match.
  size_t j = 0;
  for (size_t b = 0; b < size(); ++b) {
    const int64_t target = int64_t{columns_[b]} + shift;
    while (j < size() && columns_[j] < target) ++j;
    bits[b] = j < size() && columns_[j] == target ? Bit(static_cast<uint32_t>(j)) : 0;
  }
}

// A free cell is open unless a given queen sits on one of its diagonals. Only
// the d^2 free cells' diagonals are looked up, so memory stays O(d^2) however
// large n is.
void FreeBoard::MarkDiagonalsOfGivenQueens(absl::Span<const uint32_t> composition) {
  const uint64_t n = composition.size();
  DiagonalSet free_cell_diagonals;
  for (uint32_t row : rows_) {
    for (uint32_t column : columns_) {
      free_cell_diagonals.Insert(DiagonalKey(n, row, column));
      free_cell_diagonals.Insert(AntiDiagonalKey(row, column));
    }
  }
  absl::flat_hash_set<uint64_t> blocked;
  if (!free_cell_diagonals.empty()) {
    for (uint64_t i = 0; i < n; ++i) {
      if (composition[i] == kEmptyRow) continue;
      const uint64_t row = i + 1, column = composition[i];
      for (uint64_t key : {DiagonalKey(n, row, column), AntiDiagonalKey(row, column)}) {
        if (free_cell_diagonals.Contains(key)) blocked.insert(key);
      }
    }
  }
  open_.assign(size(), 0);
  for (uint32_t a = 0; a < size(); ++a) {
    for (uint32_t b = 0; b < size(); ++b) {
      if (!blocked.contains(DiagonalKey(n, rows_[a], columns_[b])) &&
          !blocked.contains(AntiDiagonalKey(rows_[a], columns_[b]))) {
        open_[a] |= Bit(b);
      }
    }
  }
}

void FreeBoard::PrecomputeAttacks() {
  const size_t d = size();
  attacks_.assign(d * d * d, 0);
  std::vector<BitMask> down_right(d), down_left(d);
  for (uint32_t a = 0; a < d; ++a) {
    for (uint32_t other = 0; other < d; ++other) {
      if (other == a) continue;
      // The diagonals through (a, b) meet row `other` at columns[b] +- shift.
      const int64_t shift = int64_t{rows_[other]} - int64_t{rows_[a]};
      ShiftedColumnBits(shift, down_right);
      ShiftedColumnBits(-shift, down_left);
      for (uint32_t b = 0; b < d; ++b) {
        attacks_[(a * d + b) * d + other] = Bit(b) | down_right[b] | down_left[b];
      }
    }
  }
}

// The state of one search node.
struct Node {
  BitMask unplaced_rows = 0;
  BitMask unplaced_columns = 0;
  // Indexed by free row: the open cells of each unplaced row.
  std::array<BitMask, kExactMaxFreeRows> open{};
  // Indexed by free column: the unplaced row matched to it, or -1. Each node
  // repairs its parent's matching, which is much cheaper than a new one.
  std::array<int8_t, kExactMaxFreeRows> row_of_column{};
};

// The DFS itself. Each node places one queen: in the unplaced row with the
// fewest open cells, or in the only row that can take some column. In
// kFirstSolution mode the cells are tried least damage first (damage = open
// cells the queen closes in the other unplaced rows). Nodes whose rows cannot
// even be matched to distinct open columns are cut.
class Search {
 public:
  enum class Mode { kFirstSolution, kCountAll };

  // Ties between rows (equally few open cells) and between cells (equal
  // damage) go by a random order drawn from `tie_seed`, so that restarts
  // explore differently.
  Search(const FreeBoard& board, Mode mode, uint64_t node_budget, StopPoller& stop,
         uint64_t tie_seed = 0)
      : board_(board), mode_(mode), node_budget_(node_budget), stop_(stop) {
    std::iota(row_rank_.begin(), row_rank_.end(), 0);
    std::iota(column_rank_.begin(), column_rank_.end(), 0);
    Rng rng(tie_seed);
    rng.Shuffle(row_rank_.begin(), row_rank_.end());
    rng.Shuffle(column_rank_.begin(), column_rank_.end());
  }

  void Run() {
    // Building the free board took O(n): a stop may already be due.
    if (stop_.CheckNow()) return;
    Node root;
    root.unplaced_rows = root.unplaced_columns = LowBits(board_.size());
    for (uint32_t a = 0; a < board_.size(); ++a) root.open[a] = board_.open(a);
    root.row_of_column.fill(-1);
    Visit(root);
  }

  uint64_t solutions() const { return solutions_; }
  uint64_t nodes() const { return nodes_; }
  bool budget_exhausted() const { return budget_exhausted_; }
  // Free column of each free row in the (first) solution found.
  uint32_t placement(uint32_t a) const { return placement_[a]; }

 private:
  // Free columns in the order to try them; fixed size to keep the hot loop
  // free of allocations.
  struct CandidateColumns {
    std::array<uint32_t, kExactMaxFreeRows> columns;
    uint32_t count = 0;
    const uint32_t* begin() const { return columns.data(); }
    const uint32_t* end() const { return columns.data() + count; }
  };

  // Explores `node`, whose matching is its parent's. Returns false to unwind
  // the whole search (solution found in kFirstSolution mode, budget exhausted
  // or stop requested).
  bool Visit(Node& node);
  // Picks the row to place and the cells to try there; false at a dead end.
  bool ChooseRow(const Node& node, uint32_t& row, BitMask& cells) const;
  // The `cells` of `row`, in the order to try them.
  CandidateColumns OrderCells(const Node& node, uint32_t row, BitMask cells) const;

  const FreeBoard& board_;
  const Mode mode_;
  const uint64_t node_budget_;
  StopPoller& stop_;
  uint64_t solutions_ = 0;
  uint64_t nodes_ = 0;
  bool budget_exhausted_ = false;
  std::array<uint32_t, kExactMaxFreeRows> placement_{};
  std::array<uint32_t, kExactMaxFreeRows> row_rank_, column_rank_;  // tie-breaks
};

// Augmenting path (Kuhn) from free row `a` through columns not yet `seen`.
bool Augment(uint32_t a, const Node& node, BitMask& seen,
             std::array<int8_t, kExactMaxFreeRows>& row_of_column) {
  for (BitMask cells = node.open[a] & ~seen; cells != 0; cells &= cells - 1) {
    const uint32_t b = absl::countr_zero(cells);
    seen |= Bit(b);
    if (row_of_column[b] < 0 || Augment(row_of_column[b], node, seen, row_of_column)) {
      row_of_column[b] = static_cast<int8_t>(a);
      return true;
    }
  }
  return false;
}

// Drops the pairs of node.row_of_column that are no longer open, then matches
// every unplaced row again. False when that is impossible: then the rows
// cannot take distinct columns even with the diagonals among them ignored.
bool RepairMatching(Node& node) {
  BitMask matched_rows = 0;
  for (BitMask columns = node.unplaced_columns; columns != 0; columns &= columns - 1) {
    const uint32_t b = absl::countr_zero(columns);
    const int a = node.row_of_column[b];
    if (a < 0) continue;
    if ((node.unplaced_rows & Bit(a)) && (node.open[a] & Bit(b))) {
      matched_rows |= Bit(a);
    } else {
      node.row_of_column[b] = -1;
    }
  }
  for (BitMask rows = node.unplaced_rows & ~matched_rows; rows != 0; rows &= rows - 1) {
    BitMask seen = 0;
    if (!Augment(absl::countr_zero(rows), node, seen, node.row_of_column)) return false;
  }
  return true;
}

bool Search::Visit(Node& node) {
  if (node.unplaced_rows == 0) {
    ++solutions_;
    return mode_ == Mode::kCountAll;
  }
  uint32_t row = 0;
  BitMask cells = 0;
  if (!ChooseRow(node, row, cells) || !RepairMatching(node)) return true;
  Node child;
  child.unplaced_rows = node.unplaced_rows & ~Bit(row);
  for (uint32_t b : OrderCells(node, row, cells)) {
    if (nodes_ == node_budget_) {
      budget_exhausted_ = true;
      return false;
    }
    ++nodes_;
    if (stop_.ShouldStop()) return false;
    child.unplaced_columns = node.unplaced_columns & ~Bit(b);
    const BitMask* attacked = board_.attacks(row, b);
    for (BitMask rows = child.unplaced_rows; rows != 0; rows &= rows - 1) {
      const uint32_t a = absl::countr_zero(rows);
      child.open[a] = node.open[a] & ~attacked[a];
    }
    child.row_of_column = node.row_of_column;
    placement_[row] = b;
    if (!Visit(child)) return false;
  }
  return true;
}

bool Search::ChooseRow(const Node& node, uint32_t& row, BitMask& cells) const {
  uint32_t best_key = std::numeric_limits<uint32_t>::max();  // open cells, then rank
  BitMask coverable = 0, coverable_twice = 0;  // columns open in >= 1 and >= 2 rows
  for (BitMask rows = node.unplaced_rows; rows != 0; rows &= rows - 1) {
    const uint32_t a = absl::countr_zero(rows);
    coverable_twice |= coverable & node.open[a];
    coverable |= node.open[a];
    const uint32_t key = absl::popcount(node.open[a]) * kExactMaxFreeRows + row_rank_[a];
    if (key < best_key) {
      best_key = key;
      row = a;
    }
  }
  // Dead ends: a row with no open cell, or a column no row can take (there are
  // as many unplaced columns as unplaced rows, so every one needs a queen).
  const uint32_t fewest = best_key / kExactMaxFreeRows;
  if (fewest == 0 || coverable != node.unplaced_columns) return false;
  cells = node.open[row];
  // A column only one row can take forces that row's queen there.
  if (const BitMask forced = coverable & ~coverable_twice; fewest > 1 && forced != 0) {
    cells = forced & -forced;
    for (BitMask rows = node.unplaced_rows; rows != 0; rows &= rows - 1) {
      row = absl::countr_zero(rows);
      if (node.open[row] & cells) break;
    }
  }
  return true;
}

Search::CandidateColumns Search::OrderCells(const Node& node, uint32_t row, BitMask cells) const {
  CandidateColumns candidates;
  for (; cells != 0; cells &= cells - 1) {
    candidates.columns[candidates.count++] = absl::countr_zero(cells);
  }
  // Counting visits every cell anyway, so only the first-solution search orders them.
  if (mode_ == Mode::kCountAll) return candidates;
  const BitMask other_rows = node.unplaced_rows & ~Bit(row);
  // (damage, then rank; column)
  std::array<std::pair<uint32_t, uint32_t>, kExactMaxFreeRows> by_damage;
  for (uint32_t i = 0; i < candidates.count; ++i) {
    const uint32_t b = candidates.columns[i];
    const BitMask* attacked = board_.attacks(row, b);
    uint32_t damage = 0;
    for (BitMask rows = other_rows; rows != 0; rows &= rows - 1) {
      const uint32_t a = absl::countr_zero(rows);
      damage += absl::popcount(node.open[a] & attacked[a]);
    }
    by_damage[i] = {damage * kExactMaxFreeRows + column_rank_[b], b};
  }
  std::sort(by_damage.begin(), by_damage.begin() + candidates.count);
  for (uint32_t i = 0; i < candidates.count; ++i) candidates.columns[i] = by_damage[i].second;
  return candidates;
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

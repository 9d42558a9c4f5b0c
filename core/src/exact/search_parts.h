// The parts of the exact search shared by the engines that keep one mutable
// board and undo their placements (the trail engine and the large engine):
// the unplaced rows and columns with their open-cell counts, the choice of
// the line to branch on, the order of its cells, and the matching bound.
#ifndef NQUEENS_EXACT_SEARCH_PARTS_H_
#define NQUEENS_EXACT_SEARCH_PARTS_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/types/span.h"
#include "base/rng.h"
#include "exact/free_board.h"
#include "exact/line_ranks.h"
#include "exact/search_driver.h"
#include "exact/search_engines.h"

namespace nqueens::internal {

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

// The open cells of each row (or each column) of the free board, with a
// random rank to break ties, packed as open << 32 | rank: the line to branch
// on is then one min over keys, which compiles without branches.
class LineKeys {
 public:
  // No open cells; `ranks` a permutation of the lines (line_ranks.h).
  explicit LineKeys(const std::vector<uint32_t>& ranks)
      : keys_(ranks.size()), line_of_rank_(ranks.size()) {
    for (uint32_t x = 0; x < ranks.size(); ++x) {
      keys_[x] = ranks[x];
      line_of_rank_[ranks[x]] = x;
    }
  }

  uint32_t open(uint32_t x) const { return static_cast<uint32_t>(keys_[x] >> 32); }
  uint32_t rank(uint32_t x) const { return static_cast<uint32_t>(keys_[x]); }
  void Add(uint32_t x, uint32_t cells) { keys_[x] += uint64_t{cells} << 32; }
  void Subtract(uint32_t x, uint32_t cells) { keys_[x] -= uint64_t{cells} << 32; }

  // The member of `lines` with the fewest open cells, ties to the lowest rank.
  uint32_t Fewest(const UndoableSet& lines) const {
    uint64_t best = ~uint64_t{0};
    for (uint32_t x : lines) best = std::min(best, keys_[x]);
    return line_of_rank_[static_cast<uint32_t>(best)];
  }

 private:
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> line_of_rank_;
};

// Counts the open cells of each row and column of `open` into the keys.
inline void CountOpenCells(const BitMatrix& open, uint32_t size, LineKeys& rows_open,
                           LineKeys& columns_open) {
  for (uint32_t a = 0; a < size; ++a) {
    ForEachBit(open.Row(a), open.words_per_row(), [&](uint32_t b) {
      rows_open.Add(a, 1);
      columns_open.Add(b, 1);
    });
  }
}

// The line a node branches on: the unplaced row or column with the fewest
// open cells, a row on a tie.
struct BranchLine {
  bool by_row;
  uint32_t index;  // of the row or column
};

// nullopt at a dead end: an unplaced row or column without open cells (there
// are as many unplaced columns as rows, so each one needs a queen).
inline std::optional<BranchLine> ChooseBranchLine(const LineKeys& rows_open,
                                                  const UndoableSet& rows,
                                                  const LineKeys& columns_open,
                                                  const UndoableSet& columns) {
  const uint32_t row = rows_open.Fewest(rows), column = columns_open.Fewest(columns);
  if (rows_open.open(row) == 0 || columns_open.open(column) == 0) return std::nullopt;
  if (rows_open.open(row) <= columns_open.open(column)) return BranchLine{true, row};
  return BranchLine{false, column};
}

// Calls visit(a, b) for every open cell of `line`, in the order all engines
// list them: a row's by column, a column's in the order of `rows`.
template <typename Visit>
void ForEachCellOf(BranchLine line, const BitMatrix& open, const UndoableSet& rows, Visit visit) {
  if (line.by_row) {
    ForEachBit(open.Row(line.index), open.words_per_row(),
               [&](uint32_t b) { visit(line.index, b); });
    return;
  }
  for (uint32_t a : rows) {
    if (open.Test(a, line.index)) visit(a, line.index);
  }
}

// Sorts cells [begin, end) of the line a node branches on by damage(cell)
// (the open cells a queen there closes, by some count), ties by the rank of
// the cell's other line, so that every engine tries them in one order.
// `scratch` is reused between calls.
template <typename CellType, typename Damage, typename RowOf, typename ColumnOf>
void OrderCellsByDamage(CellType* begin, CellType* end, bool by_row, const LineKeys& rows_open,
                        const LineKeys& columns_open,
                        std::vector<std::pair<uint64_t, CellType>>& scratch, Damage damage,
                        RowOf row_of, ColumnOf column_of) {
  scratch.clear();
  for (CellType* cell = begin; cell != end; ++cell) {
    const uint32_t rank =
        by_row ? columns_open.rank(column_of(*cell)) : rows_open.rank(row_of(*cell));
    scratch.emplace_back(uint64_t{damage(*cell)} << 32 | rank, *cell);
  }
  std::sort(scratch.begin(), scratch.end());
  for (size_t i = 0; i < scratch.size(); ++i) begin[i] = scratch[i].second;
}

// Kuhn's augmenting paths between unplaced rows and open columns. The search
// keeps a matching and drops the pairs whose cells close; this repairs it,
// depth first on a stack of its own (a path can be d rows long).
class MatchingRepair {
 public:
  explicit MatchingRepair(uint32_t words_per_row) : seen_(words_per_row) {}

  // Matches every unmatched row of `rows` by an augmenting path. False when
  // that is impossible: then the rows cannot take distinct columns even with
  // the diagonals among them ignored.
  bool Repair(const BitMatrix& open, const UndoableSet& rows, uint32_t* column_of_row,
              uint32_t* row_of_column) {
    for (uint32_t a : rows) {
      if (column_of_row[a] == kNone && !Augment(open, a, column_of_row, row_of_column)) {
        unmatched_ = a;
        return false;
      }
    }
    return true;
  }

  // After Repair returned false, the rows that prove it, for a certificate:
  // the row left unmatched and the holders of the columns its search
  // reached. Those columns are all the rows' open columns, and one fewer
  // than the rows, so Hall's condition fails for them.
  std::vector<uint32_t> HallRows(const uint32_t* row_of_column) const {
    std::vector<uint32_t> rows = {unmatched_};
    ForEachBit(seen_.data(), static_cast<uint32_t>(seen_.size()),
               [&](uint32_t b) { rows.push_back(row_of_column[b]); });
    return rows;
  }

 private:
  // A row of an augmenting path: the word of its row to look at next and the
  // column it took.
  struct Step {
    uint32_t row, word, column;
  };

  bool Augment(const BitMatrix& open, uint32_t a, uint32_t* column_of_row,
               uint32_t* row_of_column) {
    std::fill(seen_.begin(), seen_.end(), 0);
    path_.assign(1, {a, 0, kNone});
    while (!path_.empty()) {
      Step& step = path_.back();
      const uint64_t* cells = open.Row(step.row);
      uint64_t bits = 0;
      // Re-read after each try: deeper steps mark columns seen too.
      while (step.word < open.words_per_row() &&
             (bits = cells[step.word] & ~seen_[step.word]) == 0) {
        ++step.word;
      }
      if (step.word == open.words_per_row()) {
        path_.pop_back();
        continue;
      }
      step.column = step.word * 64 + static_cast<uint32_t>(absl::countr_zero(bits));
      seen_[step.word] |= bits & -bits;
      const uint32_t holder = row_of_column[step.column];
      if (holder == kNone) {
        for (const Step& taken : path_) {
          row_of_column[taken.column] = taken.row;
          column_of_row[taken.row] = taken.column;
        }
        return true;
      }
      path_.push_back({holder, 0, kNone});
    }
    return false;
  }

  std::vector<uint64_t> seen_;  // columns visited by one Augment
  std::vector<Step> path_;
  uint32_t unmatched_ = kNone;  // the row the last failed Repair left
};

// The cells of a free board with line lists (at most 2^16 free rows), and of
// any free board.
struct NarrowCells {
  using Type = Cell;
  static Type Make(uint32_t a, uint32_t b) { return MakeCell(a, b); }
  static uint32_t Row(Type cell) { return RowOf(cell); }
  static uint32_t Column(Type cell) { return ColumnOf(cell); }
};
struct WideCells {
  using Type = uint64_t;
  static Type Make(uint32_t a, uint32_t b) { return uint64_t{a} << 32 | b; }
  static uint32_t Row(Type cell) { return static_cast<uint32_t>(cell >> 32); }
  static uint32_t Column(Type cell) { return static_cast<uint32_t>(cell); }
};

// What the trail and large engines share: the mutable open cells, the
// unplaced lines and their keys, and the listing of a node's cells.
// `Engine` (deriving from this) supplies Damage(cell), the order of a line's
// cells; `Cells` says how a cell is stored.
template <typename Engine, typename Cells>
class UndoingSearch {
 public:
  using Cell = typename Cells::Type;
  static Cell CellAt(uint32_t a, uint32_t b) { return Cells::Make(a, b); }
  static uint32_t Row(Cell cell) { return Cells::Row(cell); }
  static uint32_t Column(Cell cell) { return Cells::Column(cell); }

  bool Solved() const { return rows_.empty(); }

  // The node's children in the order to try them, and how many; 0 at a dead
  // end: an unplaced row or column without open cells, or rows that cannot
  // be matched to distinct open columns (Engine::Matched). With a
  // certificate, writes the node: its branch, or the leaf's reason.
  uint32_t Branch(Cell* cells) {
    Engine& engine = static_cast<Engine&>(*this);
    const std::optional<BranchLine> line =
        ChooseBranchLine(rows_open_, rows_, columns_open_, columns_);
    if (!line.has_value()) {
      if (certificate_ != nullptr) WriteEmptyLine();
      return 0;
    }
    const uint32_t count = ListBranchCells(*line, cells);
    if (!engine.Matched()) {
      if (certificate_ != nullptr) {
        certificate_->Hall(engine.HallRows(), absl::MakeConstSpan(rows_.begin(), rows_.end()));
      }
      return 0;
    }
    if (certificate_ != nullptr) certificate_->Branch(line->by_row, line->index, count);
    return count;
  }

  // Writes the tree this engine searches to `certificate` (null: none).
  void Certify(CertificateWriter* certificate) { certificate_ = certificate; }

 private:
  // Only the engine this is the base of makes one (CRTP).
  friend Engine;
  // Ties between lines (equally few open cells) and between cells (equal
  // damage) go by a random order drawn from `tie_seed`, so that restarts
  // explore differently.
  UndoingSearch(const FreeBoard& board, uint64_t tie_seed)
      : board_(board),
        open_(board.open()),
        tie_breaks_(tie_seed),
        rows_open_(DrawLineRanks(board, true, tie_breaks_)),
        columns_open_(DrawLineRanks(board, false, tie_breaks_)),
        rows_(board.size()),
        columns_(board.size()) {
    CountOpenCells(open_, board.size(), rows_open_, columns_open_);
  }

 protected:
  // Writes the cells of `line` to `cells`, in the order to try them, and
  // returns how many.
  uint32_t ListBranchCells(BranchLine line, Cell* cells) {
    uint32_t count = 0;
    ForEachCellOf(line, open_, rows_,
                  [&](uint32_t a, uint32_t b) { cells[count++] = Cells::Make(a, b); });
    // A forced line needs no order.
    if (count > 1) {
      OrderCellsByDamage(
          cells, cells + count, line.by_row, rows_open_, columns_open_, ranked_,
          [this](Cell cell) { return static_cast<const Engine*>(this)->Damage(cell); }, Cells::Row,
          Cells::Column);
    }
    return count;
  }

  // The leaf of a dead end where a line has no open cell: a row's, else a
  // column's.
  void WriteEmptyLine() {
    const uint32_t row = rows_open_.Fewest(rows_);
    if (rows_open_.open(row) == 0) {
      certificate_->Empty(true, row);
    } else {
      certificate_->Empty(false, columns_open_.Fewest(columns_));
    }
  }

  const FreeBoard& board_;
  BitMatrix open_;
  Rng tie_breaks_;
  LineKeys rows_open_, columns_open_;  // open cells per row and column
  UndoableSet rows_, columns_;         // unplaced

 private:
  std::vector<std::pair<uint64_t, Cell>> ranked_;  // scratch of OrderCellsByDamage
  CertificateWriter* certificate_ = nullptr;
};

// Runs an engine built from (board, tie_seed) under the driver, below
// `prefix`, writing the subtree to `certificate` if one is given.
template <typename Engine>
SearchOutcome RunUndoingEngine(const FreeBoard& board, uint64_t node_budget, StopPoller& stop,
                               uint64_t tie_seed, absl::Span<const FreeQueen> prefix,
                               CertificateWriter* certificate) {
  Engine engine(board, tie_seed);
  engine.Certify(certificate);
  SearchDriver<typename Engine::Cell> driver(board.size(), stop, certificate);
  for (const FreeQueen& queen : prefix) {
    engine.Place(Engine::CellAt(queen.a, queen.b));
    driver.PlacedAbove(queen.a, queen.b);
  }
  NodeAllowance allowance(node_budget);
  return driver.Search(engine, allowance);
}

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_SEARCH_PARTS_H_

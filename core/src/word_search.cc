#include "word_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "absl/numeric/bits.h"
#include "rng.h"

namespace nqueens::internal {
namespace {

constexpr uint8_t kUnmatched = 0xff;

uint64_t Bit(uint32_t x) { return uint64_t{1} << x; }

// Both ends of a matched pair of a depth's matching.
void Unmatch(uint8_t* column_of_row, uint8_t* row_of_column, uint32_t row, uint32_t column) {
  column_of_row[row] = row_of_column[column] = kUnmatched;
}

std::array<uint32_t, 64> DrawRanks(uint32_t size, Rng& rng) {
  std::vector<uint32_t> ranks(size);
  std::iota(ranks.begin(), ranks.end(), 0u);
  rng.Shuffle(ranks.begin(), ranks.end());
  std::array<uint32_t, 64> keys{};
  for (uint32_t x = 0; x < size; ++x) keys[x] = ranks[x] << 8 | x;
  return keys;
}

}  // namespace

WordBoard::WordBoard(const FreeBoard& board)
    : board_(board),
      size_(board.size()),
      diagonal_damage_(size_t{size_} * size_),
      row_attacks_(size_t{size_} * size_ * size_),
      column_attacks_(size_t{size_} * size_ * size_),
      root_rows_open_(size_),
      root_columns_open_(size_) {
  for (uint32_t a = 0; a < size_; ++a) {
    root_rows_open_[a] = board.open().Row(a)[0];
    for (uint64_t bits = root_rows_open_[a]; bits != 0; bits &= bits - 1) {
      const auto b = static_cast<uint32_t>(absl::countr_zero(bits));
      root_columns_open_[b] |= Bit(a);
      const size_t cell = size_t{a} * size_ + b;
      for (uint32_t line : board.LinesThrough(a, b)) {
        if (line == kNone) continue;
        diagonal_damage_[cell] += static_cast<uint32_t>(board.CellsOf(line).size()) - 1;
        for (Cell other : board.CellsOf(line)) {
          row_attacks_[cell * size_ + RowOf(other)] |= Bit(ColumnOf(other));
          column_attacks_[cell * size_ + ColumnOf(other)] |= Bit(RowOf(other));
        }
      }
    }
  }
}

bool NodeAllowance::Grant() {
  if (shared_ == nullptr) return false;
  const uint64_t before = shared_->fetch_add(kGrant);
  if (before >= budget_) return false;
  granted_ += std::min(kGrant, budget_ - before);
  return true;
}

WordSearch::WordSearch(const WordBoard& board, SearchMode mode, StopPoller& stop, uint64_t tie_seed)
    : board_(board),
      size_(board.size()),
      mode_(mode),
      stop_(stop),
      masks_(size_t{size_ + 1} * 2 * size_),
      matchings_(size_t{size_ + 1} * 2 * size_, kUnmatched),
      path_(size_ + 1),
      placement_(size_, kNone) {
  Rng ties(tie_seed);
  row_rank_ = DrawRanks(size_, ties);
  column_rank_ = DrawRanks(size_, ties);
  for (uint32_t k = 0; k <= size_; ++k) {
    Depth& depth = path_[k];
    depth.row_open = masks_.data() + size_t{k} * 2 * size_;
    depth.column_open = depth.row_open + size_;
    depth.column_of_row = matchings_.data() + size_t{k} * 2 * size_;
    depth.row_of_column = depth.column_of_row + size_;
  }
  Depth& root = path_[0];
  root.rows = root.columns = size_ == 64 ? ~uint64_t{0} : Bit(size_) - 1;
  std::copy(board.root_rows_open_.begin(), board.root_rows_open_.end(), root.row_open);
  std::copy(board.root_columns_open_.begin(), board.root_columns_open_.end(), root.column_open);
}

uint32_t WordSearch::Descend(absl::Span<const WordCell> prefix) {
  uint32_t k = 0;
  for (const WordCell cell : prefix) {
    // The matching is repaired on the way, as the search would have.
    uint64_t unused_hall_rows = 0;
    RepairMatching(path_[k], unused_hall_rows);
    Place(k, cell >> 8, cell & 0xff);
    placement_[cell >> 8] = cell & 0xff;
    ++k;
  }
  return k;
}

SearchOutcome WordSearch::Search(absl::Span<const WordCell> prefix, NodeAllowance& allowance) {
  SearchOutcome outcome;
  // Building the free board took O(n): a stop may already be due.
  if (stop_.CheckNow()) return outcome;
  if (Visit(Descend(prefix), 1.0, allowance, outcome)) outcome.explored = 1.0;
  if (outcome.solutions > 0) outcome.placement = placement_;
  return outcome;
}

std::vector<WordCell> WordSearch::Children(absl::Span<const WordCell> prefix) {
  std::array<uint32_t, 64> cells;
  const uint32_t k = Descend(prefix);
  const uint32_t count = path_[k].rows == 0 ? 0 : BranchCells(k, cells);
  return std::vector<WordCell>(cells.begin(), cells.begin() + count);
}

bool WordSearch::Visit(uint32_t k, double share, NodeAllowance& allowance, SearchOutcome& outcome) {
  if (path_[k].rows == 0) {
    ++outcome.solutions;
    return mode_ == SearchMode::kCountAll;
  }
  std::array<uint32_t, 64> cells;
  const uint32_t count = BranchCells(k, cells);
  // Cut here, the children before i are done: their share of the tree.
  const auto cut = [&](uint32_t i) {
    outcome.explored += share * i / count;
    return false;
  };
  for (uint32_t i = 0; i < count; ++i) {
    if (!allowance.Take()) {
      outcome.budget_exhausted = true;
      return cut(i);
    }
    ++outcome.nodes;
    if (stop_.ShouldStop()) return cut(i);
    const uint32_t a = cells[i] >> 8, b = cells[i] & 0xff;
    Place(k, a, b);
    placement_[a] = b;
    if (certificate_ != nullptr) certificate_->Place(a, b);
    if (!Visit(k + 1, share / count, allowance, outcome)) return cut(i);
  }
  return true;
}

uint32_t WordSearch::BranchCells(uint32_t k, std::array<uint32_t, 64>& cells) {
  Depth& depth = path_[k];
  Branching branching;
  if (!ChooseLine(depth, branching)) {
    if (certificate_ != nullptr) certificate_->Empty(branching.by_row, branching.line);
    return 0;
  }
  uint64_t hall_rows = 0;
  if (!RepairMatching(depth, hall_rows)) {
    if (certificate_ != nullptr) certificate_->Hall(hall_rows);
    return 0;
  }
  const uint32_t count = ListCandidates(depth, branching, cells);
  if (certificate_ != nullptr) certificate_->Branch(branching.by_row, branching.line, count);
  return count;
}

bool WordSearch::ChooseLine(const Depth& depth, Branching& branching) const {
  uint32_t best_row = UINT32_MAX, best_column = UINT32_MAX;
  for (uint64_t bits = depth.rows; bits != 0; bits &= bits - 1) {
    const auto x = static_cast<uint32_t>(absl::countr_zero(bits));
    const auto cells = static_cast<uint32_t>(absl::popcount(depth.row_open[x] & depth.columns));
    branching.row_cells[x] = static_cast<uint8_t>(cells);
    best_row = std::min(best_row, cells << 16 | row_rank_[x]);
  }
  for (uint64_t bits = depth.columns; bits != 0; bits &= bits - 1) {
    const auto x = static_cast<uint32_t>(absl::countr_zero(bits));
    const auto cells = static_cast<uint32_t>(absl::popcount(depth.column_open[x] & depth.rows));
    branching.column_cells[x] = static_cast<uint8_t>(cells);
    best_column = std::min(best_column, cells << 16 | column_rank_[x]);
  }
  // The fewer cells the better; a line without any is the dead end's reason.
  branching.by_row = best_row >> 16 <= best_column >> 16;
  branching.line = (branching.by_row ? best_row : best_column) & 0xff;
  // As many unplaced columns as rows: each one needs a queen.
  return best_row >> 16 != 0 && best_column >> 16 != 0;
}

uint32_t WordSearch::ListCandidates(const Depth& depth, const Branching& branching,
                                    std::array<uint32_t, 64>& cells) const {
  const uint32_t line = branching.line;
  uint64_t others = branching.by_row ? depth.row_open[line] & depth.columns
                                     : depth.column_open[line] & depth.rows;
  // Least damage first: about the open cells the queen closes, its lines'
  // counted at the root; ties by the other line's rank. Counting tries them
  // all, in any order.
  const bool ordered = mode_ == SearchMode::kFirstSolution;
  uint32_t count = 0;
  for (; others != 0; others &= others - 1) {
    const auto other = static_cast<uint32_t>(absl::countr_zero(others));
    const uint32_t a = branching.by_row ? line : other, b = branching.by_row ? other : line;
    const uint32_t damage = branching.row_cells[a] + branching.column_cells[b] - 2 +
                            board_.diagonal_damage_[size_t{a} * size_ + b];
    const uint32_t rank = branching.by_row ? column_rank_[b] >> 8 : row_rank_[a] >> 8;
    cells[count++] = (ordered ? damage << 24 | rank << 16 : 0) | a << 8 | b;
  }
  if (ordered) std::sort(cells.begin(), cells.begin() + count);
  for (uint32_t i = 0; i < count; ++i) cells[i] &= 0xffff;
  return count;
}

void WordSearch::Place(uint32_t k, uint32_t a, uint32_t b) {
  const Depth& parent = path_[k];
  Depth& child = path_[k + 1];
  child.rows = parent.rows & ~Bit(a);
  child.columns = parent.columns & ~Bit(b);
  const size_t cell = (size_t{a} * size_ + b) * size_;
  const uint64_t* row_attacks = &board_.row_attacks_[cell];
  const uint64_t* column_attacks = &board_.column_attacks_[cell];
  for (uint32_t x = 0; x < size_; ++x) {
    child.row_open[x] = parent.row_open[x] & ~row_attacks[x];
    child.column_open[x] = parent.column_open[x] & ~column_attacks[x];
  }
  // The parent's matching, minus the pairs whose cell the queen closed.
  std::copy_n(parent.column_of_row, 2 * size_, child.column_of_row);
  if (const uint32_t column = child.column_of_row[a]; column != kUnmatched) {
    Unmatch(child.column_of_row, child.row_of_column, a, column);
  }
  if (const uint32_t row = child.row_of_column[b]; row != kUnmatched)
    Unmatch(child.column_of_row, child.row_of_column, row, b);
  for (uint64_t bits = child.rows; bits != 0; bits &= bits - 1) {
    const auto row = static_cast<uint32_t>(absl::countr_zero(bits));
    const uint32_t column = child.column_of_row[row];
    if (column != kUnmatched && (child.row_open[row] & Bit(column)) == 0) {
      Unmatch(child.column_of_row, child.row_of_column, row, column);
    }
  }
}

// Matches every unmatched unplaced row by an augmenting path; false when
// that is impossible (Hall's condition fails, the diagonals among the rows
// ignored), with `hall_rows` the rows of the failed path's tree: their open
// cells lie in the columns it saw, all matched to the others.
bool WordSearch::RepairMatching(Depth& depth, uint64_t& hall_rows) const {
  for (uint64_t bits = depth.rows; bits != 0; bits &= bits - 1) {
    const auto a = static_cast<uint32_t>(absl::countr_zero(bits));
    uint64_t seen = 0;
    if (depth.column_of_row[a] != kUnmatched || Augment(depth, a, seen)) continue;
    hall_rows = Bit(a);
    for (; seen != 0; seen &= seen - 1) {
      hall_rows |= Bit(depth.row_of_column[absl::countr_zero(seen)]);
    }
    return false;
  }
  return true;
}

// Augmenting path (Kuhn) from row `a` through columns not yet seen.
bool WordSearch::Augment(const Depth& depth, uint32_t a, uint64_t& seen) const {
  // Re-read after each try: deeper calls mark columns seen too.
  for (uint64_t bits; (bits = depth.row_open[a] & depth.columns & ~seen) != 0;) {
    const auto b = static_cast<uint32_t>(absl::countr_zero(bits));
    seen |= Bit(b);
    const uint32_t holder = depth.row_of_column[b];
    if (holder == kUnmatched || Augment(depth, holder, seen)) {
      depth.row_of_column[b] = static_cast<uint8_t>(a);
      depth.column_of_row[a] = static_cast<uint8_t>(b);
      return true;
    }
  }
  return false;
}

SearchOutcome RunWordSearch(const FreeBoard& board, SearchMode mode, uint64_t node_budget,
                            StopPoller& stop, uint64_t tie_seed, CertificateWriter* certificate) {
  const WordBoard word_board(board);
  WordSearch search(word_board, mode, stop, tie_seed);
  search.WriteCertificate(certificate);
  NodeAllowance allowance(node_budget);
  return search.Search({}, allowance);
}

}  // namespace nqueens::internal

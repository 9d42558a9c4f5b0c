#include "word_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "absl/numeric/bits.h"
#include "rng.h"

namespace nqueens::internal {
namespace {

constexpr uint8_t kUnmatched = 0xff;

uint64_t Bit(uint32_t x) { return uint64_t{1} << x; }

// Spelled out: GCC 12 ignored a vector_size that depended on a template
// parameter, and the loop below then skipped every other word.
using WordPair = uint64_t __attribute__((vector_size(16)));
using WordQuad = uint64_t __attribute__((vector_size(32)));

// to[i] = from[i] & ~removed[i] for i < count, a multiple of the vector's
// words.
template <typename Vector>
[[gnu::always_inline]] inline void AndNotBy(const uint64_t* from, const uint64_t* removed,
                                            uint32_t count, uint64_t* to) {
  for (uint32_t i = 0; i < count; i += sizeof(Vector) / sizeof(uint64_t)) {
    Vector kept, gone;
    std::memcpy(&kept, from + i, sizeof(Vector));
    std::memcpy(&gone, removed + i, sizeof(Vector));
    kept &= ~gone;
    std::memcpy(to + i, &kept, sizeof(Vector));
  }
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

// On other machines than x86-64, what the compiler makes of the vector type.
void AndNotByPairs(const uint64_t* from, const uint64_t* removed, uint32_t count, uint64_t* to) {
  AndNotBy<WordPair>(from, removed, count, to);
}

#if NQUEENS_WORD_QUADS
__attribute__((target("avx2"))) void AndNotByQuads(const uint64_t* from, const uint64_t* removed,
                                                   uint32_t count, uint64_t* to) {
  const uint32_t tail = count % 4;
  AndNotBy<WordQuad>(from, removed, count - tail, to);
  AndNotBy<WordPair>(from + count - tail, removed + count - tail, tail, to + count - tail);
}
#endif

AndNotFunction FastestAndNot() {
#if NQUEENS_WORD_QUADS
  if (__builtin_cpu_supports("avx2")) return AndNotByQuads;
#endif
  return AndNotByPairs;
}

WordBoard::WordBoard(const FreeBoard& board)
    : board_(board),
      size_(board.size()),
      diagonal_damage_(size_t{size_} * size_),
      diagonal_rows_(size_t{size_} * size_),
      attacks_(size_t{size_} * size_ * 2 * size_),
      root_open_(2 * size_) {
  for (uint32_t a = 0; a < size_; ++a) {
    root_open_[a] = board.open().Row(a)[0];
    for (uint64_t bits = root_open_[a]; bits != 0; bits &= bits - 1) {
      const auto b = static_cast<uint32_t>(absl::countr_zero(bits));
      root_open_[size_ + b] |= Bit(a);
      const size_t cell = size_t{a} * size_ + b;
      uint64_t* attacks = &attacks_[cell * 2 * size_];
      for (uint32_t line : board.LinesThrough(a, b)) {
        if (line == kNone) continue;
        diagonal_damage_[cell] += static_cast<uint32_t>(board.CellsOf(line).size()) - 1;
        for (Cell other : board.CellsOf(line)) {
          attacks[RowOf(other)] |= Bit(ColumnOf(other));
          attacks[size_ + ColumnOf(other)] |= Bit(RowOf(other));
          diagonal_rows_[cell] |= Bit(RowOf(other));
        }
      }
    }
  }
}

void WordSearch::Match(Depth& depth, uint32_t row, uint32_t column) {
  depth.column_of_row[row] = static_cast<uint8_t>(column);
  depth.row_of_column[column] = static_cast<uint8_t>(row);
  depth.matched_rows |= Bit(row);
  depth.matched_columns |= Bit(column);
}

void WordSearch::Unmatch(Depth& depth, uint32_t row, uint32_t column) {
  depth.column_of_row[row] = depth.row_of_column[column] = kUnmatched;
  depth.matched_rows &= ~Bit(row);
  depth.matched_columns &= ~Bit(column);
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
      and_not_(FastestAndNot()),
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
  std::copy(board.root_open_.begin(), board.root_open_.end(), root.row_open);
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
  // A forced row wins every tie; a column without cells, which it would
  // miss, fails the matching.
  const uint64_t columns = best_row >> 16 <= 1 ? 0 : depth.columns;
  for (uint64_t bits = columns; bits != 0; bits &= bits - 1) {
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
  const bool ordered = mode_ == SearchMode::kFirstSolution && absl::popcount(others) > 1;
  uint32_t count = 0;
  for (; others != 0; others &= others - 1) {
    const auto other = static_cast<uint32_t>(absl::countr_zero(others));
    const uint32_t a = branching.by_row ? line : other, b = branching.by_row ? other : line;
    cells[count] = a << 8 | b;
    // The counts are read only to order: a forced row leaves columns uncounted.
    if (ordered) {
      const uint32_t damage = branching.row_cells[a] + branching.column_cells[b] - 2 +
                              board_.diagonal_damage_[size_t{a} * size_ + b];
      const uint32_t rank = branching.by_row ? column_rank_[b] >> 8 : row_rank_[a] >> 8;
      cells[count] |= damage << 24 | rank << 16;
    }
    ++count;
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
  const size_t cell = size_t{a} * size_ + b;
  and_not_(parent.row_open, &board_.attacks_[cell * 2 * size_], 2 * size_, child.row_open);
  // The parent's matching, minus the pairs whose cell the queen closed: on
  // its row, its column or a row its diagonals cross.
  std::copy_n(parent.column_of_row, 2 * size_, child.column_of_row);
  child.matched_rows = parent.matched_rows;
  child.matched_columns = parent.matched_columns;
  if (const uint32_t column = child.column_of_row[a]; column != kUnmatched) {
    Unmatch(child, a, column);
  }
  if (const uint32_t row = child.row_of_column[b]; row != kUnmatched) Unmatch(child, row, b);
  const uint64_t crossed = child.rows & child.matched_rows & board_.diagonal_rows_[cell];
  for (uint64_t bits = crossed; bits != 0; bits &= bits - 1) {
    const auto row = static_cast<uint32_t>(absl::countr_zero(bits));
    const uint32_t column = child.column_of_row[row];
    if ((child.row_open[row] & Bit(column)) == 0) Unmatch(child, row, column);
  }
}

// Matches every unmatched unplaced row by an augmenting path; false when
// that is impossible (Hall's condition fails, the diagonals among the rows
// ignored), with `hall_rows` the rows of the failed path's tree: their open
// cells lie in the columns it saw, all matched to the others.
bool WordSearch::RepairMatching(Depth& depth, uint64_t& hall_rows) const {
  for (uint64_t bits = depth.rows & ~depth.matched_rows; bits != 0; bits &= bits - 1) {
    const auto a = static_cast<uint32_t>(absl::countr_zero(bits));
    uint64_t seen = 0;
    if (Augment(depth, a, seen)) continue;
    hall_rows = Bit(a);
    for (; seen != 0; seen &= seen - 1) {
      hall_rows |= Bit(depth.row_of_column[absl::countr_zero(seen)]);
    }
    return false;
  }
  return true;
}

// Augmenting path (Kuhn) from row `a` through columns not yet seen, ended
// by an unmatched column as soon as one is open.
bool WordSearch::Augment(Depth& depth, uint32_t a, uint64_t& seen) const {
  const uint64_t open = depth.row_open[a] & depth.columns;
  if (const uint64_t free = open & ~depth.matched_columns; free != 0) {
    Match(depth, a, static_cast<uint32_t>(absl::countr_zero(free)));
    return true;
  }
  // Re-read after each try: deeper calls mark columns seen too.
  for (uint64_t bits; (bits = open & ~seen) != 0;) {
    const auto b = static_cast<uint32_t>(absl::countr_zero(bits));
    seen |= Bit(b);
    if (Augment(depth, depth.row_of_column[b], seen)) {
      Match(depth, a, b);
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

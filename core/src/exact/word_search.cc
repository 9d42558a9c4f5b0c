#include "exact/word_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/numeric/bits.h"
#include "base/rng.h"
#include "exact/line_ranks.h"

#if NQUEENS_WORD_AVX2
#include <immintrin.h>
#endif

namespace nqueens::internal {
namespace {

uint64_t Bit(uint32_t x) { return uint64_t{1} << x; }

// Bits 0 to count - 1.
uint64_t LowBits(uint32_t count) { return count == 64 ? ~uint64_t{0} : Bit(count) - 1; }

// The index of the lowest bit of `bits`, which has one; unlike
// absl::countr_zero, without a test for 0 on processors before BMI1.
uint32_t LowestBit(uint64_t bits) { return static_cast<uint32_t>(__builtin_ctzll(bits)); }

uint32_t RoundUpToQuads(uint32_t count) { return (count + 3) / 4 * 4; }

// rank << 8 | index per line (line_ranks.h).
std::array<uint32_t, 64> DrawRankKeys(const FreeBoard& board, bool rows, Rng& rng) {
  const std::vector<uint32_t> ranks = DrawLineRanks(board, rows, rng);
  std::array<uint32_t, 64> keys{};
  for (uint32_t x = 0; x < ranks.size(); ++x) keys[x] = ranks[x] << 8 | x;
  return keys;
}

// The passes' key of a line with `cells` open cells: (cells - 1) << 16
// | rank << 8 | index, modulo 2^32, so a line without cells comes last.
uint32_t LineKey(uint32_t cells, uint32_t key) { return (cells << 16) + key; }

// The passes' `keys` entry of a line of rank << 8 | index `rank`.
uint64_t LineKeyBase(uint32_t rank) { return ~uint64_t{0} << 32 | (rank - (uint32_t{1} << 16)); }

#if NQUEENS_WORD_AVX2
// Per 64-bit lane: the line's key for the lane's open cells, in its low half
// (the high half all ones, so that 32-bit minima ignore it).
__attribute__((target("avx2"))) inline __m256i FourLineKeys(__m256i open, const uint64_t* keys) {
  const __m256i nibble_counts = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0,
                                                 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low_nibbles = _mm256_set1_epi8(0x0f);
  const __m256i low = _mm256_and_si256(open, low_nibbles);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi16(open, 4), low_nibbles);
  const __m256i byte_counts = _mm256_add_epi8(_mm256_shuffle_epi8(nibble_counts, low),
                                              _mm256_shuffle_epi8(nibble_counts, high));
  const __m256i cells = _mm256_sad_epu8(byte_counts, _mm256_setzero_si256());
  return _mm256_add_epi32(_mm256_slli_epi64(cells, 16),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys)));
}

__attribute__((target("avx2"))) inline uint32_t LeastKey(__m256i keys) {
  __m128i least = _mm_min_epu32(_mm256_castsi256_si128(keys), _mm256_extracti128_si256(keys, 1));
  least = _mm_min_epu32(least, _mm_shuffle_epi32(least, 0x4e));
  least = _mm_min_epu32(least, _mm_shuffle_epi32(least, 0xb1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(least));
}

__attribute__((target("avx2"))) inline uint64_t AnyBits(__m256i words) {
  const __m128i any =
      _mm_or_si128(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
  return static_cast<uint64_t>(_mm_cvtsi128_si64(any) | _mm_extract_epi64(any, 1));
}

__attribute__((target("avx2"))) inline __m256i Load(const uint64_t* words) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words));
}

__attribute__((target("avx2"))) inline void Store(uint64_t* words, __m256i value) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(words), value);
}

// The lowest `count` of the set bits of `bits`, in one instruction.
__attribute__((target("bmi2"))) inline uint64_t LowestSetBitsBmi2(uint64_t bits, uint32_t count) {
  return _pdep_u64(LowBits(count), bits);
}
#endif

// The lowest `count` of the set bits of `bits`, which has that many.
uint64_t LowestSetBits(uint64_t bits, uint32_t count) {
  uint64_t lowest = 0;
  for (; count > 0; --count, bits &= bits - 1) lowest |= bits & -bits;
  return lowest;
}

// The sum of the positions of the set bits: bit j of each position, counted.
uint32_t PositionSum(uint64_t bits) {
  auto count = [bits](uint64_t positions) {
    return static_cast<uint32_t>(absl::popcount(bits & positions));
  };
  return count(0xaaaaaaaaaaaaaaaa) + (count(0xcccccccccccccccc) << 1) +
         (count(0xf0f0f0f0f0f0f0f0) << 2) + (count(0xff00ff00ff00ff00) << 3) +
         (count(0xffff0000ffff0000) << 4) + (count(0xffffffff00000000) << 5);
}

// CanSum (word_search.h), with pdep where kBmi2: the greatest `count`
// offsets are those left when the least size - count are taken away.
template <bool kBmi2>
bool CanSumWith(uint64_t set, uint32_t count, uint32_t total) {
  auto lowest = [](uint64_t bits, uint32_t how_many) {
#if NQUEENS_WORD_AVX2
    if constexpr (kBmi2) return LowestSetBitsBmi2(bits, how_many);
#endif
    return LowestSetBits(bits, how_many);
  };
  const auto size = static_cast<uint32_t>(absl::popcount(set));
  if (size < count || PositionSum(lowest(set, count)) > total) return false;
  return total <= PositionSum(set & ~lowest(set, size - count));
}

}  // namespace

// The passes are inlined into the search loops (flatten, below).
NarrowedLines NarrowByWords(DepthWords parent, const uint64_t* closes, const uint64_t* keys,
                            uint32_t lanes, uint64_t* child_open, uint64_t* child_match) {
  NarrowedLines lines{UINT32_MAX, UINT32_MAX, 0, 0, 0, 0};
  for (uint32_t x = 0; x < 2 * lanes; ++x) {
    const uint64_t open = child_open[x] = parent.open[x] & ~closes[x];
    const uint32_t key =
        LineKey(static_cast<uint32_t>(absl::popcount(open)), static_cast<uint32_t>(keys[x]));
    if (x >= lanes) {
      // Column b = x - lanes shifted by 31 - b (none above 31).
      if (x - lanes <= 31) lines.differences |= open << (31 - (x - lanes));
      lines.best_column = std::min(lines.best_column, key);
      continue;
    }
    lines.sums |= open << x;
    lines.best_row = std::min(lines.best_row, key);
    // A match is one bit, kept while its cell is open.
    const uint64_t match = child_match[x] = parent.match[x] & open;
    lines.matched_columns |= match;
    if (match != 0) lines.matched_rows |= Bit(x);
  }
  return lines;
}

#if NQUEENS_WORD_AVX2
__attribute__((target("avx2"))) NarrowedLines NarrowByQuads(DepthWords parent,
                                                            const uint64_t* closes,
                                                            const uint64_t* keys, uint32_t lanes,
                                                            uint64_t* child_open,
                                                            uint64_t* child_match) {
  const __m256i none = _mm256_set1_epi64x(-1), four = _mm256_set1_epi64x(4);
  __m256i best_rows = none, best_columns = none, matched_columns = _mm256_setzero_si256();
  uint64_t unmatched_rows = 0;
  // Each lane shifted left by its own count (one of 64 or more, or below 0,
  // shifts everything out).
  __m256i shift = _mm256_setr_epi64x(0, 1, 2, 3), diagonals = _mm256_setzero_si256();
  for (uint32_t x = 0; x < lanes; x += 4) {
    const __m256i open = _mm256_andnot_si256(Load(closes + x), Load(parent.open + x));
    Store(child_open + x, open);
    diagonals = _mm256_or_si256(diagonals, _mm256_sllv_epi64(open, shift));
    shift = _mm256_add_epi64(shift, four);
    const __m256i match = _mm256_and_si256(Load(parent.match + x), open);
    Store(child_match + x, match);
    matched_columns = _mm256_or_si256(matched_columns, match);
    const __m256i unmatched = _mm256_cmpeq_epi64(match, _mm256_setzero_si256());
    unmatched_rows |= uint64_t(_mm256_movemask_pd(_mm256_castsi256_pd(unmatched))) << x;
    best_rows = _mm256_min_epu32(best_rows, FourLineKeys(open, keys + x));
  }
  const uint64_t sums = AnyBits(diagonals);
  shift = _mm256_setr_epi64x(31, 30, 29, 28);
  diagonals = _mm256_setzero_si256();
  for (uint32_t x = lanes; x < 2 * lanes; x += 4) {
    const __m256i open = _mm256_andnot_si256(Load(closes + x), Load(parent.open + x));
    Store(child_open + x, open);
    diagonals = _mm256_or_si256(diagonals, _mm256_sllv_epi64(open, shift));
    shift = _mm256_sub_epi64(shift, four);
    best_columns = _mm256_min_epu32(best_columns, FourLineKeys(open, keys + x));
  }
  return {LeastKey(best_rows),
          LeastKey(best_columns),
          ~unmatched_rows & LowBits(lanes),
          AnyBits(matched_columns),
          sums,
          AnyBits(diagonals)};
}

bool HasAvx2AndBmi() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#endif

bool CanSum(uint64_t set, uint32_t count, uint32_t total) {
  return CanSumWith<false>(set, count, total);
}

WordBoard::WordBoard(const FreeBoard& board)
    : board_(board),
      size_(board.size()),
      lanes_(RoundUpToQuads(size_)),
      square_hole_(size_ > 0 && board.row(size_ - 1) - board.row(0) == size_ - 1 &&
                   board.column(size_ - 1) - board.column(0) == size_ - 1),
      diagonal_damage_(size_t{size_} * size_),
      closes_(size_t{size_} * size_ * 2 * lanes_),
      root_open_(size_t{2} * lanes_),
      nothing_(size_t{2} * lanes_) {
  for (uint32_t a = 0; a < size_; ++a) {
    root_open_[a] = board.open().Row(a)[0];
    for (uint64_t bits = root_open_[a]; bits != 0; bits &= bits - 1) {
      const auto b = LowestBit(bits);
      root_open_[lanes_ + b] |= Bit(a);
      const size_t cell = size_t{a} * size_ + b;
      uint64_t* closes = &closes_[cell * 2 * lanes_];
      for (uint32_t x = 0; x < size_; ++x) {
        closes[x] = Bit(b);
        closes[lanes_ + x] = Bit(a);
      }
      closes[a] = closes[lanes_ + b] = ~uint64_t{0};
      for (uint32_t line : board.LinesThrough(a, b)) {
        if (line == kNone) continue;
        diagonal_damage_[cell] += static_cast<uint32_t>(board.CellsOf(line).size()) - 1;
        for (Cell other : board.CellsOf(line)) {
          closes[RowOf(other)] |= Bit(ColumnOf(other));
          closes[lanes_ + ColumnOf(other)] |= Bit(RowOf(other));
        }
      }
    }
  }
}

WordSearch::WordSearch(const WordBoard& board, StopPoller& stop, uint64_t tie_seed,
                       const WordSearchOptions& options)
    : board_(board),
      size_(board.size()),
      lanes_(board.lanes_),
      certificate_(options.certificate),
#if NQUEENS_WORD_AVX2
      vector_(!options.word_by_word_loop && HasAvx2AndBmi()),
#else
      vector_(false),
#endif
      diagonal_sums_(!options.without_diagonal_sums && board.square_hole_ &&
                     size_ <= kDiagonalSumsMaxFreeRows),
      keys_(size_t{2} * lanes_, ~uint64_t{0}),
      words_(size_t{size_ + 1} * 3 * lanes_),
      path_(size_ + 1),
      driver_(size_, stop, options.certificate) {
  Rng ties(tie_seed);
  row_rank_ = DrawRankKeys(board.board(), true, ties);
  column_rank_ = DrawRankKeys(board.board(), false, ties);
  for (uint32_t x = 0; x < size_; ++x) {
    keys_[x] = LineKeyBase(row_rank_[x]);
    keys_[lanes_ + x] = LineKeyBase(column_rank_[x]);
  }
  for (uint32_t k = 0; k <= size_; ++k) {
    path_[k].open = words_.data() + size_t{k} * 3 * lanes_;
    path_[k].match = path_[k].open + size_t{2} * lanes_;
  }
  Depth& root = path_[0];
  root.rows = root.columns = LowBits(size_);
  root.row_numbers = root.column_numbers = size_ * (size_ - 1) / 2;
  // The root's counts: its open cells narrowed by nothing.
  Narrowed(0, NarrowByWords({board.root_open_.data(), root.match}, board.nothing_.data(),
                            keys_.data(), lanes_, root.open, root.match));
}

// The driver's view of the search: the current node is path_[depth_].
template <bool kVector>
class WordSearch::Steps {
 public:
  using Cell = uint32_t;  // free row a << 8 | free column b
  static uint32_t Row(Cell cell) { return cell >> 8; }
  static uint32_t Column(Cell cell) { return cell & 0xff; }

  explicit Steps(WordSearch& search) : search_(search) {}

  bool Solved() const { return search_.path_[search_.depth_].rows == 0; }
  uint32_t Branch(Cell* children) { return search_.BranchCells<kVector>(search_.depth_, children); }
  // A depth's words are its parent's narrowed, so lifting a queen only
  // returns to the parent's depth.
  void Place(Cell cell) { search_.Place<kVector>(search_.depth_++, Row(cell), Column(cell)); }
  void Lift(Cell /*cell*/) { --search_.depth_; }
  static uint64_t StepsPerNode() { return 1; }

 private:
  WordSearch& search_;
};

void WordSearch::Descend(absl::Span<const WordCell> prefix) {
  depth_ = 0;
  for (const WordCell cell : prefix) {
    // The matching is repaired on the way, as the search would have.
    uint64_t unused_hall_rows = 0;
    RepairMatching(path_[depth_], unused_hall_rows);
    Place<false>(depth_++, cell >> 8, cell & 0xff);
    driver_.PlacedAbove(cell >> 8, cell & 0xff);
  }
}

SearchOutcome WordSearch::Search(absl::Span<const WordCell> prefix, NodeAllowance& allowance) {
  Descend(prefix);
#if NQUEENS_WORD_AVX2
  if (vector_) return SearchWithAvx2(allowance);
#endif
  return SearchWordByWord(allowance);
}

std::vector<WordCell> WordSearch::Children(absl::Span<const WordCell> prefix) {
  std::array<uint32_t, 64> cells;
  Descend(prefix);
  const uint32_t count = path_[depth_].rows == 0 ? 0 : BranchCells<false>(depth_, cells.data());
  return std::vector<WordCell>(cells.begin(), cells.begin() + count);
}

template <bool kVector>
uint32_t WordSearch::BranchCells(uint32_t k, uint32_t* cells) {
  Depth& depth = path_[k];
  if (diagonal_sums_ && !DiagonalSumsFit<kVector>(depth)) {
    if (certificate_ != nullptr) certificate_->DiagonalSums();
    return 0;
  }
  // A line without open cells fails the matching too (every unplaced
  // column needs a row), so the matching finds every dead end.
  uint64_t hall_rows = 0;
  if (!RepairMatching(depth, hall_rows)) {
    if (certificate_ == nullptr) return 0;
    const bool empty_row = absl::has_single_bit(hall_rows) && depth.open[LowestBit(hall_rows)] == 0;
    if (empty_row) {
      certificate_->Empty(true, LowestBit(hall_rows));
    } else {
      certificate_->Hall(hall_rows, depth.rows);
    }
    return 0;
  }
  const bool by_row = depth.best_row >> 16 <= depth.best_column >> 16;
  const uint32_t line = (by_row ? depth.best_row : depth.best_column) & 0xff;
  const uint32_t count = ListCandidates(depth, by_row, line, cells);
  if (certificate_ != nullptr) certificate_->Branch(by_row, line, count);
  return count;
}

template <bool kBmi2>
bool WordSearch::DiagonalSumsFit(const Depth& depth) {
  const auto queens = static_cast<uint32_t>(absl::popcount(depth.rows));
  // A kind with more diagonals to spare is not checked: checking every node
  // saves next to no more nodes, and the check is most of the bound's cost
  // (docs/constants.md, kSpareDiagonals).
  constexpr uint32_t kSpareDiagonals = 4;
  auto tight = [queens](uint64_t set) {
    return static_cast<uint32_t>(absl::popcount(set)) <= queens + kSpareDiagonals;
  };
  const uint32_t rows = depth.row_numbers, columns = depth.column_numbers;
  return (!tight(depth.sums) || CanSumWith<kBmi2>(depth.sums, queens, rows + columns)) &&
         (!tight(depth.differences) ||
          CanSumWith<kBmi2>(depth.differences, queens, rows + 31 * queens - columns));
}

uint32_t WordSearch::ListCandidates(const Depth& depth, bool by_row, uint32_t line,
                                    uint32_t* cells) const {
  uint64_t others = depth.open[by_row ? line : lanes_ + line];
  // Least damage first: about the open cells the queen closes, its lines'
  // counted at the root; ties by the other line's rank.
  const bool ordered = absl::popcount(others) > 1;
  const auto line_cells = static_cast<uint32_t>(absl::popcount(others));
  uint32_t count = 0;
  for (; others != 0; others &= others - 1) {
    const auto other = LowestBit(others);
    const uint32_t a = by_row ? line : other, b = by_row ? other : line;
    cells[count] = a << 8 | b;
    if (ordered) {
      const auto other_cells =
          static_cast<uint32_t>(absl::popcount(depth.open[by_row ? lanes_ + b : a]));
      const uint32_t damage =
          line_cells + other_cells - 2 + board_.diagonal_damage_[size_t{a} * size_ + b];
      const uint32_t rank = by_row ? column_rank_[b] >> 8 : row_rank_[a] >> 8;
      cells[count] |= damage << 24 | rank << 16;
    }
    ++count;
  }
  if (ordered) std::sort(cells, cells + count);
  for (uint32_t i = 0; i < count; ++i) cells[i] &= 0xffff;
  return count;
}

template <bool kVector>
void WordSearch::Place(uint32_t k, uint32_t a, uint32_t b) {
  const Depth& parent = path_[k];
  Depth& child = path_[k + 1];
  child.rows = parent.rows & ~Bit(a);
  child.columns = parent.columns & ~Bit(b);
  child.row_numbers = parent.row_numbers - a;
  child.column_numbers = parent.column_numbers - b;
  child.row_of_column = parent.row_of_column;
  const uint64_t* closes = &board_.closes_[(size_t{a} * size_ + b) * 2 * lanes_];
  const DepthWords words = {parent.open, parent.match};
#if NQUEENS_WORD_AVX2
  if constexpr (kVector) {
    Narrowed(k + 1, NarrowByQuads(words, closes, keys_.data(), lanes_, child.open, child.match));
    return;
  }
#endif
  Narrowed(k + 1, NarrowByWords(words, closes, keys_.data(), lanes_, child.open, child.match));
}

void WordSearch::Narrowed(uint32_t k, const NarrowedLines& lines) {
  Depth& depth = path_[k];
  depth.best_row = lines.best_row;
  depth.best_column = lines.best_column;
  depth.matched_rows = lines.matched_rows;
  depth.matched_columns = lines.matched_columns;
  depth.sums = lines.sums;
  depth.differences = lines.differences;
}

// Matches every unmatched unplaced row, to a free open column if it has one
// (most do), else by an augmenting path; false when that is impossible
// (Hall's condition fails, the diagonals among the rows ignored), with
// `hall_rows` the rows the failed search reached: their open cells lie in
// the columns it saw, all matched to the others.
bool WordSearch::RepairMatching(Depth& depth, uint64_t& hall_rows) const {
  for (uint64_t bits = depth.rows & ~depth.matched_rows; bits != 0; bits &= bits - 1) {
    const auto a = LowestBit(bits);
    // Augment's first layer would find this too; checked here, it costs no
    // call (without it, more instructions and mispredictions in cachegrind).
    if (const uint64_t free = depth.open[a] & ~depth.matched_columns; free != 0) {
      Match(depth, a, free & -free);
      continue;
    }
    uint64_t seen = 0;
    if (Augment(depth, a, seen)) continue;
    hall_rows = Bit(a);
    for (; seen != 0; seen &= seen - 1) {
      hall_rows |= Bit(depth.row_of_column[LowestBit(seen)]);
    }
    return false;
  }
  return true;
}

// Augmenting path from row `a`, breadth first, a layer of rows at a time:
// of the columns a layer's rows have open and no earlier layer saw, a free
// one ends the path, and the others' rows are the next layer. The loads of
// a layer do not wait on each other, as a depth-first path's steps do, so it
// is faster than depth first (docs/constants.md, WordSearch::Augment).
bool WordSearch::Augment(Depth& depth, uint32_t a, uint64_t& seen) const {
  std::array<uint64_t, 64> layers;  // rows
  layers[0] = Bit(a);
  for (uint32_t j = 0;; ++j) {
    uint64_t columns = 0;
    for (uint64_t rows = layers[j]; rows != 0; rows &= rows - 1) {
      columns |= depth.open[LowestBit(rows)];
    }
    columns &= ~seen;
    if (const uint64_t free = columns & ~depth.matched_columns; free != 0) {
      Flip(depth, layers, j, free & -free);
      return true;
    }
    if (columns == 0) return false;
    seen |= columns;
    uint64_t next = 0;
    for (; columns != 0; columns &= columns - 1) {
      next |= Bit(depth.row_of_column[LowestBit(columns)]);
    }
    layers[j + 1] = next;
  }
}

// Matches the path that ends with the free `column`, from layer `last` back
// to layer 0: a row of each layer that has the column open takes it, and
// passes on the column it had, through which its layer reached it.
void WordSearch::Flip(Depth& depth, const std::array<uint64_t, 64>& layers, uint32_t last,
                      uint64_t column) const {
  for (uint32_t j = last + 1; j-- > 0;) {
    const auto row = LowestBit(layers[j] & depth.open[lanes_ + LowestBit(column)]);
    const uint64_t previous = depth.match[row];
    Match(depth, row, column);
    column = previous;
  }
}

void WordSearch::Match(Depth& depth, uint32_t row, uint64_t column) {
  depth.match[row] = column;
  depth.row_of_column[LowestBit(column)] = static_cast<uint8_t>(row);
  depth.matched_rows |= Bit(row);
  depth.matched_columns |= column;
}

[[gnu::flatten]] SearchOutcome WordSearch::SearchWordByWord(NodeAllowance& allowance) {
  Steps<false> steps(*this);
  return driver_.Search(steps, allowance);
}

#if NQUEENS_WORD_AVX2
[[gnu::flatten]] __attribute__((target("avx2,bmi,bmi2,popcnt"))) SearchOutcome
WordSearch::SearchWithAvx2(NodeAllowance& allowance) {
  Steps<true> steps(*this);
  return driver_.Search(steps, allowance);
}
#endif

std::vector<WordCell> WordCells(absl::Span<const FreeQueen> queens) {
  std::vector<WordCell> cells;
  for (const FreeQueen& queen : queens) {
    cells.push_back(static_cast<WordCell>(queen.a << 8 | queen.b));
  }
  return cells;
}

SearchOutcome RunWordSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                 uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                 CertificateWriter* certificate) {
  const WordBoard word_board(board);
  WordSearch search(word_board, stop, tie_seed, {certificate});
  NodeAllowance allowance(node_budget);
  return search.Search(WordCells(prefix), allowance);
}

}  // namespace nqueens::internal

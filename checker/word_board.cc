#include "checker/word_board.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace nqueens::checker {
namespace {

uint64_t Bit(uint32_t x) { return uint64_t{1} << x; }

// The free index of board coordinate x (any integer) through `free`, or kNone.
template <typename Free>
uint32_t FreeAt(int64_t x, uint64_t n, Free free) {
  return x >= 1 && static_cast<uint64_t>(x) <= n ? free(static_cast<uint64_t>(x)) : kNone;
}

// The distinct values of `of` over the free cells, ascending, and each cell's
// rank among them.
template <typename Of>
void RankCells(uint32_t d, Of of, std::vector<int64_t>* values, std::vector<uint16_t>* ranks) {
  for (uint32_t a = 0; a < d; ++a) {
    for (uint32_t b = 0; b < d; ++b) values->push_back(of(a, b));
  }
  std::sort(values->begin(), values->end());
  values->erase(std::unique(values->begin(), values->end()), values->end());
  for (uint32_t a = 0; a < d; ++a) {
    for (uint32_t b = 0; b < d; ++b) {
      ranks->push_back(static_cast<uint16_t>(
          std::lower_bound(values->begin(), values->end(), of(a, b)) - values->begin()));
    }
  }
}

// Whether q queens, on q distinct diagonals out of those flagged in `bits`
// (whose values are `values`, ascending), cannot add up to `total`: fewer
// than q diagonals, or a total below the q least or above the q greatest.
bool OutsideFlagged(const std::vector<uint64_t>& bits, const std::vector<int64_t>& values,
                    uint64_t q, int64_t total) {
  int64_t least = 0, greatest = 0;
  uint64_t taken = 0;
  for (size_t word = 0; word < bits.size() && taken < q; ++word) {
    for (uint64_t set = bits[word]; set != 0 && taken < q; set &= set - 1, ++taken) {
      least += values[word * 64 + static_cast<size_t>(__builtin_ctzll(set))];
    }
  }
  if (taken < q) return true;
  taken = 0;
  for (size_t word = bits.size(); word-- > 0 && taken < q;) {
    for (uint64_t set = bits[word]; set != 0 && taken < q; ++taken) {
      const int top = 63 - __builtin_clzll(set);
      greatest += values[word * 64 + static_cast<size_t>(top)];
      set &= ~Bit(static_cast<uint32_t>(top));
    }
  }
  return total < least || total > greatest;
}

// The sum of the indices of the bits set in `word`, bit by bit of the
// indices.
int64_t IndexSum(uint64_t word) {
  constexpr uint64_t kIndexBit[6] = {0xaaaaaaaaaaaaaaaa, 0xcccccccccccccccc, 0xf0f0f0f0f0f0f0f0,
                                     0xff00ff00ff00ff00, 0xffff0000ffff0000, 0xffffffff00000000};
  int64_t sum = 0;
  for (int k = 0; k < 6; ++k) sum += int64_t{__builtin_popcountll(word & kIndexBit[k])} << k;
  return sum;
}

#if defined(__x86_64__)
__attribute__((target("bmi2"))) uint64_t LowestBitsByPdep(uint64_t word, uint64_t count) {
  return _pdep_u64(count == 64 ? ~uint64_t{0} : Bit(static_cast<uint32_t>(count)) - 1, word);
}
#endif

// The `count` lowest bits set in `word` (at least as many): with BMI2's pdep
// in one instruction, else a bit at a time.
uint64_t LowestBits(uint64_t word, uint64_t count, bool bmi2) {
#if defined(__x86_64__)
  if (bmi2) return LowestBitsByPdep(word, count);
#endif
  uint64_t above = word;
  for (; count > 0; --count) above &= above - 1;
  return word ^ above;
}

// The sum of the indices of the `count` lowest bits set in bits[0..1] (at
// least as many).
int64_t LowestIndices(const uint64_t bits[2], uint64_t count, bool bmi2) {
  const uint64_t in_first = static_cast<uint64_t>(__builtin_popcountll(bits[0]));
  if (count <= in_first) return IndexSum(LowestBits(bits[0], count, bmi2));
  return IndexSum(bits[0]) + IndexSum(LowestBits(bits[1], count - in_first, bmi2)) +
         64 * static_cast<int64_t>(count - in_first);
}

// OutsideFlagged on a square hole, where bits[0..1] flag the diagonals by
// rank and `total` counts ranks: without a loop over the values.
bool OutsideRanks(const uint64_t bits[2], uint64_t q, int64_t total, bool bmi2) {
  const uint64_t count = static_cast<uint64_t>(__builtin_popcountll(bits[0])) +
                         static_cast<uint64_t>(__builtin_popcountll(bits[1]));
  if (count < q) return true;
  const int64_t all =
      IndexSum(bits[0]) + IndexSum(bits[1]) + int64_t{64} * __builtin_popcountll(bits[1]);
  return total < LowestIndices(bits, q, bmi2) || total > all - LowestIndices(bits, count - q, bmi2);
}

// The key of a line with `open` cells and rank `rank` (WordBoard::Digest).
uint32_t LineKey(uint64_t open, uint64_t rank) {
  return ((static_cast<uint32_t>(__builtin_popcountll(open)) - 1) << 6) +
         static_cast<uint32_t>(rank);
}

}  // namespace

WordBoard::WordBoard(const Composition& composition)
    : d_(composition.d()),
      packed_(d_ <= 32),
      all_(d_ == 64 ? ~uint64_t{0} : Bit(d_) - 1),
      stride_(packed_ ? (d_ + 3) / 4 * 4 : 2 * d_),
      close_(size_t{d_} * d_ * stride_),
      levels_(size_t{d_ + 1} * stride_),
      unplaced_(size_t{d_} + 1),
      totals_(size_t{d_} + 1),
      level_(levels_.data()),
      digests_(packed_ ? size_t{d_} + 1 : 0),
      no_close_(stride_),
      rank_words_(stride_),
      avx2_(HasAvx2()) {
  const uint64_t n = composition.n();
  for (uint32_t x = 0; x < d_; ++x) {
    row_number_.push_back(composition.Row(x));
    column_number_.push_back(composition.Column(x));
  }
  const auto free_row = [&](uint64_t r) { return composition.FreeRow(r); };
  const auto free_column = [&](uint64_t c) { return composition.FreeColumn(c); };
  for (uint32_t a = 0; a < d_; ++a) {
    for (uint32_t b = 0; b < d_; ++b) {
      uint64_t* close = &close_[(size_t{a} * d_ + b) * stride_];
      // In another row, the queen's column and its two diagonals' cells.
      for (uint32_t y = 0; y < d_; ++y) {
        const int64_t rise = row_number_[y] - row_number_[a];
        uint64_t closed = y == a ? all_ : Bit(b);
        for (const int64_t c : {column_number_[b] + rise, column_number_[b] - rise}) {
          if (const uint32_t x = FreeAt(c, n, free_column); y != a && x != kNone) closed |= Bit(x);
        }
        close[Word(true, y)] |= closed << Shift(true);
      }
      for (uint32_t x = 0; x < d_; ++x) {
        const int64_t run = column_number_[x] - column_number_[b];
        uint64_t closed = x == b ? all_ : Bit(a);
        for (const int64_t r : {row_number_[a] + run, row_number_[a] - run}) {
          if (const uint32_t y = FreeAt(r, n, free_row); x != b && y != kNone) closed |= Bit(y);
        }
        close[Word(false, x)] |= closed << Shift(false);
      }
    }
  }
  for (uint32_t a = 0; a < d_; ++a) {
    for (uint32_t b = 0; b < d_; ++b) {
      if (composition.Attacked(composition.Row(a), composition.Column(b))) continue;
      levels_[Word(true, a)] |= Bit(b) << Shift(true);
      levels_[Word(false, b)] |= Bit(a) << Shift(false);
    }
  }
  unplaced_[0] = {all_, all_};
  totals_[0] = {0, 0};
  for (uint32_t x = 0; x < d_; ++x) {
    totals_[0][0] += row_number_[x];
    totals_[0][1] += column_number_[x];
  }
  RankCells(
      d_, [&](uint32_t a, uint32_t b) { return row_number_[a] + column_number_[b]; }, &sum_values_,
      &sum_rank_);
  RankCells(
      d_, [&](uint32_t a, uint32_t b) { return row_number_[a] - column_number_[b]; },
      &difference_values_, &difference_rank_);
  square_ = true;
  for (uint32_t x = 0; x < d_; ++x) {
    square_ = square_ && row_number_[x] == row_number_[0] + x &&
              column_number_[x] == column_number_[0] + x;
  }
  sum_bits_.resize((sum_values_.size() + 63) / 64);
  difference_bits_.resize((difference_values_.size() + 63) / 64);
  if (packed_) Narrow(levels_.data(), no_close_.data(), levels_.data(), &digests_[0]);
}

bool WordBoard::HasAvx2() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

void WordBoard::RankBy(const Ranks& ranks) {
  ranked_by_ = &ranks;
  ++ranks_version_;
  if (!packed_) return;
  for (uint32_t x = 0; x < d_; ++x) {
    rank_words_[x] = uint64_t{ranks.column_rank[d_ - 1 - x]} << 32 | ranks.row_rank[x];
  }
}

// WordBoard::Narrow on d <= 32, word by word: `words` of them.
void WordBoard::NarrowByOnes(const uint64_t* parent, const uint64_t* close, const uint64_t* ranks,
                             uint32_t words, uint64_t* child, Digest* digest) {
  constexpr uint64_t kLow = 0xffffffff;
  uint64_t any = 0, sums = 0, differences = 0;
  uint32_t least_row_key = UINT32_MAX, least_column_key = UINT32_MAX;
  for (uint32_t x = 0; x < words; ++x) {
    const uint64_t open = child[x] = parent[x] & ~close[x];
    any |= open;
    sums |= (open & kLow) << x;
    differences |= (open >> 32) << x;
    least_row_key = std::min(least_row_key, LineKey(open & kLow, ranks[x] & kLow));
    least_column_key = std::min(least_column_key, LineKey(open >> 32, ranks[x] >> 32));
  }
  *digest = {least_row_key, least_column_key, any, sums, differences, 0};
}

#if defined(__x86_64__)
// The same by four words at a time (`words` a multiple of 4), which halves
// the cost of a node: each 32-bit half's open cells counted by nibbles.
__attribute__((target("avx2"))) void WordBoard::NarrowByFours(const uint64_t* parent,
                                                              const uint64_t* close,
                                                              const uint64_t* ranks, uint32_t words,
                                                              uint64_t* child, Digest* digest) {
  const __m256i nibble_bits = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1,
                                               1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low_nibbles = _mm256_set1_epi8(0x0f), low_halves = _mm256_set1_epi64x(0xffffffff);
  const __m256i four = _mm256_set1_epi64x(4);
  __m256i any = _mm256_setzero_si256(), sums = any, differences = any;
  __m256i least = _mm256_set1_epi32(-1), shift = _mm256_setr_epi64x(0, 1, 2, 3);
  for (uint32_t x = 0; x < words; x += 4) {
    const __m256i open =
        _mm256_andnot_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(close + x)),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(parent + x)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(child + x), open);
    any = _mm256_or_si256(any, open);
    sums = _mm256_or_si256(sums, _mm256_sllv_epi64(_mm256_and_si256(open, low_halves), shift));
    differences =
        _mm256_or_si256(differences, _mm256_sllv_epi64(_mm256_srli_epi64(open, 32), shift));
    shift = _mm256_add_epi64(shift, four);
    const __m256i bytes = _mm256_add_epi8(
        _mm256_shuffle_epi8(nibble_bits, _mm256_and_si256(open, low_nibbles)),
        _mm256_shuffle_epi8(nibble_bits,
                            _mm256_and_si256(_mm256_srli_epi16(open, 4), low_nibbles)));
    const __m256i halves =
        _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
    const __m256i keys =
        _mm256_add_epi32(_mm256_slli_epi32(_mm256_sub_epi32(halves, _mm256_set1_epi32(1)), 6),
                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ranks + x)));
    least = _mm256_min_epu32(least, keys);
  }
  // Rows' keys are the even 32-bit lanes, columns' the odd ones.
  alignas(32) uint32_t keys[8];
  alignas(32) uint64_t lanes[3][4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(keys), least);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[0]), any);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[1]), sums);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[2]), differences);
  const auto either = [](const uint64_t four_words[4]) {
    return four_words[0] | four_words[1] | four_words[2] | four_words[3];
  };
  *digest = {std::min({keys[0], keys[2], keys[4], keys[6]}),
             std::min({keys[1], keys[3], keys[5], keys[7]}),
             either(lanes[0]),
             either(lanes[1]),
             either(lanes[2]),
             0};
}
#else
void WordBoard::NarrowByFours(const uint64_t* parent, const uint64_t* close, const uint64_t* ranks,
                              uint32_t words, uint64_t* child, Digest* digest) {
  NarrowByOnes(parent, close, ranks, words, child, digest);
}
#endif

void WordBoard::Narrow(const uint64_t* parent, const uint64_t* close, uint64_t* child,
                       Digest* digest) const {
  if (avx2_) {
    NarrowByFours(parent, close, rank_words_.data(), stride_, child, digest);
  } else {
    NarrowByOnes(parent, close, rank_words_.data(), stride_, child, digest);
  }
  digest->ranks_version = ranks_version_;
}

// A line has an open cell when its bit is set in another line's word: an
// OR over the words, two at a time, finds every empty line at once, without
// a branch per line (6.6% of the m = 24 example's check before, 2.8% after).
bool WordBoard::EmptyLine(bool* row, uint32_t* line) const {
  Pair open = {0, 0};
  if (packed_) {
    open[0] = digests_[depth_].any;
  } else {
    for (uint32_t at = 0; at < stride_; at += 2) open |= LoadPair(level_ + at);
  }
  const uint64_t both = open[0] | open[1];
  const uint64_t rows = unplaced_[depth_][0] & ~(packed_ ? both >> 32 : open[1]);
  const uint64_t columns = unplaced_[depth_][1] & ~(packed_ ? both & all_ : open[0]);
  if ((rows | columns) == 0) return false;
  *row = rows != 0;
  *line = static_cast<uint32_t>(__builtin_ctzll(*row ? rows : columns));
  return true;
}

// On a square hole a cell's diagonals' ranks are a + b and a - b + d - 1:
// row x's word shifted by x flags its sums, and column d - 1 - x's its
// differences, so that one shift by x does both, without a branch (the
// bound's check costs 15% less on the m = 24 example than by a shift per
// line and a test for x = 0).
void WordBoard::FlagSquare(uint64_t sums[2], uint64_t differences[2]) const {
  // 2d - 1 <= 63 ranks: one word each, flagged as the words were made.
  if (packed_) {
    sums[0] = digests_[depth_].sums;
    differences[0] = digests_[depth_].differences;
    sums[1] = differences[1] = 0;
    return;
  }
  Pair low = LoadPair(level_), high = {0, 0};
  for (uint32_t x = 1; x < d_; ++x) {
    const Pair words = LoadPair(level_ + size_t{2} * x);
    low |= words << x;
    high |= words >> (64 - x);
  }
  sums[0] = low[0];
  sums[1] = high[0];
  differences[0] = low[1];
  differences[1] = high[1];
}

void WordBoard::FlagByRanks() const {
  std::fill(sum_bits_.begin(), sum_bits_.end(), 0);
  std::fill(difference_bits_.begin(), difference_bits_.end(), 0);
  for (uint64_t left = unplaced_[depth_][0]; left != 0; left &= left - 1) {
    const uint32_t a = static_cast<uint32_t>(__builtin_ctzll(left));
    const uint16_t* sum = &sum_rank_[size_t{a} * d_];
    const uint16_t* difference = &difference_rank_[size_t{a} * d_];
    for (uint64_t open = OpenWord(true, a); open != 0; open &= open - 1) {
      const uint32_t b = static_cast<uint32_t>(__builtin_ctzll(open));
      sum_bits_[sum[b] / 64] |= Bit(sum[b] % 64);
      difference_bits_[difference[b] / 64] |= Bit(difference[b] % 64);
    }
  }
}
bool WordBoard::SumsFail() const {
  const uint64_t q = static_cast<uint64_t>(__builtin_popcountll(unplaced_[depth_][0]));
  // No queen to place: nothing to add up (and no diagonal to read).
  if (q == 0) return false;
  const int64_t sum = totals_[depth_][0] + totals_[depth_][1];
  const int64_t difference = totals_[depth_][0] - totals_[depth_][1];
  if (square_) {
    uint64_t sums[2] = {0, 0}, differences[2] = {0, 0};
    FlagSquare(sums, differences);
    // The ranks are the values less the least one.
    const int64_t q_signed = static_cast<int64_t>(q);
    return OutsideRanks(sums, q, sum - q_signed * sum_values_[0], avx2_) ||
           OutsideRanks(differences, q, difference - q_signed * difference_values_[0], avx2_);
  }
  FlagByRanks();
  return OutsideFlagged(sum_bits_, sum_values_, q, sum) ||
         OutsideFlagged(difference_bits_, difference_values_, q, difference);
}

uint32_t WordBoard::UnionColumns(const std::vector<uint32_t>& rows) const {
  uint64_t columns = 0;
  for (const uint32_t a : rows) columns |= OpenWord(true, a);
  return static_cast<uint32_t>(__builtin_popcountll(columns));
}

}  // namespace nqueens::checker

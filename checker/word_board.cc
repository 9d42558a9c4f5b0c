#include "checker/word_board.h"

#include <algorithm>

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

// The sum of the indices of the `count` lowest bits set in bits[0..1] (at
// least as many).
int64_t LowestIndices(const uint64_t bits[2], uint64_t count) {
  const uint64_t in_first = static_cast<uint64_t>(__builtin_popcountll(bits[0]));
  const uint64_t word = count <= in_first ? bits[0] : bits[1];
  uint64_t above = word;
  for (uint64_t k = count <= in_first ? count : count - in_first; k > 0; --k) above &= above - 1;
  if (count <= in_first) return IndexSum(word ^ above);
  return IndexSum(bits[0]) + IndexSum(word ^ above) + 64 * static_cast<int64_t>(count - in_first);
}

// OutsideFlagged on a square hole, where bits[0..1] flag the diagonals by
// rank and `total` counts ranks: without a loop over the values.
bool OutsideRanks(const uint64_t bits[2], uint64_t q, int64_t total) {
  const uint64_t count = static_cast<uint64_t>(__builtin_popcountll(bits[0])) +
                         static_cast<uint64_t>(__builtin_popcountll(bits[1]));
  if (count < q) return true;
  const int64_t all =
      IndexSum(bits[0]) + IndexSum(bits[1]) + int64_t{64} * __builtin_popcountll(bits[1]);
  return total < LowestIndices(bits, q) || total > all - LowestIndices(bits, count - q);
}

}  // namespace

WordBoard::WordBoard(const Composition& composition)
    : d_(composition.d()),
      stride_(2 * d_),
      close_(size_t{d_} * d_ * stride_),
      levels_(size_t{d_ + 1} * stride_),
      unplaced_(size_t{d_} + 1),
      totals_(size_t{d_} + 1),
      level_(levels_.data()) {
  const uint64_t n = composition.n();
  const uint64_t all = d_ == 64 ? ~uint64_t{0} : Bit(d_) - 1;
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
        close[y] = y == a ? all : Bit(b);
        for (const int64_t c : {column_number_[b] + rise, column_number_[b] - rise}) {
          if (const uint32_t x = FreeAt(c, n, free_column); y != a && x != kNone)
            close[y] |= Bit(x);
        }
      }
      for (uint32_t x = 0; x < d_; ++x) {
        const int64_t run = column_number_[x] - column_number_[b];
        close[d_ + x] = x == b ? all : Bit(a);
        for (const int64_t r : {row_number_[a] + run, row_number_[a] - run}) {
          if (const uint32_t y = FreeAt(r, n, free_row); x != b && y != kNone)
            close[d_ + x] |= Bit(y);
        }
      }
    }
  }
  for (uint32_t a = 0; a < d_; ++a) {
    for (uint32_t b = 0; b < d_; ++b) {
      if (composition.Attacked(composition.Row(a), composition.Column(b))) continue;
      levels_[a] |= Bit(b);
      levels_[d_ + b] |= Bit(a);
    }
  }
  unplaced_[0] = {all, all};
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
}

// Without a branch per line: most dead leaves have an empty line.
bool WordBoard::EmptyLine(bool* row, uint32_t* line) const {
  for (int kind = 0; kind < 2; ++kind) {
    const uint64_t* words = kind == 0 ? level_ : level_ + d_;
    uint64_t empty = 0;
    for (uint32_t x = 0; x < d_; ++x) empty |= uint64_t{words[x] == 0} << x;
    empty &= unplaced_[depth_][kind];
    if (empty != 0) {
      *row = kind == 0;
      *line = static_cast<uint32_t>(__builtin_ctzll(empty));
      return true;
    }
  }
  return false;
}

// On a square hole a cell's diagonals' ranks are a + b and a - b + d - 1:
// each row's word, shifted, flags its sums, and each column's its
// differences.
void WordBoard::FlagSquare(uint64_t sums[2], uint64_t differences[2]) const {
  const auto flag = [](uint64_t* bits, uint64_t word, uint32_t shift) {
    bits[0] |= word << shift;
    bits[1] |= shift == 0 ? 0 : word >> (64 - shift);
  };
  for (uint32_t x = 0; x < d_; ++x) {
    flag(sums, level_[x], x);
    flag(differences, level_[d_ + x], d_ - 1 - x);
  }
}

void WordBoard::FlagByRanks() const {
  std::fill(sum_bits_.begin(), sum_bits_.end(), 0);
  std::fill(difference_bits_.begin(), difference_bits_.end(), 0);
  for (uint64_t left = unplaced_[depth_][0]; left != 0; left &= left - 1) {
    const uint32_t a = static_cast<uint32_t>(__builtin_ctzll(left));
    const uint16_t* sum = &sum_rank_[size_t{a} * d_];
    const uint16_t* difference = &difference_rank_[size_t{a} * d_];
    for (uint64_t open = level_[a]; open != 0; open &= open - 1) {
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
    return OutsideRanks(sums, q, sum - q_signed * sum_values_[0]) ||
           OutsideRanks(differences, q, difference - q_signed * difference_values_[0]);
  }
  FlagByRanks();
  return OutsideFlagged(sum_bits_, sum_values_, q, sum) ||
         OutsideFlagged(difference_bits_, difference_values_, q, difference);
}

uint32_t WordBoard::UnionColumns(const std::vector<uint32_t>& rows) const {
  uint64_t columns = 0;
  for (const uint32_t a : rows) columns |= level_[a];
  return static_cast<uint32_t>(__builtin_popcountll(columns));
}

}  // namespace nqueens::checker

// The board of a composition with at most 64 free rows, as the tree walk
// (tree_walk.h) sees it at one node: per depth, each free row's open free
// columns as bits and each free column's open free rows. A table built once
// per board holds, per free cell, the cells that a queen there closes in
// every row and column, so that placing a queen is an AND-NOT over a
// depth's words and lifting it is free. Row x's bits go with column
// d - 1 - x's: in one word when d <= 32, the row's in the low half (so that
// a depth's words, the table and every scan of them are half as large: the
// m = 24 example checks 8% faster than with a word per line), else in two
// words side by side; and one shift by x flags both lines' diagonals. On
// d <= 32, placing a queen also digests the new words (Digest): which line
// a branch takes, which lines are empty, which diagonals are open.
#ifndef NQUEENS_CHECKER_WORD_BOARD_H_
#define NQUEENS_CHECKER_WORD_BOARD_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "checker/composition.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

class WordBoard {
 public:
  static constexpr uint32_t kMaxFreeRows = 64;

  // composition.d() <= kMaxFreeRows. Builds the table: d^3 words (d <= 32),
  // else 2 d^3.
  explicit WordBoard(const Composition& composition);

  uint32_t d() const { return d_; }
  // Lines are free indices below d.
  bool Unplaced(bool row, uint32_t line) const {
    return (unplaced_[depth_][row ? 0 : 1] >> line & 1) != 0;
  }
  bool Open(uint32_t a, uint32_t b) const { return (level_[Word(true, a)] >> b & 1) != 0; }
  // The open cells of a line, by the other free index.
  uint64_t OpenWord(bool row, uint32_t line) const {
    return level_[Word(row, line)] >> Shift(row) & all_;
  }
  // Calls visit(a) for each unplaced row a, ascending.
  template <typename Visit>
  void ForEachUnplacedRow(Visit visit) const {
    for (uint64_t rows = unplaced_[depth_][0]; rows != 0; rows &= rows - 1) {
      visit(static_cast<uint32_t>(__builtin_ctzll(rows)));
    }
  }
  uint32_t OpenCount(bool row, uint32_t line) const {
    return static_cast<uint32_t>(__builtin_popcountll(OpenWord(row, line)));
  }
  // A queen on open cell (a, b).
  void Place(uint32_t a, uint32_t b) {
    const uint64_t* close = &close_[(size_t{a} * d_ + b) * stride_];
    uint64_t* next = level_ + stride_;
    if (packed_) {
      Narrow(level_, close, next, &digests_[depth_ + 1]);
    } else {
      for (uint32_t i = 0; i < stride_; i += 2) {
        StorePair(next + i, LoadPair(level_ + i) & ~LoadPair(close + i));
      }
    }
    unplaced_[depth_ + 1] = {unplaced_[depth_][0] & ~(uint64_t{1} << a),
                             unplaced_[depth_][1] & ~(uint64_t{1} << b)};
    totals_[depth_ + 1] = {totals_[depth_][0] - row_number_[a],
                           totals_[depth_][1] - column_number_[b]};
    ++depth_;
    level_ = next;
  }
  // Lifts the queen placed last.
  void Undo() {
    --depth_;
    level_ -= stride_;
  }
  // Lifts every queen.
  void Reset() {
    depth_ = 0;
    level_ = levels_.data();
  }
  // The line a `branch` is on: the unplaced line with the fewest open cells,
  // of lowest rank among rows and among columns, a row rather than a column;
  // false when every line holds a queen. Unplaced rows and columns are as
  // many: one loop keeps both minima, without a branch per line (which line
  // wins is unpredictable).
  // On d <= 32 by the depth's digest, when `ranks` are those of RankBy.
  bool Choose(const Ranks& ranks, bool* by_row, uint32_t* line) {
    if (packed_ && &ranks == ranked_by_ && unplaced_[depth_][0] != 0) {
      Digest& digest = digests_[depth_];
      if (digest.ranks_version != ranks_version_) Narrow(level_, no_close_.data(), level_, &digest);
      if (!EmptyLineIn(digest)) {
        *by_row = digest.least_row_key >> kRankBits <= digest.least_column_key >> kRankBits;
        *line = *by_row ? ranks.rows[digest.least_row_key & kRankMask]
                        : ranks.columns[digest.least_column_key & kRankMask];
        return true;
      }
    }
    return ChooseByScan(ranks, by_row, line);
  }
  // The ranks that Choose is called with from now on (which it may read
  // ahead, as queens are placed).
  void RankBy(const Ranks& ranks);
  // An unplaced line without open cells, rows first: true and the line.
  bool EmptyLine(bool* row, uint32_t* line) const;
  // Whether placing a queen sums up the words with AVX2 (else word by word)
  // and the diagonal sums take the lowest bits with BMI2's pdep: when the
  // processor has both; a test may turn them off.
  bool avx2() const { return avx2_; }
  void set_avx2(bool on) { avx2_ = on && HasAvx2(); }
  static bool HasAvx2();
  // Whether the diagonal sums bound fails.
  bool SumsFail() const;
  // The free columns holding an open cell of these distinct unplaced rows.
  uint32_t UnionColumns(const std::vector<uint32_t>& rows) const;

 private:
  // Two words in one SSE2 register (a GCC and Clang vector extension, which
  // any x86-64 has).
  typedef uint64_t Pair __attribute__((vector_size(16)));
  static Pair LoadPair(const uint64_t* words) {
    Pair pair;
    std::memcpy(&pair, words, sizeof pair);
    return pair;
  }
  static void StorePair(uint64_t* words, Pair pair) { std::memcpy(words, &pair, sizeof pair); }

  // Flag the diagonals of the open cells by rank: on a square hole (the
  // free rows consecutive, and the free columns too, where the search
  // itself uses the bound) in two words each, else in sum_bits_ and
  // difference_bits_ by each cell's ranks.
  void FlagSquare(uint64_t sums[2], uint64_t differences[2]) const;
  void FlagByRanks() const;

  // On d <= 32, what a depth's words say, found as they are made: one pass,
  // by four words with AVX2, instead of a scan per question (the m = 24
  // example checks a quarter faster).
  struct Digest {
    // Per kind of line, the least ((open cells - 1) << kRankBits) + rank
    // modulo 2^32, so that placed and empty lines come last.
    uint32_t least_row_key = 0, least_column_key = 0;
    uint64_t any = 0;  // the words' OR: the rows with an open cell above bit 32, the columns below
    uint64_t sums = 0, differences = 0;  // as FlagSquare flags them
    uint64_t ranks_version = 0;          // of the ranks of the keys
  };
  // The words of `parent` less `close`, into `child` (which may be parent),
  // and their digest. (Written in place: a digest returned by value and
  // copied stalled on its stores, about 3% of the m = 24 example's check.)
  void Narrow(const uint64_t* parent, const uint64_t* close, uint64_t* child, Digest* digest) const;
  // Its two ways, over `words` words of each (a multiple of 4), `ranks` in
  // rank_words_'s layout.
  static void NarrowByOnes(const uint64_t* parent, const uint64_t* close, const uint64_t* ranks,
                           uint32_t words, uint64_t* child, Digest* digest);
  static void NarrowByFours(const uint64_t* parent, const uint64_t* close, const uint64_t* ranks,
                            uint32_t words, uint64_t* child, Digest* digest);
  // An unplaced line without open cells, by the digest's OR.
  bool EmptyLineIn(const Digest& digest) const {
    return (unplaced_[depth_][0] & ~(digest.any >> 32)) != 0 ||
           (unplaced_[depth_][1] & ~(digest.any & all_)) != 0;
  }

  // Choose by a look at each unplaced line.
  bool ChooseByScan(const Ranks& ranks, bool* by_row, uint32_t* line) const {
    uint64_t rows = unplaced_[depth_][0], columns = unplaced_[depth_][1];
    if (rows == 0) return false;
    uint32_t row = UINT32_MAX, column = UINT32_MAX;
    for (; rows != 0; rows &= rows - 1, columns &= columns - 1) {
      const uint32_t a = static_cast<uint32_t>(__builtin_ctzll(rows));
      const uint32_t b = static_cast<uint32_t>(__builtin_ctzll(columns));
      row = std::min(row, Key(OpenWord(true, a), ranks.row_rank[a]));
      column = std::min(column, Key(OpenWord(false, b), ranks.column_rank[b]));
    }
    *by_row = row >> kRankBits <= column >> kRankBits;
    *line = *by_row ? ranks.rows[row & kRankMask] : ranks.columns[column & kRankMask];
    return true;
  }

  // A line's word among a depth's, and the line's first bit in it.
  uint32_t Word(bool row, uint32_t line) const {
    const uint32_t pair = row ? line : d_ - 1 - line;
    return packed_ ? pair : 2 * pair + (row ? 0 : 1);
  }
  uint32_t Shift(bool row) const { return packed_ && !row ? 32 : 0; }

  // A line's key for Choose: its open cells, then its rank.
  static constexpr int kRankBits = 6;
  static constexpr uint32_t kRankMask = (1u << kRankBits) - 1;
  static uint32_t Key(uint64_t open, uint32_t rank) {
    return static_cast<uint32_t>(__builtin_popcountll(open)) << kRankBits | rank;
  }

  uint32_t d_;
  bool packed_;      // a row's bits and a column's in one word: d <= 32
  uint64_t all_;     // the bits of d lines
  uint32_t stride_;  // words per depth, by Word, then zero words to a multiple of 4 (packed) or 2
  std::vector<uint64_t> close_;                    // per cell a * d + b: stride_ words
  std::vector<uint64_t> levels_;                   // per depth: stride_ words
  std::vector<std::array<uint64_t, 2>> unplaced_;  // per depth: the unplaced rows, columns
  std::vector<std::array<int64_t, 2>> totals_;     // per depth: their board numbers' sums
  uint64_t* level_;                                // the current depth's words
  std::vector<Digest> digests_;                    // packed: per depth
  std::vector<uint64_t> no_close_;                 // stride_ zero words
  // Packed: per word, its row's rank in the low half, its column's above.
  std::vector<uint64_t> rank_words_;
  const Ranks* ranked_by_ = nullptr;
  uint64_t ranks_version_ = 0;
  bool avx2_;
  uint32_t depth_ = 0;
  std::vector<int64_t> row_number_, column_number_;  // board coordinates
  // The open cells' diagonals: per cell its diagonals' ranks among the
  // free cells' distinct values.
  std::vector<uint16_t> sum_rank_, difference_rank_;
  std::vector<int64_t> sum_values_, difference_values_;
  bool square_;
  // Scratch of SumsFail.
  mutable std::vector<uint64_t> sum_bits_, difference_bits_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_WORD_BOARD_H_

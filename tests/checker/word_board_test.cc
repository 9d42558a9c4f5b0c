// The word board (checker/word_board.h) against the wide board
// (checker/wide_board.h), which counts cell by cell: on random walks over
// boards of 1 to 64 free rows, both layouts of the words (a row and a column
// in one word up to 32 free rows, in two above), square holes and scattered
// free lines, every query at every node must agree. The certificate tests
// (certificate_check_test.cc) only reach boards of at most 10 free rows.
#include "checker/word_board.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "checker/composition.h"
#include "checker/tree_items.h"
#include "checker/wide_board.h"
#include "gtest/gtest.h"

namespace nqueens::checker {
namespace {

using Columns = std::vector<uint32_t>;

// A square hole: free rows and columns 1 .. d, then m queens below and to
// the right of it (m even, not 2 mod 6: the m queens puzzle's solution with
// the even columns first), whose diagonals close some cells of the hole.
Columns SquareHole(uint32_t d, uint32_t m) {
  Columns columns(d + m, 0);
  for (uint32_t i = 1; i <= m / 2; ++i) {
    columns[d + i - 1] = d + 2 * i;
    columns[d + m / 2 + i - 1] = d + 2 * i - 1;
  }
  return columns;
}

// Free rows 1 .. d, and queens on the n - d rows below, each on the first
// column from a rotating start that no queen attacks: free columns scattered.
Columns Scattered(uint32_t n, uint32_t d) {
  Columns columns(n, 0);
  for (uint32_t row = d; row < n; ++row) {
    for (uint32_t step = 0; step < n && columns[row] == 0; ++step) {
      const uint32_t column = (3 * row + step) % n;
      bool open = true;
      for (uint32_t other = d; other < row && open; ++other) {
        const int64_t run = int64_t{columns[other]} - 1 - column, rise = int64_t{row} - other;
        open = run != 0 && run != rise && run != -rise;
      }
      if (open) columns[row] = column + 1;
    }
  }
  return columns;
}

// Random ranks of the d rows and the d columns.
Ranks RandomRanks(uint32_t d, std::mt19937& random) {
  Ranks ranks;
  for (uint32_t x = 0; x < d; ++x) {
    ranks.rows.push_back(x);
    ranks.columns.push_back(x);
  }
  std::shuffle(ranks.rows.begin(), ranks.rows.end(), random);
  std::shuffle(ranks.columns.begin(), ranks.columns.end(), random);
  ranks.row_rank.resize(d);
  ranks.column_rank.resize(d);
  for (uint32_t i = 0; i < d; ++i) {
    ranks.row_rank[ranks.rows[i]] = i;
    ranks.column_rank[ranks.columns[i]] = i;
  }
  return ranks;
}

// Every query of the tree walk, on both boards at one node.
void ExpectSameNode(WordBoard& word, const WideBoard& wide, const Ranks& ranks) {
  const uint32_t d = word.d();
  std::vector<uint32_t> rows;
  for (uint32_t x = 0; x < d; ++x) {
    for (const bool row : {true, false}) {
      ASSERT_EQ(word.Unplaced(row, x), wide.Unplaced(row, x));
      ASSERT_EQ(word.OpenWord(row, x), wide.OpenWord(row, x)) << row << " " << x;
      ASSERT_EQ(word.OpenCount(row, x), wide.OpenCount(row, x));
    }
    if (word.Unplaced(true, x) && rows.size() < 3) rows.push_back(x);
  }
  bool word_row = false, wide_row = false;
  uint32_t word_line = kNone, wide_line = kNone;
  ASSERT_EQ(word.EmptyLine(&word_row, &word_line), wide.EmptyLine(&wide_row, &wide_line));
  EXPECT_EQ(word_row, wide_row);
  EXPECT_EQ(word_line, wide_line);
  EXPECT_EQ(word.SumsFail(), wide.SumsFail());
  ASSERT_EQ(word.Choose(ranks, &word_row, &word_line), wide.Choose(ranks, &wide_row, &wide_line));
  EXPECT_EQ(word_row, wide_row);
  EXPECT_EQ(word_line, wide_line);
  EXPECT_EQ(word.UnionColumns(rows), wide.UnionColumns(rows));
}

// Walks of random queens (on an open cell of the line that Choose picks, so
// that the walk goes deep) from the root, lifting some on the way, and
// switching between two rankings now and then (as nested `ranked` nodes
// do); with the word board's AVX2 pass or without.
void ExpectSameWalks(const Columns& columns, uint32_t d, uint32_t walks, bool avx2) {
  const absl::StatusOr<Composition> composition = Composition::Make(columns);
  ASSERT_TRUE(composition.ok()) << composition.status();
  ASSERT_EQ(composition->d(), d);
  WordBoard word(*composition);
  word.set_avx2(avx2);
  WideBoard wide(*composition);
  std::mt19937 random(d);
  const Ranks rankings[2] = {RandomRanks(composition->d(), random),
                             RandomRanks(composition->d(), random)};
  uint32_t nodes = 0;
  for (uint32_t walk = 0; walk < walks; ++walk) {
    word.Reset();
    wide.Reset();
    const Ranks* ranks = &rankings[walk % 2];
    word.RankBy(*ranks);
    for (uint32_t depth = 0; depth < composition->d(); ++depth) {
      if (random() % 8 == 0) {
        ranks = ranks == &rankings[0] ? &rankings[1] : &rankings[0];
        word.RankBy(*ranks);
      }
      ExpectSameNode(word, wide, *ranks);
      ++nodes;
      bool row;
      uint32_t line;
      if (testing::Test::HasFatalFailure() || !word.Choose(*ranks, &row, &line)) break;
      const uint64_t open = word.OpenWord(row, line);
      if (open == 0) break;
      uint64_t cells = open;
      for (uint32_t skip = random() % __builtin_popcountll(open); skip > 0; --skip) {
        cells &= cells - 1;
      }
      const uint32_t other = static_cast<uint32_t>(__builtin_ctzll(cells));
      word.Place(row ? line : other, row ? other : line);
      wide.Place(row ? line : other, row ? other : line);
      if (random() % 4 == 0) {
        word.Undo();
        wide.Undo();
      }
    }
  }
  EXPECT_GE(nodes, walks);
}

TEST(WordBoardTest, AgreesWithTheWideBoardOnSquareHoles) {
  for (const bool avx2 : {false, true}) {
    for (const uint32_t d : {1u, 5u, 24u, 31u, 32u, 33u, 48u, 63u, 64u}) {
      SCOPED_TRACE(testing::Message() << "d " << d << " avx2 " << avx2);
      // No queen at all: the hole is the whole board.
      ExpectSameWalks(Columns(d, 0), d, 10, avx2);
      ExpectSameWalks(SquareHole(d, 10), d, 10, avx2);
      ExpectSameWalks(SquareHole(d, 36), d, 10, avx2);
    }
  }
}

TEST(WordBoardTest, AgreesWithTheWideBoardOnScatteredFreeLines) {
  for (const bool avx2 : {false, true}) {
    for (const uint32_t d : {3u, 20u, 32u, 33u, 50u, 64u}) {
      SCOPED_TRACE(testing::Message() << "d " << d << " avx2 " << avx2);
      ExpectSameWalks(Scattered(d + 9, d), d, 10, avx2);
    }
  }
}

TEST(WordBoardTest, UsesAvx2WhereTheProcessorHasIt) {
  const absl::StatusOr<Composition> composition = Composition::Make(Columns(8, 0));
  ASSERT_TRUE(composition.ok());
  WordBoard word(*composition);
  EXPECT_EQ(word.avx2(), WordBoard::HasAvx2());
  word.set_avx2(false);
  EXPECT_FALSE(word.avx2());
}

}  // namespace
}  // namespace nqueens::checker

// The exact search's three engines run one algorithm on three data layouts,
// under one driver, so on every board they must visit the same tree: the
// same nodes, verdicts and first solutions. The trail engine is the reference here (it
// serves every board from 65 to 1024 free rows); all are checked against
// brute force through ExactComplete in exact_search_test.cc. The word
// engine's diagonal sums bound, which the others lack, is left out of those
// comparisons and tested on its own (it may only cut subtrees without a
// solution).
#include "exact/search_engines.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/stop_poller.h"
#include "exact/free_board.h"
#include "exact/word_search.h"
#include "gtest/gtest.h"
#include "nqueens/stop.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

struct TransitionSample {
  uint32_t n, free_rows, count;
};

// Random compositions near the completion threshold (n ~ 0.19 d^2 for d
// free rows, Gent et al.), where the trees are largest for their size.
std::vector<Columns> NearTransition(const std::vector<TransitionSample>& samples) {
  std::vector<Columns> boards;
  uint64_t seed = 1;
  for (const TransitionSample& sample : samples) {
    for (uint32_t i = 0; i < sample.count; ++i) {
      boards.push_back(
          test_boards::RandomComposition(sample.n, sample.n - sample.free_rows, seed++));
    }
  }
  return boards;
}

// A description of the first way `engine` differs from the trail engine on
// `board`, or "".
std::string Differences(const std::string& engine, const SearchOutcome& outcome,
                        const SearchOutcome& trail) {
  if (outcome.nodes != trail.nodes) {
    return engine + ": nodes " + std::to_string(outcome.nodes) + " vs " +
           std::to_string(trail.nodes);
  }
  if (outcome.solutions != trail.solutions) return engine + ": different solutions";
  if (outcome.budget_exhausted != trail.budget_exhausted) return engine + ": different budget ends";
  // The same shares, added up in another order.
  if (std::abs(outcome.explored - trail.explored) > 1e-12) {
    return engine + ": explored " + std::to_string(outcome.explored) + " vs " +
           std::to_string(trail.explored);
  }
  if (outcome.placement != trail.placement) {
    return engine + ": different first solutions";
  }
  return "";
}

enum class Loop { kFastest, kWordByWord };
enum class DiagonalSums { kWhereTheyApply, kLeftOut };

// The word engine on the fastest loop this processor runs or on the loop of
// processors without AVX2 and BMI, with or without the diagonal sums bound
// (which only the word engine has, on square holes).
SearchOutcome RunWordEngine(const FreeBoard& board, uint64_t budget, StopPoller& stop,
                            uint64_t tie_seed, Loop loop, DiagonalSums sums) {
  const WordBoard word_board(board);
  WordSearchOptions options;
  options.word_by_word_loop = loop == Loop::kWordByWord;
  options.without_diagonal_sums = sums == DiagonalSums::kLeftOut;
  WordSearch search(word_board, stop, tie_seed, options);
  NodeAllowance allowance(budget);
  return search.Search({}, allowance);
}

// A description of the first way the engines differ on `composition`, or "".
// The word engine takes part on boards of at most 64 free rows, without the
// bound the others lack.
std::string Compare(const Columns& composition, uint64_t budget, uint64_t tie_seed) {
  const StopCondition never;
  StopPoller stop(never);
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status().ToString();
  const SearchOutcome trail = RunTrailSearch(*board, budget, stop, tie_seed);
  std::string differences =
      Differences("large", RunLargeSearch(*board, budget, stop, tie_seed), trail);
  for (const Loop loop : {Loop::kFastest, Loop::kWordByWord}) {
    if (!differences.empty() || board->size() > kWordSearchMaxFreeRows) break;
    differences = Differences(
        loop == Loop::kFastest ? "word" : "word, word by word",
        RunWordEngine(*board, budget, stop, tie_seed, loop, DiagonalSums::kLeftOut), trail);
  }
  return differences.empty() ? "" : ::testing::PrintToString(composition) + ": " + differences;
}

TEST(SearchEnginesTest, FindTheSameFirstSolutionsAfterTheSameNodes) {
  int solved = 0;
  for (const Columns& board : NearTransition({{50, 16, 60}, {100, 23, 40}, {200, 32, 20}})) {
    for (uint64_t tie_seed : {0, 7}) {
      ASSERT_EQ(Compare(board, UINT64_MAX, tie_seed), "");
    }
    const StopCondition never;
    StopPoller stop(never);
    absl::StatusOr<FreeBoard> free_board = FreeBoard::Build(board, stop);
    ASSERT_TRUE(free_board.ok());
    solved += RunWordSearch(*free_board, UINT64_MAX, stop, 0).solutions;
  }
  // Both verdicts are exercised.
  EXPECT_GT(solved, 10);
  EXPECT_LT(solved, 110);
}

TEST(SearchEnginesTest, AgreeOnSmallBoardsAndOnAnEmptyBoard) {
  for (const Columns& board : NearTransition({{40, 14, 40}, {70, 19, 20}})) {
    ASSERT_EQ(Compare(board, UINT64_MAX, 0), "");
  }
  // The empty 8 x 8 board: every cell open at the root.
  ASSERT_EQ(Compare(Columns(8, kEmptyRow), UINT64_MAX, 3), "");
}

TEST(SearchEnginesTest, RunOutOfTheSameBudgetAtTheSameNode) {
  for (const Columns& board : NearTransition({{100, 23, 30}, {800, 64, 5}})) {
    for (uint64_t budget : {1, 10, 100}) {
      ASSERT_EQ(Compare(board, budget, 0), "");
    }
  }
}

TEST(SearchEnginesTest, TheLargeEngineFollowsTheTrailEngineAboveSixtyFourFreeRows) {
  // Near the transition, which drifts towards n ~ 0.5 d^2 as d grows.
  int solved = 0;
  uint64_t seed = 1;
  for (uint32_t free_rows : {65u, 70u, 75u}) {
    const uint32_t n = free_rows * free_rows / 4;
    for (int i = 0; i < 8; ++i) {
      const Columns board = test_boards::RandomComposition(n, n - free_rows, seed++);
      ASSERT_EQ(Compare(board, UINT64_MAX, seed), "");
      const StopCondition never;
      StopPoller stop(never);
      absl::StatusOr<FreeBoard> free_board = FreeBoard::Build(board, stop);
      ASSERT_TRUE(free_board.ok());
      solved += RunLargeSearch(*free_board, UINT64_MAX, stop, 0).solutions;
    }
  }
  // Both verdicts are exercised.
  EXPECT_GT(solved, 2) << solved;
  EXPECT_LT(solved, 22) << solved;
}

TEST(SearchEnginesTest, TheWordEngineHandlesSixtyFourFreeRows) {
  const Columns solution = test_boards::RandomSolution(300, 5);
  const Columns composition = test_boards::RandomSubComposition(solution, 300 - 64, 6);
  ASSERT_EQ(Compare(composition, UINT64_MAX, 0), "");
}

// A square hole: a random k-queens solution in the top left corner of the
// board of k + d rows, which leaves the last d rows and columns free.
Columns SquareHole(uint32_t k, uint32_t d, uint64_t seed) {
  Columns composition = test_boards::RandomSolution(k, seed);
  composition.resize(k + d, kEmptyRow);
  return composition;
}

// The diagonal sums bound only cuts subtrees without a solution: on square
// holes the word engine with it finds the same first solutions as the trail
// engine, after no more nodes, and fewer on some boards.
TEST(SearchEnginesTest, TheDiagonalSumsBoundCutsOnlySubtreesWithoutSolutions) {
  uint64_t trail_nodes = 0, word_nodes = 0, seed = 1;
  int solved = 0;
  for (uint32_t k = 4; k <= 9; ++k) {
    for (uint32_t d = 6; d <= 16; d += 2) {
      const Columns composition = SquareHole(k, d, seed++);
      const StopCondition never;
      StopPoller stop(never);
      absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
      ASSERT_TRUE(board.ok());
      ASSERT_TRUE(WordBoard(*board).square_hole());
      const SearchOutcome trail = RunTrailSearch(*board, UINT64_MAX, stop, seed);
      for (const Loop loop : {Loop::kFastest, Loop::kWordByWord}) {
        const SearchOutcome word =
            RunWordEngine(*board, UINT64_MAX, stop, seed, loop, DiagonalSums::kWhereTheyApply);
        EXPECT_EQ(word.solutions, trail.solutions) << k << " " << d;
        EXPECT_EQ(word.placement, trail.placement) << k << " " << d;
        EXPECT_LE(word.nodes, trail.nodes) << k << " " << d;
        word_nodes += word.nodes;
      }
      trail_nodes += 2 * trail.nodes;
      solved += trail.solutions > 0;
    }
  }
  EXPECT_LT(word_nodes, trail_nodes) << word_nodes << " " << trail_nodes;
  // Both verdicts are exercised (most corners leave too few diagonals).
  EXPECT_GT(solved, 0);
  EXPECT_LT(solved, 36);
}

TEST(SearchEnginesTest, OnlyConsecutiveFreeRowsAndColumnsMakeASquareHole) {
  const StopCondition never;
  StopPoller stop(never);
  Columns composition = SquareHole(8, 10, 3);
  // A queen on the hole's second row and last column: the free columns stay
  // consecutive, the free rows do not.
  composition[9] = 18;
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  ASSERT_TRUE(board.ok());
  EXPECT_FALSE(WordBoard(*board).square_hole());
  composition[9] = kEmptyRow;
  board = FreeBoard::Build(composition, stop);
  ASSERT_TRUE(board.ok());
  EXPECT_TRUE(WordBoard(*board).square_hole());
}

// The diagonals a placement's pass finds, by both passes, against the cells
// listed one by one: random open cells (a child of the same cells, closed by
// nothing), rows' and columns' words alike, for every lane count of a board
// the bound takes.
TEST(SearchEnginesTest, ThePassesFindTheDiagonalsOfTheOpenCells) {
  std::mt19937_64 random(11);
  for (uint32_t lanes = 4; lanes <= kDiagonalSumsMaxFreeRows; lanes += 4) {
    for (int trial = 0; trial < 20; ++trial) {
      const uint32_t size = lanes - static_cast<uint32_t>(random() % 4);
      std::vector<uint64_t> open(2 * lanes), nothing(2 * lanes), match(lanes);
      std::vector<uint64_t> keys(2 * lanes, ~uint64_t{0});
      uint64_t expected_sums = 0, expected_differences = 0;
      for (uint32_t a = 0; a < size; ++a) {
        for (uint32_t b = 0; b < size; ++b) {
          if (random() % 8 != 0) continue;
          open[a] |= uint64_t{1} << b;
          open[lanes + b] |= uint64_t{1} << a;
          expected_sums |= uint64_t{1} << (a + b);
          expected_differences |= uint64_t{1} << (a - b + 31);
        }
      }
      std::vector<uint64_t> child_open(2 * lanes), child_match(lanes);
      std::vector<NarrowedLines> found = {NarrowByWords({open.data(), match.data()}, nothing.data(),
                                                        keys.data(), lanes, child_open.data(),
                                                        child_match.data())};
#if NQUEENS_WORD_AVX2
      if (__builtin_cpu_supports("avx2")) {
        found.push_back(NarrowByQuads({open.data(), match.data()}, nothing.data(), keys.data(),
                                      lanes, child_open.data(), child_match.data()));
      }
#endif
      for (const NarrowedLines& lines : found) {
        EXPECT_EQ(lines.sums, expected_sums) << lanes;
        EXPECT_EQ(lines.differences, expected_differences) << lanes;
      }
    }
  }
}

// CanSum against every choice of `count` offsets from small random sets
// spread over the 64 offsets.
TEST(SearchEnginesTest, CanSumKnowsWhichTotalsDistinctOffsetsReach) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint32_t> offsets;
    uint64_t set = 0;
    const uint32_t size = 1 + static_cast<uint32_t>(random() % 10);
    while (offsets.size() < size) {
      const auto offset = static_cast<uint32_t>(random() % 64);
      if (std::find(offsets.begin(), offsets.end(), offset) != offsets.end()) continue;
      offsets.push_back(offset);
      set |= uint64_t{1} << offset;
    }
    for (uint32_t count = 0; count <= size + 1; ++count) {
      std::vector<bool> reached(63 * 12 + 1);
      for (uint32_t subset = 0; subset < (1u << size); ++subset) {
        if (static_cast<uint32_t>(absl::popcount(subset)) != count) continue;
        uint32_t total = 0;
        for (uint32_t i = 0; i < size; ++i) total += (subset >> i & 1) * offsets[i];
        reached[total] = true;
      }
      // CanSum tests the interval from the least to the greatest total, a
      // necessary condition (not every total between is reached).
      uint32_t least = UINT32_MAX, greatest = 0;
      for (uint32_t total = 0; total < reached.size(); ++total) {
        if (!reached[total]) continue;
        least = std::min(least, total);
        greatest = std::max(greatest, total);
      }
      for (uint32_t total = 0; total < reached.size(); ++total) {
        EXPECT_EQ(CanSum(set, count, total), least <= total && total <= greatest)
            << trial << " " << count << " " << total;
      }
    }
  }
}

// A placement's pass over a depth's words, in each vector width this
// processor runs, against the word-by-word pass: every lane count a board of
// up to 64 free rows has, with random words, single-bit matches (some of
// them closed) and keys.
TEST(SearchEnginesTest, TheWordEnginesVectorPassesAgreeWithTheWordByWordPass) {
  using NarrowFunction = NarrowedLines (*)(DepthWords, const uint64_t*, const uint64_t*, uint32_t,
                                           uint64_t*, uint64_t*);
  std::vector<NarrowFunction> passes;
#if NQUEENS_WORD_AVX2
  if (__builtin_cpu_supports("avx2")) passes.push_back(NarrowByQuads);
#endif
  if (passes.empty()) GTEST_SKIP() << "no vector pass on this processor";
  std::mt19937_64 random(7);
  for (uint32_t lanes = 4; lanes <= 64; lanes += 4) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint64_t> open(2 * lanes), closes(2 * lanes), match(lanes);
      std::vector<uint64_t> keys(2 * lanes);
      for (uint32_t x = 0; x < 2 * lanes; ++x) {
        // Sparse words too, so that lines without cells occur.
        open[x] = random() & random() & random() & random();
        closes[x] = random() & random();
        keys[x] = ~uint64_t{0} << 32 | static_cast<uint32_t>(random());
        if (x < lanes && random() % 2 == 0) match[x] = uint64_t{1} << random() % 64;
      }
      std::vector<uint64_t> expected_open(2 * lanes), expected_match(lanes);
      const NarrowedLines expected =
          NarrowByWords({open.data(), match.data()}, closes.data(), keys.data(), lanes,
                        expected_open.data(), expected_match.data());
      for (NarrowFunction pass : passes) {
        std::vector<uint64_t> child_open(2 * lanes + 1, 42), child_match(lanes + 1, 42);
        const NarrowedLines lines = pass({open.data(), match.data()}, closes.data(), keys.data(),
                                         lanes, child_open.data(), child_match.data());
        EXPECT_EQ(lines.best_row, expected.best_row) << lanes;
        EXPECT_EQ(lines.best_column, expected.best_column) << lanes;
        EXPECT_EQ(lines.matched_rows, expected.matched_rows) << lanes;
        EXPECT_EQ(lines.matched_columns, expected.matched_columns) << lanes;
        EXPECT_EQ(lines.sums, expected.sums) << lanes;
        EXPECT_EQ(lines.differences, expected.differences) << lanes;
        EXPECT_EQ(child_match[lanes], 42u) << lanes;  // one word more: left alone
        EXPECT_EQ(child_open[2 * lanes], 42u) << lanes;
        child_open.pop_back();
        child_match.pop_back();
        EXPECT_EQ(child_open, expected_open) << lanes;
        EXPECT_EQ(child_match, expected_match) << lanes;
      }
    }
  }
}

}  // namespace
}  // namespace nqueens::internal

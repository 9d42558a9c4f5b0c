// The exact search's three engines run one algorithm on three data layouts,
// so on every board they must visit the same tree: the same nodes, verdicts,
// first solutions and counts. The trail engine is the reference here (it
// serves every board from 65 to 1024 free rows); all are checked against
// brute force through ExactComplete in exact_search_test.cc.
#include "search_engines.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "free_board.h"
#include "gtest/gtest.h"
#include "nqueens/stop.h"
#include "stop_poller.h"
#include "test_boards.h"
#include "word_search.h"

namespace nqueens::internal {
namespace {

struct Sample {
  uint32_t n, free_rows, count;
};

// Random compositions near the completion threshold (n ~ 0.19 d^2 for d
// free rows, Gent et al.), where the trees are largest for their size.
std::vector<Columns> NearTransition(const std::vector<Sample>& samples) {
  std::vector<Columns> boards;
  uint64_t seed = 1;
  for (const Sample& sample : samples) {
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
                        const SearchOutcome& trail, SearchMode mode) {
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
  if (mode == SearchMode::kFirstSolution && outcome.placement != trail.placement) {
    return engine + ": different first solutions";
  }
  return "";
}

// The word engine on the loop that processors without AVX2 and BMI run.
SearchOutcome RunWordByWordSearch(const FreeBoard& board, SearchMode mode, uint64_t budget,
                                  StopPoller& stop, uint64_t tie_seed) {
  const WordBoard word_board(board);
  WordSearch search(word_board, mode, stop, tie_seed);
  search.UseWordByWordLoop();
  NodeAllowance allowance(budget);
  return search.Search({}, allowance);
}

// A description of the first way the engines differ on `composition`, or "".
// The word engine takes part on boards of at most 64 free rows.
std::string Compare(const Columns& composition, SearchMode mode, uint64_t budget,
                    uint64_t tie_seed) {
  const StopCondition never;
  StopPoller stop(never);
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status().ToString();
  const SearchOutcome trail = RunTrailSearch(*board, mode, budget, stop, tie_seed);
  std::string differences =
      Differences("large", RunLargeSearch(*board, mode, budget, stop, tie_seed), trail, mode);
  if (differences.empty() && board->size() <= kWordSearchMaxFreeRows) {
    differences =
        Differences("word", RunWordSearch(*board, mode, budget, stop, tie_seed), trail, mode);
  }
  if (differences.empty() && board->size() <= kWordSearchMaxFreeRows) {
    differences =
        Differences("word, word by word", RunWordByWordSearch(*board, mode, budget, stop, tie_seed),
                    trail, mode);
  }
  return differences.empty() ? "" : ::testing::PrintToString(composition) + ": " + differences;
}

TEST(SearchEnginesTest, FindTheSameFirstSolutionsAfterTheSameNodes) {
  int solved = 0;
  for (const Columns& board : NearTransition({{50, 16, 60}, {100, 23, 40}, {200, 32, 20}})) {
    for (uint64_t tie_seed : {0, 7}) {
      ASSERT_EQ(Compare(board, SearchMode::kFirstSolution, UINT64_MAX, tie_seed), "");
    }
    const StopCondition never;
    StopPoller stop(never);
    absl::StatusOr<FreeBoard> free_board = FreeBoard::Build(board, stop);
    ASSERT_TRUE(free_board.ok());
    solved += RunWordSearch(*free_board, SearchMode::kFirstSolution, UINT64_MAX, stop, 0).solutions;
  }
  // Both verdicts are exercised.
  EXPECT_GT(solved, 10);
  EXPECT_LT(solved, 110);
}

TEST(SearchEnginesTest, CountTheSameCompletionsAfterTheSameNodes) {
  for (const Columns& board : NearTransition({{40, 14, 40}, {70, 19, 20}})) {
    ASSERT_EQ(Compare(board, SearchMode::kCountAll, UINT64_MAX, 0), "");
  }
  // The empty 8 x 8 board: every cell open at the root.
  ASSERT_EQ(Compare(Columns(8, kEmptyRow), SearchMode::kCountAll, UINT64_MAX, 3), "");
}

TEST(SearchEnginesTest, RunOutOfTheSameBudgetAtTheSameNode) {
  for (const Columns& board : NearTransition({{100, 23, 30}, {800, 64, 5}})) {
    for (uint64_t budget : {1, 10, 100}) {
      ASSERT_EQ(Compare(board, SearchMode::kFirstSolution, budget, 0), "");
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
      ASSERT_EQ(Compare(board, SearchMode::kFirstSolution, UINT64_MAX, seed), "");
      const StopCondition never;
      StopPoller stop(never);
      absl::StatusOr<FreeBoard> free_board = FreeBoard::Build(board, stop);
      ASSERT_TRUE(free_board.ok());
      solved +=
          RunLargeSearch(*free_board, SearchMode::kFirstSolution, UINT64_MAX, stop, 0).solutions;
    }
  }
  // Both verdicts are exercised.
  EXPECT_GT(solved, 2) << solved;
  EXPECT_LT(solved, 22) << solved;
}

TEST(SearchEnginesTest, TheWordEngineHandlesSixtyFourFreeRows) {
  const Columns solution = test_boards::RandomSolution(300, 5);
  const Columns composition = test_boards::RandomSubComposition(solution, 300 - 64, 6);
  ASSERT_EQ(Compare(composition, SearchMode::kFirstSolution, UINT64_MAX, 0), "");
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

// The word engine on several threads searches the sequential search's tree,
// split into subtrees: an exhausted tree is the same proof after the same
// nodes, a solution is a valid one, a search cut short reports the share of
// the tree it searched, and helpers that start late leave the board alone.
#include "exact/parallel_search.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/stop_poller.h"
#include "counting_stop.h"
#include "exact/free_board.h"
#include "exact/word_search.h"
#include "gtest/gtest.h"
#include "nqueens/stop.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

using test_stop::kNever;

// Random compositions near the completion threshold (n ~ 0.19 d^2).
std::vector<Columns> NearTransition(uint32_t n, uint32_t free_rows, uint32_t count) {
  std::vector<Columns> boards;
  for (uint32_t seed = 1; seed <= count; ++seed) {
    boards.push_back(test_boards::RandomComposition(n, n - free_rows, seed));
  }
  return boards;
}

// The full board of a search's placement, "" if it is a solution extending
// `composition`, else what is wrong.
std::string CheckPlacement(const Columns& composition, const FreeBoard& board,
                           const SearchOutcome& outcome) {
  Columns full = composition;
  for (uint32_t a = 0; a < board.size(); ++a) {
    full[board.row(a) - 1] = board.column(outcome.placement[a]);
  }
  absl::StatusOr<ValidationReport> report = Validate(full);
  return report.ok() && report->complete ? "" : "not a solution";
}

struct Runs {
  SearchOutcome sequential, parallel;
};

Runs RunBoth(const FreeBoard& board, const SearchThreads& threads, uint64_t budget = UINT64_MAX) {
  StopPoller stop(kNever);
  const WordBoard word_board(board);
  WordSearch search(word_board, stop, 0);
  NodeAllowance allowance(budget);
  Runs runs;
  runs.sequential = search.Search({}, allowance);
  runs.parallel = RunParallelWordSearch(word_board, budget, stop, 0, threads);
  return runs;
}

FreeBoard Build(const Columns& composition) {
  StopPoller stop(kNever);
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  EXPECT_TRUE(board.ok());
  return *std::move(board);
}

TEST(ParallelSearchTest, ProvesWhatTheSequentialSearchProvesAfterTheSameNodes) {
  int unsolvable = 0;
  for (const Columns& composition : NearTransition(100, 23, 40)) {
    const FreeBoard board = Build(composition);
    for (const int threads : {2, 3}) {
      const Runs runs = RunBoth(board, {threads, {}});
      // Each thread may find a solution before it learns of another's.
      ASSERT_EQ(runs.parallel.solutions > 0, runs.sequential.solutions > 0);
      EXPECT_FALSE(runs.parallel.budget_exhausted);
      if (runs.parallel.solutions > 0) {
        EXPECT_EQ(CheckPlacement(composition, board, runs.parallel), "");
      } else {
        ++unsolvable;
        EXPECT_EQ(runs.parallel.nodes, runs.sequential.nodes);
        // The subtrees' shares and the dead ends of the top make the whole
        // tree.
        EXPECT_NEAR(runs.parallel.explored, 1.0, 1e-9);
      }
    }
  }
  EXPECT_GT(unsolvable, 10);
}

TEST(ParallelSearchTest, TheCallingThreadSearchesAloneWhenNoHelperCanRun) {
  const SearchThreads refused{4, [](std::function<void()>) { return false; }};
  for (const Columns& composition : NearTransition(100, 23, 10)) {
    const FreeBoard board = Build(composition);
    const Runs runs = RunBoth(board, refused);
    EXPECT_EQ(runs.parallel.solutions, runs.sequential.solutions);
  }
}

TEST(ParallelSearchTest, HelpersThatStartAfterTheSearchLeaveTheBoardAlone) {
  std::vector<std::function<void()>> late;
  const SearchThreads deferred{2, [&late](std::function<void()> job) {
                                 late.push_back(std::move(job));
                                 return true;
                               }};
  {
    const FreeBoard board = Build(NearTransition(100, 23, 1).front());
    StopPoller stop(kNever);
    auto word_board = std::make_unique<WordBoard>(board);
    RunParallelWordSearch(*word_board, UINT64_MAX, stop, 0, deferred);
  }  // the boards are gone (AddressSanitizer reports any use)
  ASSERT_EQ(late.size(), 1u);
  late.front()();
}

TEST(ParallelSearchTest, ASpentBudgetIsReportedNotAProof) {
  // An unsolvable board whose proof takes far more nodes than the budget.
  const FreeBoard board = Build(test_boards::HardUnsolvableBoard());
  const Runs runs = RunBoth(board, {2, {}}, 5000);
  EXPECT_TRUE(runs.sequential.budget_exhausted);
  EXPECT_TRUE(runs.parallel.budget_exhausted);
  EXPECT_EQ(runs.parallel.solutions, 0u);
  EXPECT_GT(runs.parallel.explored, 0.0);
  EXPECT_LT(runs.parallel.explored, 1.0);
}

// On one thread the subtrees are searched in the sequential search's order,
// so a search cut by its budget has explored the same share of the tree, but
// for the few nodes the top's expansion counts first. The board's subtrees
// differ in share (the nodes of its second level have 8 or 9 children).
TEST(ParallelSearchTest, ACutSearchReportsTheShareTheSequentialSearchReports) {
  const FreeBoard board = Build(test_boards::HardUnsolvableBoard());
  for (const uint64_t budget : {100000, 400000, 1000000}) {
    const Runs runs = RunBoth(board, {1, {}}, budget);
    ASSERT_TRUE(runs.parallel.budget_exhausted);
    EXPECT_NEAR(runs.parallel.explored, runs.sequential.explored, 0.01 * runs.sequential.explored)
        << budget;
  }
}

TEST(ParallelSearchTest, StopsWhenTheCallerCancels) {
  const FreeBoard board = Build(Columns(12, kEmptyRow));
  StopCondition cancelled;
  cancelled.cancelled = [] { return true; };
  StopPoller stop(cancelled);
  const WordBoard word_board(board);
  RunParallelWordSearch(word_board, UINT64_MAX, stop, 0, {2, {}});
  EXPECT_EQ(stop.status().code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens::internal

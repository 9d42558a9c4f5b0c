#include "exact/exact_search.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "base/rng.h"
#include "base/stop_poller.h"
#include "exact/free_board.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

constexpr uint64_t kNoBudget = UINT64_MAX;
// Solutions of the empty n x n board for n = 1..12 (OEIS A000170).
constexpr uint64_t kSolutionCounts[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};

// Runs the exact search with no stop condition.
absl::StatusOr<ExactResult> Decide(const Columns& composition, uint64_t budget = kNoBudget) {
  StopCondition never;
  StopPoller stop(never);
  return ExactComplete(composition, {budget}, stop);
}

// Checks that `result` is a full solution extending `composition`. Returns a
// description of the first problem, or "" if none.
std::string CheckSolution(const Columns& composition, const ExactResult& result) {
  const std::string board = ::testing::PrintToString(composition);
  absl::StatusOr<ValidationReport> report = Validate(result.columns);
  if (!report.ok() || !report->complete) return board + ": not a solution";
  if (result.columns.size() != composition.size()) return board + ": wrong size";
  for (size_t i = 0; i < composition.size(); ++i) {
    if (composition[i] != kEmptyRow && composition[i] != result.columns[i]) {
      return board + ": moved the queen of row " + std::to_string(i + 1);
    }
  }
  return "";
}

// Checks the verdict against brute force (n <= 30), and a solution with
// CheckSolution. Returns a description of the first problem, or "" if none.
std::string CheckAgainstBruteForce(const Columns& composition) {
  absl::StatusOr<ExactResult> result = Decide(composition);
  const std::string board = ::testing::PrintToString(composition);
  if (!result.ok()) return board + ": " + result.status().ToString();
  const bool solvable = test_boards::BruteForceHasCompletion(composition);
  if (result->verdict != (solvable ? ExactVerdict::kSolved : ExactVerdict::kUnsolvable)) {
    return board + ": wrong verdict, brute force says " + (solvable ? "solvable" : "unsolvable");
  }
  return solvable ? CheckSolution(composition, *result) : "";
}

// An independent check for boards too large for brute force, deliberately
// plain: a DFS over the free rows that fills the row with the fewest free
// cells, recounting everything from scratch at every node (no trail, no
// incremental matching, no column branching). Nodes where the empty rows
// cannot even take distinct free columns (a fresh bipartite matching) are
// cut, or it could not decide near-transition boards of 50 rows and more.
class PlainSearch {
 public:
  explicit PlainSearch(const Columns& composition)
      : n_(static_cast<uint32_t>(composition.size())),
        column_used_(n_ + 1),
        diagonal_used_(2 * n_ + 1),
        anti_diagonal_used_(2 * n_ + 1) {
    for (uint32_t row = 1; row <= n_; ++row) {
      if (composition[row - 1] == kEmptyRow) {
        empty_rows_.push_back(row);
      } else {
        Take(row, composition[row - 1], true);
      }
    }
    for (uint32_t column = 1; column <= n_; ++column) {
      if (!column_used_[column]) free_columns_.push_back(column);
    }
  }

  // Whether a completion exists; nullopt when `max_nodes` did not suffice.
  std::optional<bool> HasCompletion(uint64_t max_nodes) {
    nodes_left_ = max_nodes;
    const bool found = Search();
    if (nodes_left_ == 0 && !found) return std::nullopt;
    return found;
  }

 private:
  bool Free(uint32_t row, uint32_t column) const {
    return !column_used_[column] && !diagonal_used_[n_ + column - row] &&
           !anti_diagonal_used_[row + column];
  }
  void Take(uint32_t row, uint32_t column, bool taken) {
    column_used_[column] = diagonal_used_[n_ + column - row] = anti_diagonal_used_[row + column] =
        taken;
  }

  // Kuhn's augmenting paths on the free cells.
  bool RowsTakeDistinctColumns() {
    std::vector<int> row_of_column(n_ + 1, -1);
    for (size_t i = 0; i < empty_rows_.size(); ++i) {
      std::vector<bool> seen(n_ + 1);
      if (!Augment(static_cast<int>(i), seen, row_of_column)) return false;
    }
    return true;
  }
  bool Augment(int i, std::vector<bool>& seen, std::vector<int>& row_of_column) {
    for (uint32_t column : free_columns_) {
      if (seen[column] || !Free(empty_rows_[i], column)) continue;
      seen[column] = true;
      if (row_of_column[column] < 0 || Augment(row_of_column[column], seen, row_of_column)) {
        row_of_column[column] = i;
        return true;
      }
    }
    return false;
  }

  bool Search() {
    if (empty_rows_.empty()) return true;
    if (!RowsTakeDistinctColumns()) return false;
    size_t best = 0, fewest = SIZE_MAX;
    for (size_t i = 0; i < empty_rows_.size(); ++i) {
      const size_t free_cells = std::count_if(free_columns_.begin(), free_columns_.end(),
                                              [&](uint32_t c) { return Free(empty_rows_[i], c); });
      if (free_cells < fewest) fewest = free_cells, best = i;
    }
    const uint32_t row = empty_rows_[best];
    std::swap(empty_rows_[best], empty_rows_.back());
    empty_rows_.pop_back();
    bool found = false;
    for (uint32_t column : free_columns_) {
      if (found || nodes_left_ == 0) break;
      if (!Free(row, column)) continue;
      --nodes_left_;
      Take(row, column, true);
      found = Search();
      Take(row, column, false);
    }
    empty_rows_.push_back(row);
    return found;
  }

  uint32_t n_;
  std::vector<bool> column_used_, diagonal_used_, anti_diagonal_used_;
  std::vector<uint32_t> empty_rows_, free_columns_;
  uint64_t nodes_left_ = 0;
};

// Gent, Jefferson & Nightingale's random instances (JAIR 2017): queens on a
// random free row and random free column, skipped when a diagonal is taken,
// until n - free_rows stand. Fewer when n^2 draws did not place them all.
Columns GentRandomComposition(uint32_t n, uint32_t free_rows, Rng& rng) {
  std::vector<uint32_t> rows(n), columns(n);
  for (uint32_t i = 0; i < n; ++i) rows[i] = columns[i] = i + 1;
  std::vector<bool> diagonal_used(2 * n + 1), anti_diagonal_used(2 * n + 1);
  Columns composition(n, kEmptyRow);
  uint32_t left = n;  // rows[0..left) and columns[0..left) are free
  for (uint64_t draw = 0; draw < uint64_t{n} * n && left > free_rows; ++draw) {
    const uint32_t i = rng.Below(left), j = rng.Below(left);
    const uint32_t row = rows[i], column = columns[j];
    if (diagonal_used[n + column - row] || anti_diagonal_used[row + column]) continue;
    diagonal_used[n + column - row] = anti_diagonal_used[row + column] = true;
    composition[row - 1] = column;
    rows[i] = rows[--left];
    columns[j] = columns[left];
  }
  return composition;
}

// The engine's verdicts on a sample, each checked independently.
struct Tally {
  int solved = 0;     // the solution validated
  int confirmed = 0;  // UNSOLVABLE, and the plain search agrees
  int unchecked = 0;  // UNSOLVABLE, the plain search ran out of nodes
};

// Checks the engine's verdict on `composition`: a solution with
// CheckSolution, UNSOLVABLE with a PlainSearch of at most `plain_nodes`.
// Returns a description of the first problem, or "".
std::string CheckVerdict(const Columns& composition, uint64_t plain_nodes, Tally& tally) {
  const std::string board = "board with " + std::to_string(composition.size()) + " rows";
  absl::StatusOr<ExactResult> result = Decide(composition);
  if (!result.ok()) return board + ": " + result.status().ToString();
  if (result->verdict == ExactVerdict::kSolved) {
    ++tally.solved;
    return CheckSolution(composition, *result);
  }
  if (result->verdict != ExactVerdict::kUnsolvable) return board + ": undecided";
  const std::optional<bool> solvable = PlainSearch(composition).HasCompletion(plain_nodes);
  if (!solvable.has_value()) {
    ++tally.unchecked;
    return "";
  }
  if (*solvable) return board + ": UNSOLVABLE, but the plain search found a completion";
  ++tally.confirmed;
  return "";
}

// Size of a sample of Gent et al.'s random instances.
struct Sample {
  uint32_t n, free_rows, instances;
};

Tally CheckSamples(std::initializer_list<Sample> samples, uint64_t plain_nodes) {
  Rng rng(2017);
  Tally tally;
  for (const Sample& sample : samples) {
    for (uint32_t i = 0; i < sample.instances; ++i) {
      const Columns composition = GentRandomComposition(sample.n, sample.free_rows, rng);
      const std::string problem = CheckVerdict(composition, plain_nodes, tally);
      EXPECT_EQ(problem, "") << sample.free_rows << " free rows, instance " << i;
    }
  }
  return tally;
}

TEST(ExactCompleteTest, AFullBoardIsSolvedAsIs) {
  const Columns solution = {2, 4, 1, 3};
  absl::StatusOr<ExactResult> result = Decide(solution);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->verdict, ExactVerdict::kSolved);
  EXPECT_EQ(result->columns, solution);
}

TEST(ExactCompleteTest, ProvesTwoAndThreeUnsolvable) {
  for (uint32_t n : {2u, 3u}) {
    absl::StatusOr<ExactResult> result = Decide(Columns(n, kEmptyRow));
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->verdict, ExactVerdict::kUnsolvable) << "n = " << n;
  }
}

TEST(ExactCompleteTest, RejectsBoardsThatAreNotCompositions) {
  EXPECT_EQ(Decide(Columns{1, 1, 0, 0}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Decide(Columns{5, 0, 0, 0}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ExactCompleteTest, SolvesALargeBoardWith64FreeRows) {
  const Columns solution = test_boards::RandomSolution(300, 7);
  const Columns composition = test_boards::RandomSubComposition(solution, 300 - 64, 8);
  absl::StatusOr<ExactResult> result = Decide(composition);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->verdict, ExactVerdict::kSolved);
  EXPECT_EQ(CheckSolution(composition, *result), "");
}

TEST(ExactCompleteTest, SolvesSubCompositionsAroundWordBoundaries) {
  // Rows of cells are bitsets of 64-bit words: free rows around multiples of
  // 64, on boards around multiples of 64 too.
  for (uint32_t n : {63u, 64u, 65u, 127u, 128u, 129u, 300u}) {
    for (uint32_t free_rows : {20u, 63u, 64u, 65u, 127u, 128u, 129u}) {
      if (free_rows > n) continue;
      const Columns composition = test_boards::RandomSubComposition(
          test_boards::RandomSolution(n, n), n - free_rows, free_rows);
      absl::StatusOr<ExactResult> result = Decide(composition);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_EQ(result->verdict, ExactVerdict::kSolved) << n << " rows, " << free_rows << " free";
      EXPECT_EQ(CheckSolution(composition, *result), "");
    }
  }
}

TEST(ExactCompleteTest, SolvesSubCompositionsWith65To200FreeRows) {
  for (uint32_t free_rows : {65u, 100u, 150u, 200u}) {
    const uint32_t n = 2 * free_rows + 100;
    const Columns composition = test_boards::RandomSubComposition(
        test_boards::RandomSolution(n, free_rows), n - free_rows, n);
    absl::StatusOr<ExactResult> result = Decide(composition);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->verdict, ExactVerdict::kSolved) << free_rows << " free rows";
    EXPECT_EQ(CheckSolution(composition, *result), "");
  }
}

TEST(ExactCompleteTest, SolvesLargeBoardsOnEitherSideOfTheLineLists) {
  // Up to kLineListsMaxFreeRows free rows the trail engine searches, above
  // it the large engine.
  const uint32_t n = 1'000'000;
  const std::optional<Columns> solution = ConstructSolution(n);
  ASSERT_TRUE(solution.has_value());
  for (uint32_t free_rows : {kLineListsMaxFreeRows, kLineListsMaxFreeRows + 1, 2000u}) {
    const Columns composition = test_boards::RandomSubComposition(*solution, n - free_rows, 1);
    absl::StatusOr<ExactResult> result = Decide(composition);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->verdict, ExactVerdict::kSolved) << free_rows << " free rows";
    EXPECT_EQ(CheckSolution(composition, *result), "");
  }
}

TEST(ExactCompleteTest, AgreesWithAPlainSearchNearThePhaseTransition) {
  // Where about half of Gent et al.'s instances extend: n ~ 0.19 d^2.
  const Tally tally =
      CheckSamples({{50, 16, 150}, {100, 23, 150}, {200, 32, 100}}, /*plain_nodes=*/100'000);
  EXPECT_EQ(tally.unchecked, 0);
  EXPECT_GT(tally.solved, 100);
  EXPECT_GT(tally.confirmed, 100);
}

TEST(ExactCompleteTest, AgreesWithAPlainSearchWithMoreThan64FreeRows) {
  // The transition drifts towards n ~ 0.5 d^2 as d grows (see
  // docs/hard-instances.md). The plain search cannot prove every UNSOLVABLE
  // there in time; those it cannot are left unchecked.
  const Tally tally = CheckSamples(
      {{2000, 76, 60}, {2000, 85, 100}, {5000, 115, 40}, {20000, 200, 20}}, /*plain_nodes=*/5'000);
  EXPECT_GT(tally.solved, 50);
  EXPECT_GT(tally.confirmed, 50);
  EXPECT_LT(tally.unchecked, 10);
}

TEST(ExactCompleteTest, AgreesWithBruteForceOnEveryCompositionUpTo8) {
  for (uint32_t n = 1; n <= 8; ++n) {
    uint64_t full_boards = 0, failures = 0;
    std::string first_problem;
    test_boards::ForEachComposition(n, [&](const Columns& composition) {
      full_boards += std::count(composition.begin(), composition.end(), kEmptyRow) == 0;
      const std::string problem = CheckAgainstBruteForce(composition);
      if (!problem.empty() && failures++ == 0) first_problem = problem;
    });
    // The enumeration reaches every solution, so it is not missing boards.
    EXPECT_EQ(full_boards, kSolutionCounts[n - 1]) << "n = " << n;
    EXPECT_EQ(failures, 0u) << "n = " << n << ", first: " << first_problem;
  }
}

TEST(ExactCompleteTest, AgreesWithBruteForceOnRandomCompositions9To14) {
  Rng rng(1912'05935);
  int unsolvable = 0;
  for (uint32_t n = 9; n <= 14; ++n) {
    for (int trial = 0; trial < 1000; ++trial) {
      const uint32_t k = rng.Below(n);
      const uint64_t seed = rng.Next();
      // Half sub-compositions of solutions (always solvable), half random
      // compositions (often not).
      const Columns composition =
          trial % 2 == 0
              ? test_boards::RandomSubComposition(test_boards::RandomSolution(n, seed), k, seed)
              : test_boards::RandomComposition(n, k, seed);
      const std::string problem = CheckAgainstBruteForce(composition);
      ASSERT_TRUE(problem.empty()) << problem;
      unsolvable += !test_boards::BruteForceHasCompletion(composition);
    }
  }
  // The sample exercises both verdicts.
  EXPECT_GT(unsolvable, 100);
  EXPECT_LT(unsolvable, 5000);
}

TEST(ExactCompleteTest, ATinyBudgetGivesUpRatherThanClaimingUnsolvable) {
  // n = 3 is unsolvable, but proving it takes more than one node.
  for (uint32_t n : {3u, 10u, 20u}) {
    absl::StatusOr<ExactResult> result = Decide(Columns(n, kEmptyRow), 1);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->verdict, ExactVerdict::kBudgetExhausted) << "n = " << n;
    EXPECT_LE(result->nodes, 1u);
  }
}

TEST(ExactCompleteTest, ReturnsCancelledWhenTheCallerCancels) {
  StopCondition condition;
  condition.cancelled = [] { return true; };
  StopPoller stop(condition);
  EXPECT_EQ(ExactComplete(Columns(20, kEmptyRow), {kNoBudget}, stop).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(ExactCompleteTest, ReturnsCancelledFromInsideTheSearch) {
  // The callback says "go on" 100 times, more than building the board and
  // starting the runs poll, so the stop must come from the polling in the
  // search loop: the proof visits far more nodes than 100 polling strides.
  constexpr int kGoOn = 100;
  std::atomic<int> polls{0};
  StopCondition condition;
  condition.cancelled = [&polls] { return ++polls > kGoOn; };
  StopPoller stop(condition);
  EXPECT_EQ(ExactComplete(test_boards::HardUnsolvableBoard(), {kNoBudget}, stop).status().code(),
            absl::StatusCode::kCancelled);
  EXPECT_EQ(polls.load(), kGoOn + 1);
}

}  // namespace
}  // namespace nqueens::internal

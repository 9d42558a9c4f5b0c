// Complete(): every answer is checked by the validator (verdicts_test checks
// verdicts against brute force).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "nqueens/params.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "pipeline/base_levels.h"

namespace nqueens {
namespace {

// k random rows of `solution`: a composition that extends by construction.
Columns KeepRandomRows(const Columns& solution, uint32_t k, std::mt19937_64& random) {
  std::vector<uint32_t> rows(solution.size());
  for (uint32_t i = 0; i < rows.size(); ++i) rows[i] = i;
  std::shuffle(rows.begin(), rows.end(), random);
  Columns composition(solution.size(), kEmptyRow);
  for (uint32_t i = 0; i < k; ++i) composition[rows[i]] = solution[rows[i]];
  return composition;
}

// Checks a SOLVED result: a full valid board that keeps every input queen.
void ExpectSolutionExtending(const CompletionResult& result, const Columns& input) {
  ASSERT_EQ(result.outcome, Outcome::kSolved);
  absl::StatusOr<ValidationReport> report = Validate(result.columns);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete) << "n=" << input.size();
  ASSERT_EQ(result.columns.size(), input.size());
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      ASSERT_EQ(result.columns[row], input[row]) << "row " << row + 1;
    }
  }
}

// The pipeline itself: inputs from the explicit construction are not
// short-cut here (known_solutions_test covers that stage).
CompleteOptions Seeded(uint64_t seed) {
  CompleteOptions options;
  options.seed = seed;
  options.params.match_construction = false;
  return options;
}

class CompletePositiveTest : public testing::TestWithParam<uint32_t> {};

TEST_P(CompletePositiveTest, CompletesCompositionsTakenFromSolutions) {
  const uint32_t n = GetParam();
  std::mt19937_64 random(n);
  // Two different solutions to draw compositions from.
  std::vector<Columns> solutions = {*ConstructSolution(n)};
  absl::StatusOr<CompletionResult> random_solution =
      Solve(n, SolveMethod::kRandom, SolveOptions(Seeded(n)));
  ASSERT_TRUE(random_solution.ok()) << random_solution.status();
  ExpectSolutionExtending(*random_solution, Columns(n, kEmptyRow));
  solutions.push_back(random_solution->columns);
  const int trials = n <= 1000 ? 40 : 6;
  for (int trial = 0; trial < trials; ++trial) {
    const uint32_t k = std::uniform_int_distribution<uint32_t>(0, n - 1)(random);
    const Columns input = KeepRandomRows(solutions[trial % 2], k, random);
    absl::StatusOr<CompletionResult> result = Complete(input, Seeded(trial));
    ASSERT_TRUE(result.ok()) << result.status();
    ExpectSolutionExtending(*result, input);
    EXPECT_EQ(result->stats.queens_given, k);
  }
}

// Every regime of section 4.2: finish only, block 2 or 4, and blocks 1-5.
INSTANTIATE_TEST_SUITE_P(Sizes, CompletePositiveTest,
                         testing::Values(4u, 5u, 8u, 12u, 20u, 49u, 50u, 64u, 99u, 100u, 150u, 500u,
                                         1000u, 5000u, 40000u));

// How many distinct columns row `row` gets over `seeds` completions of the
// empty n x n board.
size_t DistinctOverSeeds(uint32_t n, uint64_t seeds, const PipelineParams& params, int threads,
                         uint32_t row) {
  std::set<uint32_t> columns;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    CompleteOptions options = Seeded(seed);
    options.params = params;
    options.threads.count = threads;
    const Columns empty(n, kEmptyRow);
    absl::StatusOr<CompletionResult> result = Complete(empty, options);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return 0;
    ExpectSolutionExtending(*result, empty);
    columns.insert(result->columns[row - 1]);
  }
  return columns.size();
}

// Block 1's chunked passes on two threads keep the solutions as varied over
// seeds as the paper's pairing on one: at n = 2,000, 200 seeds put a middle
// row's queen on about 190 distinct columns either way (uniform draws would
// give 190); a pairing narrowed to a few families would put it on far fewer.
TEST(CompleteTest, SolutionsOverSeedsStayVaried) {
  const PipelineParams defaults;
  PipelineParams chunked;
  chunked.pairing_chunks_from_n = 0;
  chunked.pairing_chunk = 64;
  const size_t paper = DistinctOverSeeds(2000, 200, defaults, 1, 1000);
  EXPECT_GE(paper, 150u);
  EXPECT_GE(DistinctOverSeeds(2000, 200, chunked, 2, 1000), 0.9 * paper);
}

TEST(CompleteTest, SameSeedSameAnswer) {
  const uint32_t n = 2000;
  std::mt19937_64 random(3);
  absl::StatusOr<CompletionResult> source = Solve(n, SolveMethod::kRandom, SolveOptions(Seeded(3)));
  ASSERT_TRUE(source.ok());
  ExpectSolutionExtending(*source, Columns(n, kEmptyRow));
  for (uint32_t k : {0u, 1000u, 1900u}) {
    const Columns input = KeepRandomRows(source->columns, k, random);
    absl::StatusOr<CompletionResult> first = Complete(input, Seeded(42));
    absl::StatusOr<CompletionResult> second = Complete(input, Seeded(42));
    ASSERT_TRUE(first.ok() && second.ok());
    ExpectSolutionExtending(*first, input);
    EXPECT_EQ(first->columns, second->columns);
    EXPECT_EQ(first->stats.backtracks, second->stats.backtracks);
    EXPECT_EQ(first->stats.seed, 42u);
  }
}

// `board` fed to an IncomingComposition in pieces of `piece` rows, up to
// row `fed` (the rest is left for Complete to place).
IncomingComposition Fed(const Columns& board, uint32_t piece, uint32_t fed) {
  IncomingComposition incoming(static_cast<uint32_t>(board.size()));
  for (uint32_t rows = 0; rows < fed;) {
    rows = std::min(fed, rows + piece);
    incoming.Place(board.data(), rows);
  }
  return incoming;
}

TEST(CompleteTest, AnIncomingCompositionGivesWhatItsBoardGives) {
  const uint32_t n = 5000;
  absl::StatusOr<CompletionResult> source = Solve(n, SolveMethod::kRandom, SolveOptions(Seeded(4)));
  ASSERT_TRUE(source.ok());
  std::mt19937_64 random(5);
  for (uint32_t k : {0u, 2500u, 4900u}) {
    const Columns input = KeepRandomRows(source->columns, k, random);
    absl::StatusOr<CompletionResult> whole = Complete(input, Seeded(42));
    ASSERT_TRUE(whole.ok()) << whole.status();
    ExpectSolutionExtending(*whole, input);
    // All rows fed in pieces across the placement's blocks; then only part.
    for (uint32_t fed : {n, 3000u, 0u}) {
      IncomingComposition incoming = Fed(input, 1234, fed);
      EXPECT_EQ(incoming.placed(), fed);
      absl::StatusOr<CompletionResult> streamed = Complete(input, std::move(incoming), Seeded(42));
      ASSERT_TRUE(streamed.ok()) << streamed.status();
      EXPECT_EQ(streamed->columns, whole->columns) << "k=" << k << " fed=" << fed;
      EXPECT_EQ(streamed->stats.queens_given, k);
    }
  }
}

TEST(CompleteTest, AnIncomingCompositionNamesAttackingQueens) {
  Columns input(5000, kEmptyRow);
  input[999] = 7;  // rows 1000 and 4000 share column 7
  input[3999] = 7;
  const absl::StatusOr<CompletionResult> whole = Complete(input);
  ASSERT_EQ(whole.status().code(), absl::StatusCode::kInvalidArgument);
  // Seen while fed (rows 1 .. 5000), or only when Complete places the rest.
  for (uint32_t fed : {5000u, 2000u}) {
    IncomingComposition incoming = Fed(input, 700, fed);
    EXPECT_EQ(incoming.placed(), fed == 5000 ? 3500u : fed);
    const absl::StatusOr<CompletionResult> streamed = Complete(input, std::move(incoming));
    EXPECT_EQ(streamed.status(), whole.status());
  }
  EXPECT_EQ(Complete(Columns(10, kEmptyRow), IncomingComposition(11)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CompleteTest, StartsInTheBlockOfItsRegime) {
  const PipelineParams params;
  const internal::BaseLevels levels = internal::ComputeBaseLevels(1000, params);
  std::mt19937_64 random(5);
  const Columns solution = *ConstructSolution(1000);
  const struct {
    uint32_t k;
    Block block;
  } cases[] = {{0, Block::kRandomPairing},
               {levels.level2, Block::kProjection},
               {levels.level3, Block::kFinishPrepare}};
  for (const auto& c : cases) {
    absl::StatusOr<CompletionResult> result =
        Complete(KeepRandomRows(solution, c.k, random), Seeded(1));
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->stats.start_block, c.block) << "k=" << c.k;
  }
  absl::StatusOr<CompletionResult> small = Complete(Columns(30, kEmptyRow), Seeded(1));
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->stats.start_block, Block::kFinishPrepare);
  absl::StatusOr<CompletionResult> turbulent = Complete(Columns(60, kEmptyRow), Seeded(1));
  ASSERT_TRUE(turbulent.ok());
  EXPECT_EQ(turbulent->stats.start_block, Block::kProjection);
}

TEST(CompleteTest, StatisticsAddUp) {
  absl::StatusOr<CompletionResult> result = Complete(Columns(3000, kEmptyRow), Seeded(9));
  ASSERT_TRUE(result.ok());
  uint64_t per_block = 0;
  absl::Duration in_blocks;
  for (int block = 0; block < kBlockCount; ++block) {
    per_block += result->stats.backtracks_to_block[block];
    in_blocks += result->stats.time_in_block[block];
  }
  EXPECT_EQ(per_block, result->stats.backtracks);
  EXPECT_LE(in_blocks, result->stats.total_time);
  EXPECT_GT(result->stats.time_in_block[static_cast<int>(Block::kRandomPairing)],
            absl::ZeroDuration());
}

TEST(CompleteTest, FullBoardIsReturnedAsItIs) {
  const Columns solution = *ConstructSolution(10);
  absl::StatusOr<CompletionResult> result = Complete(solution);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, Outcome::kSolved);
  EXPECT_EQ(result->columns, solution);
}

TEST(CompleteTest, SmallSetsOfQueensAlwaysComplete) {
  // Any n/60 non-attacking queens extend (Glock, Munha Correia, Sudakov 2022).
  std::mt19937_64 random(11);
  for (uint32_t n : {600u, 3000u}) {
    for (int trial = 0; trial < 10; ++trial) {
      Columns input(n, kEmptyRow);
      for (uint32_t placed = 0; placed < n / 60;) {
        const uint32_t row = std::uniform_int_distribution<uint32_t>(0, n - 1)(random);
        const uint32_t column = std::uniform_int_distribution<uint32_t>(1, n)(random);
        if (input[row] != kEmptyRow) continue;
        input[row] = column;
        if (CheckComposition(input).ok()) {
          ++placed;
        } else {
          input[row] = kEmptyRow;
        }
      }
      absl::StatusOr<CompletionResult> result = Complete(input, Seeded(trial));
      ASSERT_TRUE(result.ok());
      ExpectSolutionExtending(*result, input);
    }
  }
}

TEST(CompleteTest, GivingUpIsUndecidedNeverUnsolvable) {
  // n = 4 with a corner queen has no completion, but with the exact search
  // switched off nothing may claim so.
  Columns input(4, kEmptyRow);
  input[0] = 1;
  CompleteOptions options;
  options.params.exact_max_free_rows = 0;
  options.params.max_restarts = 2;
  absl::StatusOr<CompletionResult> result = Complete(input, options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, Outcome::kUndecided);
  EXPECT_EQ(result->stats.restarts, 2u);
  EXPECT_TRUE(result->columns.empty());

  options.params.exact_max_free_rows = 64;
  result = Complete(input, options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, Outcome::kUnsolvable);
}

TEST(CompleteTest, RejectsAttackingQueensNamingThem) {
  Columns input(8, kEmptyRow);
  input[1] = 3;
  input[4] = 6;  // rows 2 and 5 share a diagonal
  absl::StatusOr<CompletionResult> result = Complete(input);
  ASSERT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("row 2"), std::string::npos) << result.status();
  EXPECT_NE(result.status().message().find("row 5"), std::string::npos) << result.status();

  EXPECT_EQ(Complete(Columns{}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Complete(Columns{0, 9, 0}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CompleteTest, StopsWhenCancelledOrPastItsDeadline) {
  CompleteOptions options;
  options.stop.cancelled = [] { return true; };
  EXPECT_EQ(Complete(Columns(1'000'000, kEmptyRow), options).status().code(),
            absl::StatusCode::kCancelled);

  options.stop.cancelled = nullptr;
  options.stop.deadline = absl::Now() - absl::Seconds(1);
  EXPECT_EQ(Complete(Columns(1'000'000, kEmptyRow), options).status().code(),
            absl::StatusCode::kDeadlineExceeded);
}

}  // namespace
}  // namespace nqueens

// Block 1 (random_pairing.cc) on its own, with one chunk per pass (small
// boards, the paper's pairing) and with the chunked passes of huge boards
// forced onto boards of a few thousand rows.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/time/time.h"
#include "counting_stop.h"
#include "gtest/gtest.h"
#include "nqueens/params.h"
#include "nqueens/validate.h"
#include "pipeline/base_levels.h"
#include "pipeline/stages.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

// Chunks of 64 pairs whatever the board's size.
PipelineParams Chunked() {
  PipelineParams params;
  params.pairing_chunks_from_n = 0;
  params.pairing_chunk = 64;
  return params;
}

struct Outcome {
  StageResult result = StageResult::kStopped;
  Columns board;
  std::vector<uint32_t> rows, columns;  // what RandomPairing says is still free
  size_t rows_capacity = 0, columns_capacity = 0;
};

Outcome Pair(const Columns& composition, uint32_t target, const PipelineParams& params,
             uint64_t seed, const StopCondition& condition = {}, int threads = 1) {
  const StopCondition never;
  StopPoller never_stop(never);
  absl::StatusOr<BoardState> state = BoardState::Create(composition, never_stop);
  EXPECT_TRUE(state.ok()) << state.status();
  if (!state.ok()) return {};
  Rng rng(seed);
  StopPoller stop(condition);
  HugeVector<uint32_t> rows, columns;
  Outcome outcome;
  SearchThreads search_threads;
  search_threads.count = threads;
  outcome.result = RandomPairing(*state, target, params, search_threads, rng, stop, rows, columns);
  EXPECT_EQ(state->queens(), std::count_if(state->columns().begin(), state->columns().end(),
                                           [](uint32_t column) { return column != kEmptyRow; }));
  outcome.board = state->columns();
  outcome.rows.assign(rows.begin(), rows.end());
  outcome.columns.assign(columns.begin(), columns.end());
  outcome.rows_capacity = rows.capacity();
  outcome.columns_capacity = columns.capacity();
  return outcome;
}

void ExpectFreeLinesOf(const Outcome& outcome) {
  const uint32_t n = static_cast<uint32_t>(outcome.board.size());
  std::vector<uint32_t> empty_rows, unused_columns;
  std::vector<bool> used(n + 1, false);
  for (uint32_t row = 1; row <= n; ++row) {
    if (outcome.board[row - 1] == kEmptyRow) empty_rows.push_back(row);
    used[outcome.board[row - 1]] = true;
  }
  for (uint32_t column = 1; column <= n; ++column) {
    if (!used[column]) unused_columns.push_back(column);
  }
  std::vector<uint32_t> rows = outcome.rows, columns = outcome.columns;
  std::sort(rows.begin(), rows.end());
  std::sort(columns.begin(), columns.end());
  EXPECT_EQ(rows, empty_rows);
  EXPECT_EQ(columns, unused_columns);
}

TEST(RandomPairingTest, ReachesBaseLevel2WithQueensThatDoNotAttack) {
  for (const PipelineParams& params : {PipelineParams{}, Chunked()}) {
    for (uint32_t n : {1000u, 5000u}) {
      for (uint32_t k : {0u, n / 2}) {
        const Columns solution = test_boards::RandomSolution(n, n + k);
        const Columns composition = test_boards::RandomSubComposition(solution, k, n + k + 1);
        const uint32_t target = ComputeBaseLevels(n, params).level2;
        const Outcome outcome = Pair(composition, target, params, n + k);
        SCOPED_TRACE(testing::Message() << "n " << n << ", k " << k << ", chunk rows from "
                                        << params.pairing_chunks_from_n);
        ASSERT_EQ(outcome.result, StageResult::kReached);
        const absl::StatusOr<ValidationReport> report = Validate(outcome.board);
        ASSERT_TRUE(report.ok()) << report.status();
        EXPECT_TRUE(report->valid);
        EXPECT_EQ(report->queen_count, target);
        for (uint32_t row = 0; row < n; ++row) {
          if (composition[row] != kEmptyRow) {
            ASSERT_EQ(outcome.board[row], composition[row]);
          }
        }
        ExpectFreeLinesOf(outcome);
        // The lists held every free line; blocks 2-5 run under them.
        EXPECT_EQ(outcome.rows_capacity, outcome.rows.size());
        EXPECT_EQ(outcome.columns_capacity, outcome.columns.size());
      }
    }
  }
}

// A row's queen can land in any part of the board: the chunk a row chunk
// meets is random. Over 400 seeds, the middle row of an empty 2,048-row board
// (32 chunks) gets its queen in each eighth of the columns at least 4% of the
// times it gets one; pairing each row chunk with the same column chunk would
// keep it in one or two eighths.
TEST(RandomPairingTest, ChunkedPartnersSpreadOverTheBoard) {
  constexpr uint32_t kN = 2048, kRow = kN / 2;
  const PipelineParams params = Chunked();
  const uint32_t target = ComputeBaseLevels(kN, params).level2;
  std::vector<int> eighths(8, 0);
  int placed = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const Outcome outcome = Pair(Columns(kN, kEmptyRow), target, params, seed);
    ASSERT_EQ(outcome.result, StageResult::kReached);
    const uint32_t column = outcome.board[kRow - 1];
    if (column == kEmptyRow) continue;
    ++placed;
    ++eighths[(column - 1) * 8 / kN];
  }
  ASSERT_GT(placed, 300);
  for (int eighth = 0; eighth < 8; ++eighth) {
    EXPECT_GE(eighths[eighth], placed / 25) << "eighth " << eighth << " of " << placed;
  }
}

TEST(RandomPairingTest, SameSeedSameBoard) {
  const Columns empty(3000, kEmptyRow);
  for (const PipelineParams& params : {PipelineParams{}, Chunked()}) {
    const uint32_t target = ComputeBaseLevels(3000, params).level2;
    EXPECT_EQ(Pair(empty, target, params, 9).board, Pair(empty, target, params, 9).board);
    EXPECT_NE(Pair(empty, target, params, 9).board, Pair(empty, target, params, 10).board);
  }
}

// Chunk pairs run on several threads at once, yet the board is the one a
// single thread leaves: it depends on the seed alone. 300 chunks of 64 pairs
// a pass keep both threads busy, and their diagonals meet often enough on
// 20,000 rows that the order of chunk_pair_order.h is exercised.
TEST(RandomPairingTest, TheThreadsDoNotChangeTheBoard) {
  constexpr uint32_t kN = 20000;
  const PipelineParams params = Chunked();
  const uint32_t target = ComputeBaseLevels(kN, params).level2;
  for (uint32_t k : {0u, kN / 3}) {
    const Columns composition =
        test_boards::RandomSubComposition(test_boards::RandomSolution(kN, 5), k, 6);
    const Outcome alone = Pair(composition, target, params, 7);
    ASSERT_EQ(alone.result, StageResult::kReached);
    for (int threads : {2, 3}) {
      const Outcome together = Pair(composition, target, params, 7, {}, threads);
      ASSERT_EQ(together.result, StageResult::kReached);
      EXPECT_EQ(together.board, alone.board) << threads << " threads, k " << k;
      ExpectFreeLinesOf(together);
    }
  }
}

// Stopped at its 5th, 20th or 80th poll, while both threads pair chunks.
TEST(RandomPairingTest, StopsOnSeveralThreads) {
  for (uint64_t stop_at : {5u, 20u, 80u}) {
    test_stop::CountingStop stop(stop_at);
    EXPECT_EQ(Pair(Columns(20000, kEmptyRow), 19000, Chunked(), 1, stop.condition(), 2).result,
              StageResult::kStopped)
        << "stopped at poll " << stop_at;
  }
}

// No 3 x 3 board has three queens that do not attack: passes place fewer and
// fewer, until one places none.
TEST(RandomPairingTest, DeadEndWhenAPassPlacesNothing) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Outcome outcome = Pair(Columns(3, kEmptyRow), 3, PipelineParams{}, seed);
    EXPECT_EQ(outcome.result, StageResult::kDeadEnd);
    const absl::StatusOr<ValidationReport> report = Validate(outcome.board);
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->valid);
    ExpectFreeLinesOf(outcome);
  }
}

TEST(RandomPairingTest, StopsWhenAsked) {
  StopCondition past_deadline;
  past_deadline.deadline = absl::InfinitePast();
  for (const PipelineParams& params : {PipelineParams{}, Chunked()}) {
    EXPECT_EQ(Pair(Columns(5000, kEmptyRow), 4000, params, 1, past_deadline).result,
              StageResult::kStopped);
  }
}

}  // namespace
}  // namespace nqueens::internal

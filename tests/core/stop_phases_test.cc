// Each O(n) phase of the core polls its StopPoller at least once every
// StopPoller::kRowsPerPoll rows (or array elements), so the work between two
// polls does not grow with n: what keeps a stop within 100 ms at n = 10^9.
// A phase that forgets to poll shows one poll or none here. Each phase also
// reports a stop at its second poll. Polls are counted, not timed
// (counting_stop.h).
#include <cstdint>
#include <optional>
#include <vector>

#include "base/bit_array.h"
#include "base/stop_poller.h"
#include "base/validation.h"
#include "counting_stop.h"
#include "exact/exact_search.h"
#include "gtest/gtest.h"
#include "methods/construction.h"
#include "methods/known_solutions.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "pipeline/board_state.h"
#include "pipeline/sub_board.h"

namespace nqueens::internal {
namespace {

using test_stop::CountingStop;

// Rows of the boards here: 16 stretches and a few rows.
constexpr uint32_t kRows = 16 * StopPoller::kRowsPerPoll + 5;
// The fewest polls a pass over kRows rows may make.
constexpr uint64_t kFewestPolls = kRows / StopPoller::kRowsPerPoll;

// The construction with every other row emptied.
Columns HalfOfConstruction() {
  Columns board = *ConstructSolution(kRows);
  for (uint32_t row = 0; row < kRows; row += 2) board[row] = kEmptyRow;
  return board;
}

BoardState StateOfComposition(Columns composition) {
  const StopCondition never;
  StopPoller stop(never);
  absl::StatusOr<BoardState> state = BoardState::Create(std::move(composition), stop);
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

TEST(StopPhasesTest, AppendPolledPollsEveryStretch) {
  CountingStop counting;
  StopPoller stop(counting.condition());
  std::vector<uint32_t> values;
  ASSERT_TRUE(AppendPolled(values, kRows, 7u, stop));
  EXPECT_EQ(values, std::vector<uint32_t>(kRows, 7u));
  EXPECT_GE(counting.polls(), kFewestPolls);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_FALSE(AppendPolled(values, kRows, 7u, stopped));
}

TEST(StopPhasesTest, BitArraysClearInPolledStretches) {
  const size_t bits = 64 * size_t{kRows};  // kRows words
  CountingStop counting;
  StopPoller stop(counting.condition());
  BitArray array;
  ASSERT_TRUE(array.Reset(bits, stop));
  EXPECT_GE(counting.polls(), kFewestPolls);
  array.Set(bits - 1);
  const uint64_t after_reset = counting.polls();
  ASSERT_TRUE(array.ClearAll(stop));
  EXPECT_GE(counting.polls() - after_reset, kFewestPolls);
  EXPECT_FALSE(array.Test(bits - 1));
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_FALSE(array.Reset(bits, stopped));
}

TEST(StopPhasesTest, DenseNumberingPollsOverItsUniverse) {
  const size_t universe = 64 * size_t{kRows};
  CountingStop counting;
  StopPoller stop(counting.condition());
  DenseNumbering numbering;
  ASSERT_TRUE(numbering.Reset(universe, stop));
  EXPECT_GE(counting.polls(), kFewestPolls);
  numbering.Insert(5);
  numbering.Insert(universe - 1);
  const uint64_t after_reset = counting.polls();
  ASSERT_TRUE(numbering.Seal(stop));
  EXPECT_GE(counting.polls() - after_reset, kFewestPolls);
  EXPECT_EQ(numbering.Find(static_cast<int64_t>(universe - 1)), 1u);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_FALSE(numbering.Reset(universe, stopped));
}

TEST(StopPhasesTest, BoardStateCreationPollsAsItPlacesTheQueens) {
  for (const Columns& composition : {Columns(kRows, kEmptyRow), *ConstructSolution(kRows)}) {
    CountingStop counting;
    StopPoller stop(counting.condition());
    ASSERT_TRUE(BoardState::Create(composition, stop).ok());
    EXPECT_GE(counting.polls(), kFewestPolls);
    CountingStop second(2);
    StopPoller stopped(second.condition());
    EXPECT_EQ(BoardState::Create(composition, stopped).status().code(),
              absl::StatusCode::kCancelled);
  }
}

TEST(StopPhasesTest, ListingFreeLinesPolls) {
  const BoardState state = StateOfComposition(HalfOfConstruction());
  HugeVector<uint32_t> rows, columns;
  CountingStop for_rows, for_columns;
  StopPoller rows_stop(for_rows.condition()), columns_stop(for_columns.condition());
  ASSERT_TRUE(state.FreeRows(rows, rows_stop));
  ASSERT_TRUE(state.FreeColumns(columns, columns_stop));
  EXPECT_EQ(rows.size(), kRows - state.queens());
  EXPECT_EQ(columns.size(), kRows - state.queens());
  EXPECT_GE(for_rows.polls(), kFewestPolls);
  EXPECT_GE(for_columns.polls(), kFewestPolls);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_FALSE(state.FreeRows(rows, stopped));
}

TEST(StopPhasesTest, RestorePolls) {
  const Columns half = HalfOfConstruction();
  BoardState state = StateOfComposition(half);
  state.Place(1, kRows - 1);  // any change for Restore to undo
  CountingStop counting;
  StopPoller stop(counting.condition());
  ASSERT_TRUE(state.Restore(stop));
  EXPECT_EQ(state.columns(), half);
  // The rows, then the queens again: two passes.
  EXPECT_GE(counting.polls(), 2 * kFewestPolls);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_FALSE(state.Restore(stopped));
}

TEST(StopPhasesTest, CompletingFromTheConstructionPolls) {
  CountingStop counting;
  StopPoller stop(counting.condition());
  absl::StatusOr<std::optional<Columns>> known =
      CompleteFromKnownSolution(HalfOfConstruction(), stop);
  ASSERT_TRUE(known.ok() && known->has_value());
  EXPECT_EQ(**known, *ConstructSolution(kRows));
  // The scan of the input, then the image: filled, then written.
  EXPECT_GE(counting.polls(), 3 * kFewestPolls);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_EQ(CompleteFromKnownSolution(HalfOfConstruction(), stopped).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(StopPhasesTest, TheExactSearchPollsAsItReadsTheBoard) {
  Columns nearly_full = *ConstructSolution(kRows);
  for (uint32_t row = 0; row < 10; ++row) nearly_full[row * 1000] = kEmptyRow;
  CountingStop counting;
  StopPoller stop(counting.condition());
  absl::StatusOr<ExactResult> result = ExactComplete(nearly_full, {1'000'000}, stop);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->verdict, ExactVerdict::kSolved);
  // The rows, the free columns, then the copy of the board it returns.
  EXPECT_GE(counting.polls(), 3 * kFewestPolls);
  absl::StatusOr<ValidationReport> report = nqueens::Validate(result->columns);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->complete);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_EQ(ExactComplete(nearly_full, {1'000'000}, stopped).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(StopPhasesTest, ConstructionAndValidationPoll) {
  CountingStop for_construction;
  StopPoller stop(for_construction.condition());
  absl::StatusOr<Columns> constructed = Construct(kRows, stop);
  ASSERT_TRUE(constructed.ok());
  EXPECT_GE(for_construction.polls(), kFewestPolls);
  CountingStop for_validation;
  StopPoller validation_stop(for_validation.condition());
  absl::StatusOr<ValidationReport> report = Validate(*constructed, {}, validation_stop);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->complete);
  EXPECT_GE(for_validation.polls(), kFewestPolls);
  CountingStop second(2);
  StopPoller stopped(second.condition());
  EXPECT_EQ(Construct(kRows, stopped).status().code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens::internal

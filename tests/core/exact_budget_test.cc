// The exact search's time budget: how it is computed, and that a search cut
// by it answers UNDECIDED and says how far it got.
#include "exact/exact_budget.h"

#include <cmath>
#include <limits>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

const absl::Time kNow = absl::FromUnixSeconds(1'000'000);

StopCondition DeadlineIn(absl::Duration left) {
  StopCondition call;
  call.deadline = kNow + left;
  return call;
}

TEST(AnswerReserveTest, IsATenthOfASecondAndAShareOfTheTimeLeftWithinBounds) {
  EXPECT_EQ(AnswerReserve(absl::Seconds(10)), absl::Milliseconds(600));
  EXPECT_EQ(AnswerReserve(absl::Seconds(100)), absl::Seconds(1));
  EXPECT_EQ(AnswerReserve(absl::Milliseconds(100)), absl::Milliseconds(50));
  EXPECT_EQ(AnswerReserve(absl::ZeroDuration()), absl::ZeroDuration());
}

TEST(ExactBudgetForTest, ACallWithoutDeadlineGetsTheDefault) {
  const ExactBudget budget = ExactBudgetFor(PipelineParams{}, StopCondition{}, kNow);
  EXPECT_EQ(budget.deadline, kNow + absl::Seconds(kDefaultExactSeconds));
  EXPECT_EQ(budget.nodes, std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(budget.ends_call);
}

TEST(ExactBudgetForTest, ACallWithADeadlineSearchesUntilShortlyBeforeIt) {
  const ExactBudget budget = ExactBudgetFor(PipelineParams{}, DeadlineIn(absl::Seconds(900)), kNow);
  EXPECT_EQ(budget.deadline, kNow + absl::Seconds(899));
  EXPECT_TRUE(budget.ends_call);
}

TEST(ExactBudgetForTest, MaxSecondsAndNodesBoundIt) {
  PipelineParams params;
  params.exact_max_seconds = 5;
  params.exact_node_budget = 1000;
  const ExactBudget alone = ExactBudgetFor(params, StopCondition{}, kNow);
  EXPECT_EQ(alone.deadline, kNow + absl::Seconds(5));
  EXPECT_EQ(alone.nodes, 1000u);
  EXPECT_FALSE(alone.ends_call);
  const ExactBudget later_deadline = ExactBudgetFor(params, DeadlineIn(absl::Seconds(60)), kNow);
  EXPECT_EQ(later_deadline.deadline, kNow + absl::Seconds(5));
  EXPECT_FALSE(later_deadline.ends_call);
  const ExactBudget earlier_deadline = ExactBudgetFor(params, DeadlineIn(absl::Seconds(2)), kNow);
  EXPECT_EQ(earlier_deadline.deadline, kNow + absl::Milliseconds(1800));
  EXPECT_TRUE(earlier_deadline.ends_call);
}

TEST(ExactBudgetForTest, APassedDeadlineLeavesNoTime) {
  const ExactBudget budget = ExactBudgetFor(PipelineParams{}, DeadlineIn(-absl::Seconds(1)), kNow);
  EXPECT_LE(budget.deadline, kNow);
  EXPECT_TRUE(budget.ends_call);
}

// The search stops at its budget's end, however far from done: the board
// takes minutes.
CompleteOptions ExactOnly() {
  CompleteOptions options;
  options.complete_method = CompleteMethod::kExact;
  return options;
}

void ExpectCutShort(const CompletionResult& result, double at_least_seconds) {
  EXPECT_EQ(result.outcome, Outcome::kUndecided);
  EXPECT_GE(result.stats.exact_runs, 1u);
  EXPECT_GT(result.stats.exact_nodes, 0u);
  EXPECT_GE(result.stats.exact_explored, 0.0);
  EXPECT_LT(result.stats.exact_explored, 1.0);
  EXPECT_GE(absl::ToDoubleSeconds(result.stats.time_in_block[static_cast<int>(Block::kExact)]),
            at_least_seconds);
}

TEST(ExactTimeLimitTest, MaxExactSecondsCutsTheSearchToUndecided) {
  CompleteOptions options = ExactOnly();
  options.params.exact_max_seconds = 0.3;
  absl::StatusOr<CompletionResult> result = Complete(test_boards::HardUnsolvableBoard(), options);
  ASSERT_TRUE(result.ok()) << result.status();
  ExpectCutShort(*result, 0.3);
}

TEST(ExactTimeLimitTest, TheCallsDeadlineEndsTheSearchWithAnAnswerInTime) {
  // Not DEADLINE_EXCEEDED: the search stops early enough to answer. The
  // pipeline (not the exact method alone) must not go on with other stages.
  CompleteOptions options;
  options.stop.deadline = absl::Now() + absl::Seconds(3);
  absl::StatusOr<CompletionResult> result = Complete(test_boards::HardUnsolvableBoard(), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->outcome, Outcome::kUndecided);
  EXPECT_GE(result->stats.exact_runs, 1u);
  EXPECT_LT(result->stats.exact_explored, 1.0);
}

TEST(ExactTimeLimitTest, NegativeOrNanSecondsAreRefusedByName) {
  for (double seconds : {-1.0, std::nan("")}) {
    CompleteOptions options = ExactOnly();
    options.params.exact_max_seconds = seconds;
    absl::StatusOr<CompletionResult> result = Complete(Columns(8, kEmptyRow), options);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().message().find("exact_max_seconds"), std::string::npos);
  }
}

}  // namespace
}  // namespace nqueens::internal

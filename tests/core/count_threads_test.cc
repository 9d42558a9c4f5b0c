// CountSolutions on threads (labelled for ThreadSanitizer): the parts' sum
// is the same on any thread count, progress comes in order, and a stop ends
// the count with its status.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "counting_stop.h"
#include "gtest/gtest.h"
#include "nqueens/count.h"

namespace nqueens {
namespace {

using test_stop::CountingStop;

TEST(CountThreadsTest, PartsSumTheSameOnAnyThreads) {
  std::vector<Columns> boards = {Columns(11, kEmptyRow)};
  Columns sparse(13, kEmptyRow);
  sparse[6] = 2;
  boards.push_back(sparse);
  for (const Columns& board : boards) {
    absl::StatusOr<CountPlan> plan = CountPlan::Make(board);
    ASSERT_TRUE(plan.ok()) << plan.status();
    ASSERT_GE(plan->parts(), 4u);
    // The parts in reverse order, by hand.
    std::vector<CountPart> parts(plan->parts());
    for (size_t index = plan->parts(); index-- > 0;) {
      absl::StatusOr<CountPart> part = plan->Count(index, StopCondition{});
      ASSERT_TRUE(part.ok()) << part.status();
      parts[index] = *part;
    }
    const CountResult sum = plan->Sum(parts);
    for (int threads : {1, 2, 3, 8}) {
      CountOptions options;
      options.threads.count = threads;
      absl::StatusOr<CountResult> result = CountSolutions(board, options);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->solutions, sum.solutions) << threads << " threads";
      EXPECT_EQ(result->fundamental, sum.fundamental) << threads << " threads";
      EXPECT_EQ(result->nodes, sum.nodes) << threads << " threads";
    }
  }
}

TEST(CountThreadsTest, ReportsProgressInOrder) {
  CountOptions options;
  options.threads.count = 2;
  options.progress_interval = absl::Nanoseconds(1);
  std::vector<double> fractions;
  options.on_progress = [&fractions](const CountProgress& progress) {
    fractions.push_back(progress.fraction_done);
  };
  absl::StatusOr<CountResult> result = CountSolutions(Columns(12, kEmptyRow), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->solutions, 14200u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  for (double fraction : fractions) {
    EXPECT_GE(fraction, 0);
    EXPECT_LE(fraction, 1);
  }
}

TEST(CountThreadsTest, StopsWhenCancelled) {
  CountingStop stop(1);
  CountOptions options;
  options.stop = stop.condition();
  EXPECT_EQ(CountSolutions(Columns(16, kEmptyRow), options).status().code(),
            absl::StatusCode::kCancelled);

  // A part polls every few thousand nodes, so the short ones end before
  // their first poll; the first long one is cancelled there.
  absl::StatusOr<CountPlan> plan = CountPlan::Make(Columns(16, kEmptyRow));
  ASSERT_TRUE(plan.ok());
  bool cancelled = false;
  for (size_t index = 0; index < plan->parts() && !cancelled; ++index) {
    CountingStop part_stop(1);
    absl::StatusOr<CountPart> part = plan->Count(index, part_stop.condition());
    cancelled = part.status().code() == absl::StatusCode::kCancelled;
    if (!cancelled) {
      EXPECT_TRUE(part.ok()) << part.status();
    }
  }
  EXPECT_TRUE(cancelled);

  StopCondition expired;
  expired.deadline = absl::InfinitePast();
  CountOptions late;
  late.stop = expired;
  EXPECT_EQ(CountSolutions(Columns(16, kEmptyRow), late).status().code(),
            absl::StatusCode::kDeadlineExceeded);
}

}  // namespace
}  // namespace nqueens

// The core's count on a worker pool's threads (CallThreads), as the
// server's Count runs it: the same totals on any number of
// workers, helpers that start late end at once, and a stop ends the count.
#include <atomic>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nqueens/count.h"
#include "server/limits/worker_pool.h"
#include "test_notification.h"

namespace nqueens::server {
namespace {

// The core's count on the pool's threads, as the server's Count runs it.
absl::StatusOr<CountResult> CountOnPool(
    WorkerPool& pool, const CountPlan& plan, const StopCondition& stop,
    absl::Duration progress_interval,
    const std::function<void(const CountProgress&)>& on_progress) {
  CountOptions options;
  options.stop = stop;
  options.threads = CallThreads(pool);
  options.on_progress = on_progress;
  options.progress_interval = progress_interval;
  return CountSolutions(plan, options);
}

CountPlan PlanFor(uint32_t n) {
  absl::StatusOr<CountPlan> plan = CountPlan::Make(Columns(n, kEmptyRow));
  EXPECT_TRUE(plan.ok()) << plan.status();
  return *std::move(plan);
}

TEST(PoolCountTest, CountsAsPublishedOnAnyNumberOfWorkers) {
  for (const int workers : {1, 2, 4}) {
    SCOPED_TRACE(workers);
    WorkerPool pool(workers, 16);
    int progress_calls = 0;
    absl::StatusOr<CountResult> result =
        CountOnPool(pool, PlanFor(11), StopCondition{}, absl::Nanoseconds(1),
                    [&](const CountProgress& progress) {
                      ++progress_calls;
                      EXPECT_GE(progress.fraction_done, 0);
                      EXPECT_LE(progress.fraction_done, 1);
                    });
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->solutions, 2680u);  // OEIS A000170
    ASSERT_TRUE(result->fundamental.has_value());
    EXPECT_EQ(*result->fundamental, 341u);  // OEIS A002562
    // Progress comes from the calling thread, at the latest before it waits
    // for its helpers, even when they counted every part.
    EXPECT_GE(progress_calls, 1);
  }
}

TEST(PoolCountTest, ACountGoesOnWhenNoHelperCanBeQueued) {
  WorkerPool pool(2, 0);  // no room in the queue: the calling thread alone
  absl::StatusOr<CountResult> result =
      CountOnPool(pool, PlanFor(9), StopCondition{}, absl::Seconds(1), [](const CountProgress&) {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->solutions, 352u);
}

TEST(PoolCountTest, AStopEndsTheCount) {
  WorkerPool pool(2, 16);
  StopCondition stop;
  stop.cancelled = [] { return true; };
  absl::StatusOr<CountResult> cancelled =
      CountOnPool(pool, PlanFor(20), stop, absl::Seconds(1), [](const CountProgress&) {});
  EXPECT_EQ(cancelled.status().code(), absl::StatusCode::kCancelled);
  StopCondition past;
  past.deadline = absl::Now();
  absl::StatusOr<CountResult> expired =
      CountOnPool(pool, PlanFor(20), past, absl::Seconds(1), [](const CountProgress&) {});
  EXPECT_EQ(expired.status().code(), absl::StatusCode::kDeadlineExceeded);
}

// A count on a worker leaves the other worker to other calls: a job
// submitted while it runs starts before it ends.
TEST(PoolCountTest, ACountLeavesAWorkerForOtherCalls) {
  WorkerPool pool(2, 16);
  nqueens::testing::TestNotification release, counted, other_started;
  StopCondition stop;
  stop.cancelled = [&] { return release.HasBeenNotified(); };
  ASSERT_TRUE(pool.Submit(WorkerPool::Size::kLarge,
                          [&] {
                            const absl::StatusOr<CountResult> stopped =
                                CountOnPool(pool, PlanFor(20), stop, absl::Seconds(1),
                                            [](const CountProgress&) {});
                            EXPECT_EQ(stopped.status().code(), absl::StatusCode::kCancelled);
                            counted.Notify();
                          })
                  .has_value());
  ASSERT_TRUE(pool.AwaitLoad(1, 0, absl::Now() + absl::Seconds(30)));
  ASSERT_TRUE(pool.Submit(WorkerPool::Size::kLarge, [&] { other_started.Notify(); }).has_value());
  EXPECT_TRUE(other_started.WaitForNotificationWithTimeout(absl::Seconds(30)));
  EXPECT_FALSE(counted.HasBeenNotified());
  release.Notify();
  EXPECT_TRUE(counted.WaitForNotificationWithTimeout(absl::Seconds(30)));
}

}  // namespace
}  // namespace nqueens::server

// The worker pool's scheduling rules, with jobs that block on notifications
// the test controls: no sleeps, every wait bounded.
#include "server/limits/worker_pool.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "test_constants.h"
#include "test_notification.h"

namespace nqueens::server {
namespace {

using Size = WorkerPool::Size;

using testing::kPatience;

absl::Time Patience() { return absl::Now() + kPatience; }

// A job that signals when it starts and runs until released.
class BlockingJob {
 public:
  std::function<void()> Body() {
    return [this] {
      started_.Notify();
      release_.WaitForNotificationWithTimeout(kPatience);
      finished_.Notify();
    };
  }
  bool AwaitStarted() { return started_.WaitForNotificationWithTimeout(kPatience); }
  bool started() const { return started_.HasBeenNotified(); }
  void Release() { release_.Notify(); }
  bool AwaitFinished() { return finished_.WaitForNotificationWithTimeout(kPatience); }

 private:
  nqueens::testing::TestNotification started_;
  nqueens::testing::TestNotification release_;
  nqueens::testing::TestNotification finished_;
};

TEST(WorkerPoolTest, RunsJobsOnTheWorkers) {
  WorkerPool pool(2, 10);
  BlockingJob first, second;
  ASSERT_TRUE(pool.Submit(Size::kLarge, first.Body()).has_value());
  ASSERT_TRUE(pool.Submit(Size::kLarge, second.Body()).has_value());
  ASSERT_TRUE(first.AwaitStarted());
  ASSERT_TRUE(second.AwaitStarted());
  EXPECT_TRUE(pool.AwaitLoad(2, 0, Patience()));
  first.Release();
  second.Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
}

TEST(WorkerPoolTest, RefusesBeyondMaxQueued) {
  WorkerPool pool(1, 2);
  BlockingJob running;
  ASSERT_TRUE(pool.Submit(Size::kLarge, running.Body()).has_value());
  ASSERT_TRUE(running.AwaitStarted());
  BlockingJob waiting[2];
  for (BlockingJob& job : waiting) ASSERT_TRUE(pool.Submit(Size::kLarge, job.Body()).has_value());
  BlockingJob refused;
  EXPECT_FALSE(pool.Submit(Size::kLarge, refused.Body()).has_value());
  EXPECT_TRUE(pool.AwaitLoad(1, 2, Patience()));
  running.Release();
  for (BlockingJob& job : waiting) job.Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
  EXPECT_FALSE(refused.started());
}

TEST(WorkerPoolTest, AWithdrawnJobNeverRuns) {
  WorkerPool pool(1, 10);
  BlockingJob running, withdrawn;
  ASSERT_TRUE(pool.Submit(Size::kLarge, running.Body()).has_value());
  ASSERT_TRUE(running.AwaitStarted());
  const std::optional<WorkerPool::Ticket> ticket = pool.Submit(Size::kLarge, withdrawn.Body());
  ASSERT_TRUE(ticket.has_value());
  EXPECT_TRUE(pool.Withdraw(*ticket));
  EXPECT_FALSE(pool.Withdraw(*ticket));
  EXPECT_TRUE(pool.AwaitLoad(1, 0, Patience()));
  running.Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
  EXPECT_FALSE(withdrawn.started());
}

TEST(WorkerPoolTest, ARunningJobCannotBeWithdrawn) {
  WorkerPool pool(1, 10);
  BlockingJob running;
  const std::optional<WorkerPool::Ticket> ticket = pool.Submit(Size::kSmall, running.Body());
  ASSERT_TRUE(ticket.has_value());
  ASSERT_TRUE(running.AwaitStarted());
  EXPECT_FALSE(pool.Withdraw(*ticket));
  running.Release();
  EXPECT_TRUE(running.AwaitFinished());
}

// The express lane: with every worker on a large job, a small one runs at
// once on the extra thread; a second small one waits for it.
TEST(WorkerPoolTest, SmallJobsPassLargeOnesOnTheExpressLane) {
  WorkerPool pool(2, 10);
  BlockingJob large[3];
  for (BlockingJob& job : large) ASSERT_TRUE(pool.Submit(Size::kLarge, job.Body()).has_value());
  ASSERT_TRUE(large[0].AwaitStarted());
  ASSERT_TRUE(large[1].AwaitStarted());
  ASSERT_TRUE(pool.AwaitLoad(2, 1, Patience()));

  BlockingJob small[2];
  for (BlockingJob& job : small) ASSERT_TRUE(pool.Submit(Size::kSmall, job.Body()).has_value());
  ASSERT_TRUE(small[0].AwaitStarted());
  EXPECT_TRUE(pool.AwaitLoad(3, 2, Patience()));  // large[2] and small[1] wait
  EXPECT_FALSE(small[1].started());

  // A freed worker takes the waiting small job before the large one.
  large[0].Release();
  EXPECT_TRUE(small[1].AwaitStarted());
  EXPECT_FALSE(large[2].started());
  for (BlockingJob& job : small) job.Release();
  EXPECT_TRUE(large[2].AwaitStarted());
  large[1].Release();
  large[2].Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
}

// A small job that runs long (a hard search on a small board) counts as
// long: the next small job takes the express lane instead of waiting.
TEST(WorkerPoolTest, SmallJobsPassLongRunningSmallOnesOnTheExpressLane) {
  WorkerPool pool(1, 10, absl::Milliseconds(1));
  BlockingJob hard, quick;
  ASSERT_TRUE(pool.Submit(Size::kSmall, hard.Body()).has_value());
  ASSERT_TRUE(hard.AwaitStarted());
  ASSERT_TRUE(pool.Submit(Size::kSmall, quick.Body()).has_value());
  EXPECT_TRUE(quick.AwaitStarted());
  EXPECT_TRUE(pool.AwaitLoad(2, 0, Patience()));
  quick.Release();
  hard.Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
}

// With quick small jobs alone the express lane stays idle: they run on
// exactly `workers` threads, so throughput scales with --workers.
TEST(WorkerPoolTest, SmallJobsAloneUseOnlyTheWorkers) {
  WorkerPool pool(1, 10, absl::Hours(1));
  BlockingJob small[2];
  for (BlockingJob& job : small) ASSERT_TRUE(pool.Submit(Size::kSmall, job.Body()).has_value());
  ASSERT_TRUE(small[0].AwaitStarted());
  EXPECT_TRUE(pool.AwaitLoad(1, 1, Patience()));
  EXPECT_FALSE(small[1].started());
  small[0].Release();
  ASSERT_TRUE(small[1].AwaitStarted());
  small[1].Release();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
}

TEST(WorkerPoolTest, ManyThreadsSubmitAndEveryJobRunsOnce) {
  WorkerPool pool(2, 100'000);
  std::atomic<int> runs{0};
  constexpr int kJobsPerThread = 2000;
  std::vector<std::thread> submitters;
  for (int t = 0; t < 4; ++t) {
    submitters.emplace_back([&pool, &runs, t] {
      for (int i = 0; i < kJobsPerThread; ++i) {
        const Size size = (i + t) % 3 == 0 ? Size::kLarge : Size::kSmall;
        ASSERT_TRUE(pool.Submit(size, [&runs] { runs.fetch_add(1); }).has_value());
      }
    });
  }
  for (std::thread& thread : submitters) thread.join();
  EXPECT_TRUE(pool.AwaitLoad(0, 0, Patience()));
  EXPECT_EQ(runs.load(), 4 * kJobsPerThread);
}

}  // namespace
}  // namespace nqueens::server

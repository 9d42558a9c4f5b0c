// The idle watchdog cuts a stream that makes no progress, once, and leaves
// alone the watches that end or keep moving. No sleeps: the tests wait on
// notifications the watchdog's callback gives, bounded.
#include "server/limits/idle_watchdog.h"

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "test_constants.h"
#include "test_notification.h"

namespace nqueens::server {
namespace {

using testing::kPatience;

TEST(IdleWatchdogTest, AStreamWithoutProgressIsCutOnce) {
  IdleWatchdog watchdog(absl::Milliseconds(10));
  std::atomic<int> cuts{0};
  nqueens::testing::TestNotification cut;
  IdleWatchdog::Watch watch(watchdog, [&] {
    cuts.fetch_add(1);
    cut.Notify();
  });
  ASSERT_TRUE(cut.WaitForNotificationWithTimeout(kPatience));
  EXPECT_TRUE(watch.expired());
  // A touch after the cut does not revive it.
  watch.Touch();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(cuts.load(), 1);
}

TEST(IdleWatchdogTest, AStreamThatKeepsMovingIsCutAtItsLatestTime) {
  IdleWatchdog watchdog(absl::Hours(1));
  nqueens::testing::TestNotification cut;
  const absl::Time latest = absl::Now() + absl::Milliseconds(50);
  IdleWatchdog::Watch watch(
      watchdog, [&] { cut.Notify(); }, latest);
  while (!cut.WaitForNotificationWithTimeout(absl::Milliseconds(1)) &&
         absl::Now() < latest + kPatience) {
    watch.Touch();
  }
  EXPECT_TRUE(watch.expired());
  EXPECT_GE(absl::Now(), latest);
}

TEST(IdleWatchdogTest, AWatchThatEndsIsNeverCut) {
  IdleWatchdog watchdog(absl::Hours(1));
  std::atomic<int> cuts{0};
  {
    IdleWatchdog::Watch watch(watchdog, [&] { cuts.fetch_add(1); });
    watch.Touch();
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_EQ(cuts.load(), 0);
}

TEST(IdleWatchdogTest, AnInfiniteTimeoutNeverCuts) {
  IdleWatchdog watchdog(absl::InfiniteDuration());
  IdleWatchdog::Watch watch(watchdog, [] { ADD_FAILURE() << "cut"; });
  watch.Touch();
  EXPECT_FALSE(watch.expired());
}

// Watches made, touched and ended on many threads while the watchdog cuts
// the idle ones: every stalled watch is cut, and nothing races (TSan).
TEST(IdleWatchdogTest, ManyThreadsWatchAtOnce) {
  IdleWatchdog watchdog(absl::Milliseconds(5));
  std::atomic<int> cuts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        nqueens::testing::TestNotification cut;
        IdleWatchdog::Watch watch(watchdog, [&] {
          cuts.fetch_add(1);
          cut.Notify();
        });
        for (int touch = 0; touch < 10; ++touch) watch.Touch();
        EXPECT_TRUE(cut.WaitForNotificationWithTimeout(kPatience));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(cuts.load(), 200);
}

}  // namespace
}  // namespace nqueens::server

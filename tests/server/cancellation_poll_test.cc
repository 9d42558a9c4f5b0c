#include "cancellation_poll.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include "absl/time/time.h"

namespace nqueens::server {
namespace {

// A stand-in for ServerContext::IsCancelled that counts its calls.
struct CountingProbe {
  int calls = 0;
  bool cancelled = false;
  std::function<bool()> Callback() {
    return [this] {
      ++calls;
      return cancelled;
    };
  }
};

TEST(PollCancellationTest, AsksAtOnceThenReusesTheAnswerWithinTheInterval) {
  CountingProbe probe;
  const std::function<bool()> cancelled = PollCancellation(probe.Callback(), absl::Hours(1));
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(cancelled());
  EXPECT_EQ(probe.calls, 1);
}

TEST(PollCancellationTest, SeesACancellationAtTheFirstCall) {
  CountingProbe probe;
  probe.cancelled = true;
  EXPECT_TRUE(PollCancellation(probe.Callback(), absl::Hours(1))());
}

TEST(PollCancellationTest, AsksAgainOnceTheIntervalHasPassed) {
  CountingProbe probe;
  const std::function<bool()> cancelled = PollCancellation(probe.Callback(), absl::ZeroDuration());
  EXPECT_FALSE(cancelled());
  EXPECT_FALSE(cancelled());
  probe.cancelled = true;
  EXPECT_TRUE(cancelled());
  EXPECT_EQ(probe.calls, 3);
}

TEST(PollCancellationTest, StaysCancelledWithoutAskingAgain) {
  CountingProbe probe;
  const std::function<bool()> cancelled = PollCancellation(probe.Callback(), absl::ZeroDuration());
  probe.cancelled = true;
  EXPECT_TRUE(cancelled());
  probe.cancelled = false;
  EXPECT_TRUE(cancelled());
  EXPECT_EQ(probe.calls, 1);
}

TEST(PollCancellationTest, CopiesShareOneState) {
  CountingProbe probe;
  const std::function<bool()> cancelled = PollCancellation(probe.Callback(), absl::Hours(1));
  const std::function<bool()> copy = cancelled;
  EXPECT_FALSE(cancelled());
  EXPECT_FALSE(copy());
  EXPECT_EQ(probe.calls, 1);
}

// The core calls the callback from the thread that runs the call, and a
// server may share one between threads (labelled `concurrency`:
// ThreadSanitizer runs this). It never answers true before the probe did, and
// once the threads are done, the cancellation is seen and kept.
TEST(PollCancellationTest, ThreadsShareOneCallback) {
  constexpr int kThreads = 4;
  constexpr int kCalls = 5000;
  std::atomic<int> probe_calls{0};
  std::atomic<bool> cancel_now{false};
  const std::function<bool()> cancelled = PollCancellation(
      [&probe_calls, &cancel_now] {
        ++probe_calls;
        return cancel_now.load();
      },
      absl::ZeroDuration());
  std::atomic<int> true_before_cancel{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        if (t == 0 && i == kCalls / 2) cancel_now = true;
        const bool answer = cancelled();
        // cancel_now never goes back to false: read after the call, it
        // covers the moment the probe answered.
        if (answer && !cancel_now.load()) ++true_before_cancel;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(true_before_cancel.load(), 0);
  EXPECT_TRUE(cancelled());
  const int calls_after_all = probe_calls.load();
  EXPECT_TRUE(cancelled());
  EXPECT_EQ(probe_calls.load(), calls_after_all);  // it no longer asks
}

}  // namespace
}  // namespace nqueens::server

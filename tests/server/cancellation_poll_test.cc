#include "cancellation_poll.h"

#include <gtest/gtest.h>

#include <functional>

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

}  // namespace
}  // namespace nqueens::server

// Shutdown's bookkeeping: refuse new calls, wait for the running ones, then
// keep refusing until calls stop ending and arriving. No sleeps: the waits checked here
// have lower bounds (they cannot end early) or end at once.
#include "server/limits/in_flight_calls.h"

#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace nqueens::server {
namespace {

TEST(InFlightCallsTest, ClosingRefusesNewCallsAndWaitsForRunningOnes) {
  InFlightCalls calls;
  ASSERT_TRUE(calls.Enter());
  EXPECT_FALSE(calls.CloseAndWait(absl::Now()));  // one still runs
  EXPECT_TRUE(calls.closed());
  EXPECT_FALSE(calls.Enter());
  EXPECT_EQ(calls.running(), 1);
  std::thread last_call([&] { EXPECT_TRUE(calls.Exit()); });
  EXPECT_TRUE(calls.CloseAndWait(absl::InfiniteFuture()));
  last_call.join();
  EXPECT_EQ(calls.running(), 0);
}

TEST(InFlightCallsTest, WithoutRefusalsTheQuietWaitEndsAtOnce) {
  InFlightCalls calls;
  ASSERT_TRUE(calls.CloseAndWait(absl::InfiniteFuture()));
  calls.AwaitQuiet(absl::Hours(1), absl::InfiniteFuture());  // would hang otherwise
}

TEST(InFlightCallsTest, TheQuietWaitLastsFromTheLastRefusal) {
  InFlightCalls calls;
  ASSERT_TRUE(calls.CloseAndWait(absl::InfiniteFuture()));
  const absl::Duration quiet = absl::Milliseconds(50);
  const absl::Time before_refusal = absl::Now();
  ASSERT_FALSE(calls.Enter());
  calls.AwaitQuiet(quiet, absl::InfiniteFuture());
  EXPECT_GE(absl::Now() - before_refusal, quiet);
}

TEST(InFlightCallsTest, TheQuietWaitLastsFromTheLastCallsEnd) {
  InFlightCalls calls;
  ASSERT_TRUE(calls.Enter());
  ASSERT_FALSE(calls.CloseAndWait(absl::Now()));
  const absl::Duration quiet = absl::Milliseconds(50);
  const absl::Time before_end = absl::Now();
  ASSERT_TRUE(calls.Exit());
  calls.AwaitQuiet(quiet, absl::InfiniteFuture());
  EXPECT_GE(absl::Now() - before_end, quiet);
}

TEST(InFlightCallsTest, TheQuietWaitEndsAtTheDeadline) {
  InFlightCalls calls;
  ASSERT_TRUE(calls.CloseAndWait(absl::InfiniteFuture()));
  ASSERT_FALSE(calls.Enter());
  const absl::Time deadline = absl::Now() + absl::Milliseconds(20);
  calls.AwaitQuiet(absl::Hours(1), deadline);  // would hang otherwise
  EXPECT_GE(absl::Now(), deadline);
}

}  // namespace
}  // namespace nqueens::server

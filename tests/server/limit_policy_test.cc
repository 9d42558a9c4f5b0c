// The limits a request asks for, under the server's maxima: a limit above
// its maximum is lowered and named as the response's Stats.lowered_limits
// shows it, one below is kept, 0 asks the core's default, and a call alone
// may search larger boards exactly than a batch's item.
#include "server/rpc/limit_policy.h"

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/memory.h"
#include "nqueens/params.h"
#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::server {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

CallLimits SmallMaxima() {
  CallLimits maxima;
  maxima.max_backtracks = 1'000;
  maxima.max_restarts = 20;
  maxima.max_exact_nodes = 5'000;
  maxima.max_exact_seconds = 30;
  maxima.max_exact_free_rows = 4'096;
  return maxima;
}

LimitPolicy NoDeadline() { return LimitPolicy(SmallMaxima(), absl::InfiniteFuture()); }

TEST(LimitPolicyTest, LowersALimitAboveTheMaximumAndNamesIt) {
  v1::Limits asked;
  asked.set_max_backtracks(1'000'000);
  asked.set_max_exact_seconds(100);
  absl::StatusOr<LimitedParams> limited = NoDeadline().ForCall(asked);
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_EQ(limited->params.tot_sim_bound, 1'000u);
  EXPECT_EQ(limited->params.exact_max_seconds, 30);
  EXPECT_THAT(limited->lowered, ElementsAre("max_backtracks=1000 (--max-backtracks)",
                                            "max_exact_seconds=30 (--max-exact-seconds)"));
}

TEST(LimitPolicyTest, KeepsALimitBelowTheMaximum) {
  v1::Limits asked;
  asked.set_max_restarts(3);
  asked.set_max_exact_nodes(5'000);
  asked.set_max_exact_seconds(2.5);
  absl::StatusOr<LimitedParams> limited = NoDeadline().ForCall(asked);
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_EQ(limited->params.max_restarts, 3u);
  EXPECT_EQ(limited->params.exact_node_budget, 5'000u);
  EXPECT_EQ(limited->params.exact_max_seconds, 2.5);
  EXPECT_THAT(limited->lowered, IsEmpty());
}

TEST(LimitPolicyTest, ZeroAsksTheCoresDefaultWithinTheMaximum) {
  absl::StatusOr<LimitedParams> limited = NoDeadline().ForCall(v1::Limits());
  ASSERT_TRUE(limited.ok()) << limited.status();
  const PipelineParams defaults;
  EXPECT_EQ(limited->params.tot_sim_bound, defaults.tot_sim_bound);
  EXPECT_EQ(limited->params.max_restarts, defaults.max_restarts);
  // The core's default is no budget: the server's maximum stands.
  EXPECT_EQ(limited->params.exact_node_budget, 5'000u);
  EXPECT_THAT(limited->lowered, IsEmpty());
}

TEST(LimitPolicyTest, TheDefaultExactTimeFollowsTheClientsDeadline) {
  CallLimits maxima;
  maxima.max_exact_seconds = 600;
  absl::StatusOr<LimitedParams> without =
      LimitPolicy(maxima, absl::InfiniteFuture()).ForCall(v1::Limits());
  absl::StatusOr<LimitedParams> with =
      LimitPolicy(maxima, absl::Now() + absl::Seconds(5)).ForCall(v1::Limits());
  ASSERT_TRUE(without.ok() && with.ok());
  EXPECT_EQ(without->params.exact_max_seconds, kDefaultExactSeconds);
  // The deadline stops the search before then.
  EXPECT_EQ(with->params.exact_max_seconds, 600);
}

TEST(LimitPolicyTest, RefusesANegativeOrNanExactTimeByName) {
  for (const double seconds : {-1.0, std::nan("")}) {
    v1::Limits asked;
    asked.set_max_exact_seconds(seconds);
    absl::StatusOr<LimitedParams> limited = NoDeadline().ForBatchItem(asked);
    EXPECT_EQ(limited.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(limited.status().message()),
                ::testing::StartsWith("limits.max_exact_seconds must be at least 0, not "));
  }
}

TEST(LimitPolicyTest, ABatchItemSearchesExactlyOnlyWhatTheEstimatesCover) {
  v1::Limits asked;
  asked.set_max_backtracks(1'000'000);
  absl::StatusOr<LimitedParams> call = NoDeadline().ForCall(asked);
  absl::StatusOr<LimitedParams> item = NoDeadline().ForBatchItem(asked);
  ASSERT_TRUE(call.ok() && item.ok());
  EXPECT_EQ(call->params.exact_max_free_rows, 4'096u);
  EXPECT_EQ(item->params.exact_max_free_rows, kExactFreeRowsInEstimates);
  EXPECT_EQ(item->params.tot_sim_bound, call->params.tot_sim_bound);
  EXPECT_EQ(item->lowered, call->lowered);
}

}  // namespace
}  // namespace nqueens::server

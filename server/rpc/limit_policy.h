// How the limits a request asks for (v1::Limits) become the core's
// parameters under the server's maxima (CallLimits, the operator's flags):
// a limit above its maximum is lowered to it and named, for the response's
// Stats.lowered_limits. A piece of its own so that the rules a client reads
// there are in one place, apart from the running of a call (call.h), and
// testable without a server.
#ifndef NQUEENS_SERVER_RPC_LIMIT_POLICY_H_
#define NQUEENS_SERVER_RPC_LIMIT_POLICY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nqueens/params.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/rpc/service_options.h"

namespace nqueens::server {

// The core's parameters for a request, and the limits the server lowered.
struct LimitedParams {
  PipelineParams params;
  // As "max_backtracks=1000000 (--max-backtracks)".
  std::vector<std::string> lowered;
};

class LimitPolicy {
 public:
  // `deadline`: the client's, absl::InfiniteFuture() without one.
  LimitPolicy(const CallLimits& maxima, absl::Time deadline)
      : maxima_(maxima), deadline_(deadline) {}

  // For a call alone: each limit asked (0: the core's default) lowered to
  // the server's maximum, and the exact search on up to
  // --max-exact-free-rows free rows. INVALID_ARGUMENT for a negative or NaN
  // max_exact_seconds.
  absl::StatusOr<LimitedParams> ForCall(const v1::Limits& asked) const;
  // The same for one item of a batch, whose items run at once on the call's
  // reservation: that covers the exact search on up to
  // kExactFreeRowsInEstimates free rows only.
  absl::StatusOr<LimitedParams> ForBatchItem(const v1::Limits& asked) const;

 private:
  // max_exact_seconds as the core's exact_max_seconds.
  absl::StatusOr<double> ExactSeconds(double asked, std::vector<std::string>& lowered) const;

  const CallLimits maxima_;
  const absl::Time deadline_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_LIMIT_POLICY_H_

#include "server/rpc/limit_policy.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nqueens/memory.h"

namespace nqueens::server {
namespace {

// min(asked or the default, the server's maximum); notes a lowered request.
template <typename T>
T Clamp(T asked, T default_value, T maximum, const char* field, const char* flag,
        std::vector<std::string>& lowered) {
  if (asked > maximum) {
    lowered.push_back(absl::StrCat(field, "=", maximum, " (", flag, ")"));
    return maximum;
  }
  return std::min(asked != 0 ? asked : default_value, maximum);
}

}  // namespace

absl::StatusOr<LimitedParams> LimitPolicy::ForBatchItem(const v1::Limits& asked) const {
  LimitedParams limited;
  PipelineParams& params = limited.params;
  params.exact_max_free_rows = kExactFreeRowsInEstimates;
  params.tot_sim_bound =
      Clamp<uint64_t>(asked.max_backtracks(), params.tot_sim_bound, maxima_.max_backtracks,
                      "max_backtracks", "--max-backtracks", limited.lowered);
  params.max_restarts =
      Clamp<uint32_t>(asked.max_restarts(), params.max_restarts, maxima_.max_restarts,
                      "max_restarts", "--max-restarts", limited.lowered);
  params.exact_node_budget =
      Clamp<uint64_t>(asked.max_exact_nodes(), params.exact_node_budget, maxima_.max_exact_nodes,
                      "max_exact_nodes", "--max-exact-nodes", limited.lowered);
  absl::StatusOr<double> exact_seconds = ExactSeconds(asked.max_exact_seconds(), limited.lowered);
  if (!exact_seconds.ok()) return exact_seconds.status();
  params.exact_max_seconds = *exact_seconds;
  return limited;
}

absl::StatusOr<LimitedParams> LimitPolicy::ForCall(const v1::Limits& asked) const {
  absl::StatusOr<LimitedParams> limited = ForBatchItem(asked);
  // A call alone may search boards larger than the estimates cover, its
  // memory reserved when the search starts.
  if (limited.ok()) limited->params.exact_max_free_rows = maxima_.max_exact_free_rows;
  return limited;
}

absl::StatusOr<double> LimitPolicy::ExactSeconds(double asked,
                                                 std::vector<std::string>& lowered) const {
  if (!(asked >= 0)) {  // also NaN
    return absl::InvalidArgumentError(
        absl::StrCat("limits.max_exact_seconds must be at least 0, not ", asked));
  }
  const double max = maxima_.max_exact_seconds;
  if (asked > max) {
    lowered.push_back(absl::StrCat("max_exact_seconds=", max, " (--max-exact-seconds)"));
    return max;
  }
  if (asked > 0) return asked;
  // The default: the core's for a call without a deadline (--max-call-seconds
  // is no deadline the caller chose), else up to the call's deadline.
  return deadline_ == absl::InfiniteFuture() ? std::min(kDefaultExactSeconds, max) : max;
}

}  // namespace nqueens::server

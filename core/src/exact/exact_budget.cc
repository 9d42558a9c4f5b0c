#include "exact/exact_budget.h"

#include <algorithm>

namespace nqueens::internal {

absl::Duration AnswerReserve(absl::Duration time_left) {
  const absl::Duration reserve = absl::Milliseconds(100) + time_left / 20;
  return std::min({reserve, absl::Seconds(1), time_left / 2});
}

ExactBudget ExactBudgetFor(const PipelineParams& params, const StopCondition& call,
                           absl::Time now) {
  ExactBudget budget;
  budget.nodes = params.exact_node_budget;
  const bool call_has_deadline = call.deadline != absl::InfiniteFuture();
  if (params.exact_max_seconds > 0) {
    budget.deadline = now + absl::Seconds(params.exact_max_seconds);
  } else if (!call_has_deadline) {
    budget.deadline = now + absl::Seconds(kDefaultExactSeconds);
  }
  if (call_has_deadline) {
    const absl::Time answer_by =
        call.deadline - AnswerReserve(std::max(call.deadline - now, absl::ZeroDuration()));
    if (answer_by <= budget.deadline) {
      budget.deadline = answer_by;
      budget.ends_call = true;
    }
  }
  return budget;
}

}  // namespace nqueens::internal

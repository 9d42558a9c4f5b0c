// How long and how far the exact search may run in one call. It decides by
// time, not nodes: a node's cost varies by orders of magnitude with the board,
// and the hardest boards decided within a minute take up to 10^9 nodes
// (docs/hard-instances.md).
#ifndef NQUEENS_EXACT_EXACT_BUDGET_H_
#define NQUEENS_EXACT_EXACT_BUDGET_H_

#include <cstdint>

#include "absl/time/time.h"
#include "nqueens/params.h"
#include "nqueens/stop.h"

namespace nqueens::internal {

struct ExactBudget {
  uint64_t nodes = UINT64_MAX;
  absl::Time deadline = absl::InfiniteFuture();
  // The deadline is the call's own, less a reserve: once the search gives
  // up there, no other stage has time left, and the answer is UNDECIDED.
  bool ends_call = false;
};

// What is kept back from the call's deadline for the UNDECIDED answer to
// reach the caller in time: 100 ms plus 5% of the time left, at most 1 s and
// at most half of what is left.
absl::Duration AnswerReserve(absl::Duration time_left);

// The budget of an exact search starting at `now`: params.exact_node_budget
// nodes, and until params.exact_max_seconds have passed (0: until the
// call's deadline, or kDefaultExactSeconds for a call without one), but not
// past the call's deadline less AnswerReserve().
ExactBudget ExactBudgetFor(const PipelineParams& params, const StopCondition& call, absl::Time now);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_EXACT_BUDGET_H_

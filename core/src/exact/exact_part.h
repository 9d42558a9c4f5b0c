// One part of the exact search of a composition (CompleteOptions::part): the
// split's nodes of that part (exact_split.h), the subtree of each searched in
// turn by ExactComplete's search, within one budget for them all.
#ifndef NQUEENS_EXACT_EXACT_PART_H_
#define NQUEENS_EXACT_EXACT_PART_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/exact_budget.h"
#include "exact/exact_search.h"
#include "nqueens/parts.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// As ExactComplete, for the nodes of `part` (a checked selector of 2 parts or
// more) alone: kSolved once one of them extends to a full solution (the
// board in result.columns), kUnsolvable once every one is proved to have
// none (at once for a part without nodes), kBudgetExhausted when the budget
// ends first. nodes and runs add up over the nodes, explored is the share
// of the part's nodes. The certificate of kUnsolvable proves the part alone:
// the split's top tree, this part's nodes with their proofs and the other
// parts' nodes as `x` leaves, which the checker matches against the other
// parts' certificates (checker/certificate_check.h).
absl::StatusOr<ExactResult> ExactCompletePart(
    absl::Span<const uint32_t> composition, const PartSelector& part, const ExactBudget& budget,
    StopPoller& stop, const SearchThreads& threads = {}, const CertificateWanted& certificate = {},
    const std::function<absl::Status(uint64_t bytes)>& reserve_memory = {});

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_EXACT_PART_H_

// The classic row-by-row bitwise search of the survey of constraint-
// satisfaction methods (left, down and right masks), first solution.
#ifndef NQUEENS_METHODS_BACKTRACKING_H_
#define NQUEENS_METHODS_BACKTRACKING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "base/tunable.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// A solution of the n x n board; UNDECIDED once the first of its limits is
// reached: the fewer of params.backtracking_node_budget and
// params.exact_node_budget nodes (stats.search_nodes), params.tot_sim_bound
// backtracks to the row above (stats.backtracks; no limit when 0), or the
// time `give_up_at` (the caller gives the exact search's, the other complete
// search). DEADLINE_EXCEEDED or CANCELLED when options.stop fires first.
absl::StatusOr<CompletionResult> BacktrackingSolve(uint32_t n, const SolveOptions& options,
                                                   absl::Time give_up_at);

// The peak of Solve BACKTRACKING on n rows (nqueens/memory.h), before a
// symmetry's image.
uint64_t BacktrackingPeakBytes(uint64_t n);
// Its rows of the options table (base/tunable.h).
absl::Span<const Tunable> BacktrackingTunables();

// The same search with the control arrays that BacktrackingSolve uses above
// 64 columns, at any n, without a time limit of its own: for tests, to
// compare the two on small boards.
absl::StatusOr<CompletionResult> BacktrackingSolveWithArrays(uint32_t n,
                                                             const SolveOptions& options);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_BACKTRACKING_H_

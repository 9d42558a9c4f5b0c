// The classic row-by-row bitwise search of the survey of constraint-
// satisfaction methods (left, down and right masks), first solution.
#ifndef NQUEENS_METHODS_BACKTRACKING_H_
#define NQUEENS_METHODS_BACKTRACKING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/tunable.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// A solution of the n x n board; UNDECIDED after
// params.backtracking_node_budget nodes (stats.search_nodes).
absl::StatusOr<CompletionResult> BacktrackingSolve(uint32_t n, const SolveOptions& options);

// The peak of Solve BACKTRACKING on n rows (nqueens/memory.h), before a
// symmetry's image.
uint64_t BacktrackingPeakBytes(uint64_t n);
// Its rows of the options table (base/tunable.h).
absl::Span<const Tunable> BacktrackingTunables();

// The same search with the control arrays that BacktrackingSolve uses above
// 64 columns, at any n: for tests, to compare the two on small boards.
absl::StatusOr<CompletionResult> BacktrackingSolveWithArrays(uint32_t n,
                                                             const SolveOptions& options);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_BACKTRACKING_H_

// Min-conflicts repair (Minton et al. 1992; Sosic and Gu's QS family): a
// permutation with per-diagonal counts, swap-based repair, random restarts of
// stuck queens, in O(n) memory.
#ifndef NQUEENS_METHODS_MIN_CONFLICTS_H_
#define NQUEENS_METHODS_MIN_CONFLICTS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/tunable.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// A solution of the n x n board (n >= 4), or UNDECIDED when 1 +
// params.max_restarts runs (stats.restarts) each spent their moves:
// params.tot_sim_bound, or params.min_conflicts_moves_per_row times the free
// rows when that is 0. stats.repairs counts moves.
absl::StatusOr<CompletionResult> MinConflictsSolve(uint32_t n, const SolveOptions& options);

// The peak of Solve MIN_CONFLICTS on n rows (nqueens/memory.h), before a
// symmetry's image.
uint64_t MinConflictsPeakBytes(uint64_t n);
// Its rows of the options table (base/tunable.h).
absl::Span<const Tunable> MinConflictsTunables();

// Extends `composition` with its queens fixed (INVALID_ARGUMENT, naming them,
// for attacking queens). Never UNSOLVABLE: a heuristic that gives up says
// UNDECIDED.
absl::StatusOr<CompletionResult> MinConflictsComplete(Columns composition,
                                                      const CompleteOptions& options);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_MIN_CONFLICTS_H_

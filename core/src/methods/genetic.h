// The genetic algorithm of the survey of constraint-satisfaction methods: a
// population of permutations, fitness = diagonal conflicts counted in O(n),
// crossover keeping the parents' common genes, swap mutation.
#ifndef NQUEENS_METHODS_GENETIC_H_
#define NQUEENS_METHODS_GENETIC_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/tunable.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// A solution of the n x n board, reproducible under options.seed; UNDECIDED
// after params.genetic_max_generations generations (stats.generations), or
// once params.tot_sim_bound boards bred (the first population's included)
// were no solution, GENETIC's backtracks (stats.backtracks; no limit when 0).
absl::StatusOr<CompletionResult> GeneticSolve(uint32_t n, const SolveOptions& options);

// The peak of Solve GENETIC on n rows (nqueens/memory.h), before a
// symmetry's image.
uint64_t GeneticPeakBytes(uint64_t n);
// Its rows of the options table (base/tunable.h).
absl::Span<const Tunable> GeneticTunables();

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_GENETIC_H_

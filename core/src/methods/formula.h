// The explicit families of placements (G. Usov): the prototype variants,
// modular placements for n = 6K+1 and 6K+5 and their cyclic shifts, and the
// product of an M x M solution and a modular N x N one.
#ifndef NQUEENS_METHODS_FORMULA_H_
#define NQUEENS_METHODS_FORMULA_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// Member options.formula_variant (0 .. FormulaVariantCount(n) - 1) of the
// families; stats.formula names it. INVALID_ARGUMENT naming the valid range
// for a variant out of it.
absl::StatusOr<CompletionResult> FormulaSolve(uint32_t n, const SolveOptions& options);

// The peak of Solve FORMULA on n rows (nqueens/memory.h), before a
// symmetry's image.
uint64_t FormulaPeakBytes(uint64_t n);

// Column of 1-based `row` in prototype 1..4 of the n x n board, where
// PrototypeExists(prototype, n).
uint32_t PrototypeColumn(uint32_t prototype, uint32_t n, uint32_t row);
bool PrototypeExists(uint32_t prototype, uint32_t n);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_FORMULA_H_

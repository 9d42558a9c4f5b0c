// The table of Solve's methods: for each, its names (SolveMethodInfo in
// nqueens/solver.h), the function that runs it, its peak memory and its rows
// of the options table. The server, the CLI and the Python client read the
// names from here or from the service's enum; a new method is a row here,
// its value in SolveMethod and in nqueens.v1.Method, its files under
// methods/, and its tunables' fields in PipelineParams (CONTRIBUTING.md).
#ifndef NQUEENS_SOLVE_SOLVE_METHODS_H_
#define NQUEENS_SOLVE_SOLVE_METHODS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/tunable.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

struct SolveMethodEntry {
  SolveMethodInfo info;
  // A full solution of the n x n board for n = 1 or n >= 4 (Solve answers
  // n = 2 and 3 itself), before options.symmetry is applied.
  absl::StatusOr<CompletionResult> (*solve)(uint32_t n, const SolveOptions& options);
  // The peak of `solve` on n rows (nqueens/memory.h).
  uint64_t (*peak_bytes)(uint64_t n);
  // Its rows of the options table (base/tunable.h).
  absl::Span<const Tunable> (*tunables)();
};

// The entry of `method`; nullptr for a value outside the enum.
const SolveMethodEntry* FindSolveMethodEntry(SolveMethod method);

}  // namespace nqueens::internal

#endif  // NQUEENS_SOLVE_SOLVE_METHODS_H_

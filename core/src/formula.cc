#include "formula.h"

namespace nqueens::internal {

absl::StatusOr<CompletionResult> FormulaSolve(uint32_t, const CompletionOptions&) {
  return absl::UnimplementedError("FORMULA is not implemented yet");
}

}  // namespace nqueens::internal

namespace nqueens {

uint64_t FormulaVariantCount(uint32_t) { return 0; }

}  // namespace nqueens

#include "genetic.h"

namespace nqueens::internal {

absl::StatusOr<CompletionResult> GeneticSolve(uint32_t, const CompletionOptions&) {
  return absl::UnimplementedError("GENETIC is not implemented yet");
}

}  // namespace nqueens::internal

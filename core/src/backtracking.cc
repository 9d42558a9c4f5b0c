#include "backtracking.h"

namespace nqueens::internal {

absl::StatusOr<CompletionResult> BacktrackingSolve(uint32_t, const CompletionOptions&) {
  return absl::UnimplementedError("BACKTRACKING is not implemented yet");
}

}  // namespace nqueens::internal

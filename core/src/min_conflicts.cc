#include "min_conflicts.h"

namespace nqueens::internal {

absl::StatusOr<CompletionResult> MinConflictsSolve(uint32_t, const CompletionOptions&) {
  return absl::UnimplementedError("MIN_CONFLICTS is not implemented yet");
}

absl::StatusOr<CompletionResult> MinConflictsComplete(Columns, const CompletionOptions&) {
  return absl::UnimplementedError("MIN_CONFLICTS is not implemented yet");
}

}  // namespace nqueens::internal

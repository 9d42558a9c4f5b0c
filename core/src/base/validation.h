// Validate and CheckComposition (nqueens/validate.h) on a StopPoller the
// caller already has, for the core's own O(n) checks.
#ifndef NQUEENS_BASE_VALIDATION_H_
#define NQUEENS_BASE_VALIDATION_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "nqueens/validate.h"

namespace nqueens::internal {

// nqueens::Validate, polling `stop` (options.stop is not read).
absl::StatusOr<ValidationReport> Validate(absl::Span<const uint32_t> columns,
                                          const ValidateOptions& options, StopPoller& stop);

// nqueens::CheckComposition, polling `stop`.
absl::Status CheckComposition(absl::Span<const uint32_t> columns, StopPoller& stop);

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_VALIDATION_H_

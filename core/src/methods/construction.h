// The explicit construction as a per-row formula, so that stages can ask for
// one row of it without building the whole board.
#ifndef NQUEENS_METHODS_CONSTRUCTION_H_
#define NQUEENS_METHODS_CONSTRUCTION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "base/stop_poller.h"
#include "nqueens/board.h"

namespace nqueens::internal {

// Column of `row` (1-based) in ConstructSolution(n); n = 1 or n >= 4.
uint32_t ConstructedColumn(uint32_t n, uint32_t row);

// ConstructSolution(n) for n = 1 or n >= 4, written in stretches polled by
// `stop` (docs/constants.md, Construct); the poller's status once it fires.
absl::StatusOr<Columns> Construct(uint32_t n, StopPoller& stop);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_CONSTRUCTION_H_

// A stage before the pipeline (beyond the paper): a composition taken from a
// solution the service itself produces is completed by that solution: the
// explicit construction, prototypes 1 and 2 of the explicit families (G.
// Usov), each under the eight symmetries of the square, and the modular
// placements (column - 1 = (shift + step * row) mod n), which include their
// own images and cyclic shifts, and the products of any solution with a
// modular placement, with their shifts that are solutions.
//
// Why: such inputs are what users naturally send (the output of Solve with
// some queens removed), and their regular structure defeats the random
// stages: keeping every third queen of the construction at n = 1,000 leaves
// hundreds of free cells in every row, yet random filling dead-ends every
// time. Checking costs O(k) with an early exit at the first queen that does
// not fit, so other inputs pay next to nothing.
#ifndef NQUEENS_METHODS_KNOWN_SOLUTIONS_H_
#define NQUEENS_METHODS_KNOWN_SOLUTIONS_H_

#include <optional>

#include "absl/status/statusor.h"
#include "base/stop_poller.h"
#include "nqueens/board.h"

namespace nqueens::internal {

// The full board when `composition` (valid, at least one queen) lies in one
// of those solutions; otherwise nullopt. O(n), polled: the poller's status
// once it fires.
absl::StatusOr<std::optional<Columns>> CompleteFromKnownSolution(const Columns& composition,
                                                                 StopPoller& stop);

// Products ("matrix in matrix"): row (i - 1) N + j holding column
// N (A[i] - 1) + B[j] for an M x M solution A and a modular N x N placement B
// (their images under the symmetries are products too), and their cyclic
// shifts of rows or columns that are solutions. The full board when the
// queens fit one whose base queens complete (by Complete() on the M x M
// board); otherwise nullopt. O(n) per divisor N of n that the queens do not
// rule out, polled.
absl::StatusOr<std::optional<Columns>> CompleteFromProduct(const Columns& composition,
                                                           StopPoller& stop);

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_KNOWN_SOLUTIONS_H_

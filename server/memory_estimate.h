// How much memory one call needs at its peak, for the memory budget.
//
// A call's peak is what the request message holds plus, per row of the
// board, the larger of the work's need and the response's; a fixed part per
// running call (gRPC's buffers, chunk messages, the core's tables and exact
// search, see kFixedCallBytes) is reserved once per worker thread, so that
// queued and idle calls do not hold it. The work's figures bound the core's
// own (nqueens/memory.h: 12.75 bytes a row for a completion, 4 for a
// construction, 4.6 for a validation), with room for a streamed board that
// grew by doubling as it arrived; tests/server/memory_budget_test.cc checks
// that they do:
//
//   work, bytes per row, its input board included:
//     completion (Complete, Solve RANDOM)  20
//     construction (Solve CONSTRUCTIVE)     4   the board
//     validation (Validate, Count)          5   the board + 5 bits of line flags
//     genetic (Solve GENETIC)             616   two generations of 75
//                                               permutations and their counts
//   Solve MIN_CONFLICTS and BACKTRACKING count as completions; a symmetry
//   makes a construction one too (its image is a second board).
//   response:
//     none or in chunks (Validate, streams) 0   one chunk at a time
//     whole in one message (Solve, Complete) 8  the response's copy of the
//                                               board and its serialized form
//   request (gRPC has received and parsed it before the handler runs):
//     8 bytes per dense column (the parsed field and the received message,
//     which stays resident), 96 per sparse queen (a parsed Queen message,
//     its pointer, its bytes as received, the core's copy; docs/constants.md,
//     kBytesPerSparseQueen).
//
// Measured peaks: docs/constants.md (PeakCallBytes).
#ifndef NQUEENS_SERVER_MEMORY_ESTIMATE_H_
#define NQUEENS_SERVER_MEMORY_ESTIMATE_H_

#include <cstdint>

#include "nqueens/memory.h"

namespace nqueens::server {

enum class Work { kCompletion, kConstruction, kValidation, kGenetic };

// Where the response carries the board: nowhere or in chunks (Validate, the
// stream methods), or whole in one message (Solve, Complete).
enum class ResponseBoard { kNoneOrChunked, kOneMessage };

// What the request message itself holds.
struct RequestBoard {
  uint64_t dense_columns = 0;
  uint64_t sparse_queens = 0;
};

// Reserved once per worker thread (see worker_pool.h) for the call it runs:
// gRPC's buffers and chunk messages (8 MiB), and the core's part that does
// not grow with n, its exact search's free board included.
inline constexpr uint64_t kFixedCallBytes = (uint64_t{8} << 20) + kCallFixedPeakBytes;

uint64_t PeakCallBytes(Work work, uint64_t n, const RequestBoard& request, ResponseBoard response);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_MEMORY_ESTIMATE_H_

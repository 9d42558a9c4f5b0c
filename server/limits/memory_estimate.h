// How much memory one call needs at its peak, for the memory budget: the
// core's own figure for the work (nqueens/memory.h) plus what the call's
// wire formats hold.
//
// A fixed part per running call (gRPC's buffers and chunk messages, and the
// core's kCallFixedPeakBytes: its small tables and exact search) is reserved
// once per worker thread (kFixedCallBytes), so that queued and idle calls do
// not hold it. A call reserves the rest:
//   - the work: the core's figure beyond kCallFixedPeakBytes, and for a board
//     the client sends (Complete, Validate, Count, Enumerate) 4 bytes a row
//     more, as a streamed board grows by doubling while it arrives;
//   - the response, when it carries the board whole in one message (Solve,
//     Complete): 8 bytes a row, its copy of the board and the serialized
//     form; the call holds the larger of this and the work, as the work's
//     arrays are freed before the response is built;
//   - the request (gRPC has received and parsed it before the handler runs):
//     8 bytes per dense column (the parsed field and the received message,
//     which stays resident), 96 per sparse queen (a parsed Queen message,
//     its pointer, its bytes as received, the core's copy; docs/constants.md,
//     kBytesPerSparseQueen).
//
// tests/server/memory_budget_test.cc checks the sums; measured peaks:
// docs/constants.md (PeakCallBytes).
#ifndef NQUEENS_SERVER_LIMITS_MEMORY_ESTIMATE_H_
#define NQUEENS_SERVER_LIMITS_MEMORY_ESTIMATE_H_

#include <cstdint>

#include "nqueens/memory.h"
#include "nqueens/solver.h"

namespace nqueens::server {

// What a call computes, by the core's estimate of its peak.
struct Work {
  enum class Kind {
    kCompletion,  // Complete and its stream: CompletePeakBytes
    kSolve,       // SolvePeakBytes of `method` and `symmetry`
    kValidation,  // Validate, Count, Enumerate: ValidatePeakBytes
  };
  Kind kind;
  SolveMethod method = SolveMethod::kConstructive;
  uint32_t symmetry = 0;
};
inline constexpr Work kCompletionWork{Work::Kind::kCompletion};
inline constexpr Work kValidationWork{Work::Kind::kValidation};

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

uint64_t PeakCallBytes(const Work& work, uint64_t n, const RequestBoard& request,
                       ResponseBoard response);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_MEMORY_ESTIMATE_H_

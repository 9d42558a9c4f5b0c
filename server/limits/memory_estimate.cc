#include "server/limits/memory_estimate.h"

#include <algorithm>

namespace nqueens::server {
namespace {

constexpr uint64_t kBytesPerDenseColumn = 8;
constexpr uint64_t kBytesPerSparseQueen = 96;
constexpr uint64_t kStreamedBoardSlackPerRow = 4;
constexpr uint64_t kOneMessageResponsePerRow = 8;

// The core's figure for `work` on n rows beyond what every worker holds.
uint64_t WorkBytes(const Work& work, uint64_t n) {
  if (n == 0) return 0;
  uint64_t core = 0;
  switch (work.kind) {
    case Work::Kind::kCompletion:
      core = CompletePeakBytes(n) + kStreamedBoardSlackPerRow * n;
      break;
    case Work::Kind::kSolve:
      core = SolvePeakBytes(n, work.method, work.symmetry);
      break;
    case Work::Kind::kValidation:
      core = ValidatePeakBytes(n) + kStreamedBoardSlackPerRow * n;
      break;
  }
  return core > kCallFixedPeakBytes ? core - kCallFixedPeakBytes : 0;
}

}  // namespace

uint64_t PeakCallBytes(const Work& work, uint64_t n, const RequestBoard& request,
                       ResponseBoard response) {
  const uint64_t request_bytes =
      kBytesPerDenseColumn * request.dense_columns + kBytesPerSparseQueen * request.sparse_queens;
  const uint64_t response_bytes =
      response == ResponseBoard::kOneMessage ? kOneMessageResponsePerRow * n : 0;
  return request_bytes + std::max(WorkBytes(work, n), response_bytes);
}

}  // namespace nqueens::server

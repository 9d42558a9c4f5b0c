#include "memory_estimate.h"

#include <algorithm>

namespace nqueens::server {
namespace {

constexpr uint64_t kBytesPerDenseColumn = 8;
constexpr uint64_t kBytesPerSparseQueen = 96;
// Two generations of the default population of permutations (4 bytes a row
// each) and their diagonal counts.
constexpr uint64_t kGeneticBytesPerRow = uint64_t{4} * (2 * 75 + 4);

uint64_t WorkBytesPerRow(Work work) {
  switch (work) {
    case Work::kCompletion:
      return 20;
    case Work::kConstruction:
      return 4;
    case Work::kValidation:
      return 5;
    case Work::kGenetic:
      return kGeneticBytesPerRow;
  }
  return 20;
}

uint64_t ResponseBytesPerRow(ResponseBoard response) {
  return response == ResponseBoard::kOneMessage ? 8 : 0;
}

}  // namespace

uint64_t PeakCallBytes(Work work, uint64_t n, const RequestBoard& request, ResponseBoard response) {
  const uint64_t request_bytes =
      kBytesPerDenseColumn * request.dense_columns + kBytesPerSparseQueen * request.sparse_queens;
  const uint64_t per_row = std::max(WorkBytesPerRow(work), ResponseBytesPerRow(response));
  return request_bytes + per_row * n;
}

}  // namespace nqueens::server

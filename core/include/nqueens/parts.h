// One part of a search cut into disjoint parts, so that a job too big for
// one machine can be spread over many: counting and enumerating
// (nqueens/count.h) and the exact search of Complete (nqueens/solver.h) each
// take a PartSelector. The split depends only on the input and part count,
// never on the machine, threads or seed, so that every server cuts the same
// search the same way; docs/parts.md describes each split.
#ifndef NQUEENS_PARTS_H_
#define NQUEENS_PARTS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace nqueens {

// The most parts a search may be cut into.
inline constexpr uint64_t kMaxPartCount = uint64_t{1} << 16;

struct PartSelector {
  uint64_t index = 0;  // 0 .. count - 1
  uint64_t count = 1;  // 1: the whole search

  bool whole() const { return count == 1; }
};

// INVALID_ARGUMENT, naming part_count or part_index, unless
// 1 <= part.count <= kMaxPartCount and part.index < part.count.
absl::Status CheckPartSelector(const PartSelector& part);

}  // namespace nqueens

#endif  // NQUEENS_PARTS_H_

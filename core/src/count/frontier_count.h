// Counting the completions of a residual board of at most 64 columns below a
// prefix of placements: the hot case of counting, where nearly all the time
// of counting the empty board goes.
//
// A depth-first search is bound by mispredicted branches: each node is a
// data-dependent push or pop. So only the levels above the last few are
// searched depth first (they hold a few percent of the nodes); the nodes it
// reaches are collected into a frontier, which is expanded breadth first, a
// level at a time, in a loop without data-dependent branches: one iteration
// per (node, open cell), each child written out and kept by moving the write
// pointer. The last three levels are counted in closed form.
#ifndef NQUEENS_COUNT_FRONTIER_COUNT_H_
#define NQUEENS_COUNT_FRONTIER_COUNT_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "count/residual.h"
#include "nqueens/count.h"

namespace nqueens::internal {

struct FrontierOptions {
  // Levels expanded breadth first, above the last three (which are counted
  // in closed form): enough to leave few nodes to the depth-first search
  // (docs/constants.md, FrontierOptions::breadth_levels).
  size_t breadth_levels = 5;
  // The tries (node, open cell) collected from the depth-first levels
  // before they are expanded.
  uint64_t batch_tries = 1024;
  // A frontier with more tries is expanded in halves: bounds the memory (32
  // bytes a try per level) and the work between polls of the stop.
  uint64_t max_frontier_tries = 16384;
};

// The completions of the first `levels` levels of `geometry` below `prefix`
// (a bit per level, each open where placed, at most levels - 3 of them),
// and the nodes: the cells tried in all levels but the last three.
absl::StatusOr<CountPart> CountByFrontiers(const ShiftGeometry& geometry, size_t levels,
                                           absl::Span<const uint64_t> prefix, StopPoller& stop,
                                           const FrontierOptions& options = {});

}  // namespace nqueens::internal

#endif  // NQUEENS_COUNT_FRONTIER_COUNT_H_

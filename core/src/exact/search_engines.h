// The three engines of the exact search, one algorithm on three data layouts
// (docs/hard-instances.md): a DFS over the free board branching on the row or
// column with the fewest open cells, least damage first, cut by a bipartite
// matching bound. One driver runs the DFS (search_driver.h); an engine is
// the policy that keeps the board, chooses the line, orders its cells and
// keeps the matching. Same tie-breaks, same tree: they visit the same nodes,
// except that on a square hole (consecutive free rows and columns, at most
// 32 of each) the word engine also cuts by the diagonal sums
// (word_search.h): a subtree of the others' tree with the same solutions.
// - The word engine (at most kWordSearchMaxFreeRows free rows) keeps each
//   row's and each column's open cells in one machine word and copies them
//   per depth: a node is a few dozen word operations.
// - The trail engine (boards with line lists, at most kLineListsMaxFreeRows
//   free rows) closes cells one by one on a trail and reopens them on
//   backtracking: about 40 d^2 bytes for d free rows.
// - The large engine (any size) keeps two bits a cell and recomputes what a
//   placement closed when it lifts the queen: d^2 / 4 bytes, O(d) a node.
#ifndef NQUEENS_EXACT_SEARCH_ENGINES_H_
#define NQUEENS_EXACT_SEARCH_ENGINES_H_

#include <cstdint>

#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/free_board.h"
#include "exact/search_driver.h"

namespace nqueens::internal {

inline constexpr uint32_t kWordSearchMaxFreeRows = 64;

// Search the subtree of `board`'s tree below `prefix` (non-attacking queens
// on open cells, from the root down; none: the whole tree) for a first
// solution within `node_budget` nodes, polling `stop` (the caller reads its
// status). Ties between lines and between cells go by a random order drawn
// from `tie_seed`, so that restarts explore differently. The outcome counts
// the subtree's nodes, its placement is the whole board's. Each engine
// writes the subtree to `certificate` if one is given.
SearchOutcome RunWordSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                 uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                 CertificateWriter* certificate = nullptr);
SearchOutcome RunTrailSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                  uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                  CertificateWriter* certificate = nullptr);
SearchOutcome RunLargeSearchBelow(absl::Span<const FreeQueen> prefix, const FreeBoard& board,
                                  uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                                  CertificateWriter* certificate = nullptr);

// The same on the whole tree.
inline SearchOutcome RunWordSearch(const FreeBoard& board, uint64_t node_budget, StopPoller& stop,
                                   uint64_t tie_seed, CertificateWriter* certificate = nullptr) {
  return RunWordSearchBelow({}, board, node_budget, stop, tie_seed, certificate);
}
inline SearchOutcome RunTrailSearch(const FreeBoard& board, uint64_t node_budget, StopPoller& stop,
                                    uint64_t tie_seed, CertificateWriter* certificate = nullptr) {
  return RunTrailSearchBelow({}, board, node_budget, stop, tie_seed, certificate);
}
inline SearchOutcome RunLargeSearch(const FreeBoard& board, uint64_t node_budget, StopPoller& stop,
                                    uint64_t tie_seed, CertificateWriter* certificate = nullptr) {
  return RunLargeSearchBelow({}, board, node_budget, stop, tie_seed, certificate);
}

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_SEARCH_ENGINES_H_

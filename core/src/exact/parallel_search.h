// The word engine's search of one board on several threads: the top of the
// tree is expanded, in the order the search would visit it, until there are
// several subtrees per thread; then the calling thread and helper threads take
// subtrees in that order until none is left, a solution is found, the shared
// node budget is spent or the caller stops. The tree is the sequential
// search's, so an exhausted tree is the same proof and visits the same nodes.
// A certificate is written as the sequential search writes it: the top by the
// calling thread, each subtree by the thread that searched it, into a slot of
// the top (certificate.h), compressed there.
#ifndef NQUEENS_EXACT_PARALLEL_SEARCH_H_
#define NQUEENS_EXACT_PARALLEL_SEARCH_H_

#include <cstdint>

#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/search_engines.h"
#include "exact/word_search.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// Searches `board` (below `prefix`: search_engines.h) on the calling thread
// and up to threads.count - 1 helpers started through threads.run (own
// threads when it is empty). Helpers that start after the search ended
// return at once without touching `board`. Returns once no helper searches
// any more; the caller reads `stop`'s status.
SearchOutcome RunParallelWordSearch(const WordBoard& board, uint64_t node_budget, StopPoller& stop,
                                    uint64_t tie_seed, const SearchThreads& threads,
                                    absl::Span<const FreeQueen> prefix = {},
                                    CertificateWriter* certificate = nullptr);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_PARALLEL_SEARCH_H_

// The complete search (beyond the paper): a DFS over the free rows x free
// columns of a composition, branching on the row or column with the fewest
// open cells, least-damage cell first, with a bipartite matching bound. It is
// the only part of the core allowed to answer UNSOLVABLE.
#ifndef NQUEENS_EXACT_EXACT_SEARCH_H_
#define NQUEENS_EXACT_EXACT_SEARCH_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/exact_budget.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

enum class ExactVerdict { kSolved, kUnsolvable, kBudgetExhausted };

struct ExactResult {
  ExactVerdict verdict = ExactVerdict::kBudgetExhausted;
  Columns columns;     // the full board when kSolved
  uint64_t nodes = 0;  // search nodes visited
  uint64_t runs = 0;   // the first and its restarts
  // The share of the last run's tree searched (SearchOutcome::explored).
  double explored = 0;
  // kUnsolvable when certificate_max_bytes > 0 (then the search runs on one
  // thread): the proof (certificate.h) if it fits, or why there is none.
  std::optional<std::string> certificate;
  std::string certificate_missing;
};

// Decides whether `composition` (a valid composition; the caller checked it)
// extends to a full solution, whatever its number d of free rows: memory
// about 40 d^2 bytes up to d = kLineListsMaxFreeRows (1024), d^2 / 4 beyond
// (search_engines.h), plus n / 2 bytes of line bits for the n x n board, and
// O(n + d^2) time to build the free board. Gives up with kBudgetExhausted once the
// budget is spent (its nodes or its deadline; the budget's `ends_call` is
// the caller's concern); returns the poller's status when it stops.
absl::StatusOr<ExactResult> ExactComplete(absl::Span<const uint32_t> composition,
                                          const ExactBudget& budget, StopPoller& stop,
                                          const SearchThreads& threads = {},
                                          size_t certificate_max_bytes = 0);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_EXACT_SEARCH_H_

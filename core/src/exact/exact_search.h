// The complete search (beyond the paper): a DFS over the free rows x free
// columns of a composition, branching on the row or column with the fewest
// open cells, least-damage cell first, with a bipartite matching bound. It is
// the only part of the core allowed to answer UNSOLVABLE.
#ifndef NQUEENS_EXACT_EXACT_SEARCH_H_
#define NQUEENS_EXACT_EXACT_SEARCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/exact_budget.h"
#include "exact/free_board.h"
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
  // kUnsolvable when a certificate was wanted: the proof (certificate.h) if
  // it fits, or why there is none.
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
                                          const CertificateWanted& certificate = {});

// A run given this many nodes is the last of ExactComplete's restarts: it
// goes on until the search's own budget ends. Restarts rescue satisfiable
// boards stuck in a hopeless subtree, which the runs below this (about 0.1 s
// on the word engine) are for; on an unsolvable board each restart only
// repeats the last run's work, and doubling without end spends several
// times the nodes of the proof. The size of the last run is measured
// against 2^23 on Excluded Diagonals boards in docs/hard-instances-log.md,
// "Last-run sizes and earlier versions".
inline constexpr uint64_t kLastRunFromNodes = uint64_t{1} << 20;

// How SearchSubtree searches.
struct SubtreeSearch {
  SearchThreads threads;
  // Gets the subtree's proof (null: none).
  CertificateWriter* certificate = nullptr;
  // Restarts end with the run of this many nodes or more: the searches of
  // many subtrees share out kLastRunFromNodes, so that their restarts
  // together spend no more than one search's.
  uint64_t last_run_from = kLastRunFromNodes;
};

// ExactComplete's search of the subtree below `prefix` (queens on open
// cells of `board`, the free board of `composition`; none: the whole tree),
// within the budget left after result.nodes, which may be a share of one
// for several subtrees (exact_part.h): adds its nodes and runs to `result`,
// sets result.verdict and result.explored (of its last run), and the full
// board in result.columns when kSolved. Returns the poller's status when the
// call stops.
absl::Status SearchSubtree(absl::Span<const uint32_t> composition, const FreeBoard& board,
                           absl::Span<const FreeQueen> prefix, const ExactBudget& budget,
                           const SubtreeSearch& how, StopPoller& stop, ExactResult& result);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_EXACT_SEARCH_H_

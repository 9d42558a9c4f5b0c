#include "solve/solve_methods.h"

#include <iterator>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "base/huge_pages.h"
#include "base/peak_bytes.h"
#include "base/stop_poller.h"
#include "exact/exact_budget.h"
#include "methods/backtracking.h"
#include "methods/construction.h"
#include "methods/formula.h"
#include "methods/genetic.h"
#include "methods/min_conflicts.h"
#include "nqueens/memory.h"

namespace nqueens::internal {
namespace {

absl::StatusOr<CompletionResult> SolveByConstruction(uint32_t n, const SolveOptions& options) {
  const absl::Time start = absl::Now();
  StopPoller stop(options.stop);
  absl::StatusOr<Columns> columns = Construct(n, stop);
  if (!columns.ok()) return columns.status();
  CompletionResult result;
  result.outcome = Outcome::kSolved;
  result.columns = *std::move(columns);
  result.stats.seed = options.seed;
  result.stats.total_time = absl::Now() - start;
  return result;
}

// It writes only the board it returns.
uint64_t ConstructionPeakBytes(uint64_t n) { return kFixedPeakBytes + Board(n); }

// The empty board, in huge pages: the pipeline writes its rows at random.
// Written in polled stretches (docs/constants.md, AppendPolled); the
// poller's status once it fires.
absl::StatusOr<Columns> EmptyBoard(uint32_t n, const StopCondition& condition) {
  StopPoller stop(condition);
  Columns board;
  ReserveHuge(board, n);
  if (!AppendPolled(board, n, kEmptyRow, stop)) return stop.status();
  return board;
}

absl::StatusOr<CompletionResult> SolveByCompletion(uint32_t n, const SolveOptions& options) {
  absl::StatusOr<Columns> board = EmptyBoard(n, options.stop);
  if (!board.ok()) return board.status();
  return Complete(*std::move(board), CompleteOptions(options));
}

uint64_t CompletionPeakBytes(uint64_t n) {
  return CompletePeakBytes(n, 0, CompleteMethod::kPipeline);
}

// BACKTRACKING is a complete search: it gives up where the exact search
// would (params.exact_max_seconds, or shortly before the call's deadline, or
// kDefaultExactSeconds without one), with an answer in time.
absl::StatusOr<CompletionResult> SolveByBacktracking(uint32_t n, const SolveOptions& options) {
  return BacktrackingSolve(n, options,
                           ExactBudgetFor(options.params, options.stop, absl::Now()).deadline);
}

// RANDOM's tunables are the pipeline's, listed first in the table.
absl::Span<const Tunable> NoTunables() { return {}; }

// In the enum's order.
constexpr SolveMethodEntry kSolveMethods[] = {
    {{SolveMethod::kConstructive, "CONSTRUCTIVE", "constructive"},
     SolveByConstruction,
     ConstructionPeakBytes,
     NoTunables},
    {{SolveMethod::kRandom, "RANDOM", "random"},
     SolveByCompletion,
     CompletionPeakBytes,
     NoTunables},
    {{SolveMethod::kMinConflicts, "MIN_CONFLICTS", "min-conflicts"},
     MinConflictsSolve,
     MinConflictsPeakBytes,
     MinConflictsTunables},
    {{SolveMethod::kBacktracking, "BACKTRACKING", "backtracking"},
     SolveByBacktracking,
     BacktrackingPeakBytes,
     BacktrackingTunables},
    {{SolveMethod::kGenetic, "GENETIC", "genetic"},
     GeneticSolve,
     GeneticPeakBytes,
     GeneticTunables},
    {{SolveMethod::kFormula, "FORMULA", "formula"}, FormulaSolve, FormulaPeakBytes, NoTunables},
};

constexpr bool InEnumOrder() {
  for (size_t i = 0; i < std::size(kSolveMethods); ++i) {
    if (static_cast<size_t>(kSolveMethods[i].info.method) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "kSolveMethods is indexed by SolveMethod");

}  // namespace

const SolveMethodEntry* FindSolveMethodEntry(SolveMethod method) {
  const auto index = static_cast<size_t>(method);
  return index < std::size(kSolveMethods) ? &kSolveMethods[index] : nullptr;
}

}  // namespace nqueens::internal

namespace nqueens {

absl::Span<const SolveMethodInfo> SolveMethods() {
  static const auto* const infos = [] {
    auto* list = new std::vector<SolveMethodInfo>;
    for (const internal::SolveMethodEntry& entry : internal::kSolveMethods) {
      list->push_back(entry.info);
    }
    return list;
  }();
  return *infos;
}

}  // namespace nqueens

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/stop_poller.h"
#include "exact/exact_search.h"
#include "nqueens/solver.h"
#include "solve/solve_methods.h"

namespace nqueens {
namespace {

// n = 2 and n = 3 have no solution; the exact search proves it on the empty
// board rather than the code asserting it.
absl::StatusOr<CompletionResult> SolveByExactSearch(uint32_t n, const CallOptions& options) {
  const absl::Time start = absl::Now();
  internal::StopPoller stop(options.stop);
  absl::StatusOr<internal::ExactResult> exact =
      internal::ExactComplete(Columns(n, kEmptyRow), {options.params.exact_node_budget}, stop);
  if (!exact.ok()) return exact.status();
  CompletionResult result;
  switch (exact->verdict) {
    case internal::ExactVerdict::kSolved:
      result.outcome = Outcome::kSolved;
      result.columns = std::move(exact->columns);
      break;
    case internal::ExactVerdict::kUnsolvable:
      result.outcome = Outcome::kUnsolvable;
      break;
    case internal::ExactVerdict::kBudgetExhausted:
      result.outcome = Outcome::kUndecided;
      break;
  }
  result.stats.seed = options.seed;
  result.stats.start_block = Block::kExact;
  result.stats.exact_nodes = exact->nodes;
  result.stats.exact_runs = exact->runs;
  result.stats.exact_explored = exact->explored;
  result.stats.total_time = absl::Now() - start;
  result.stats.time_in_block[static_cast<int>(Block::kExact)] = result.stats.total_time;
  return result;
}

absl::StatusOr<CompletionResult> SolveBy(uint32_t n, SolveMethod method,
                                         const SolveOptions& options) {
  if (n == 2 || n == 3) return SolveByExactSearch(n, options);
  const internal::SolveMethodEntry* entry = internal::FindSolveMethodEntry(method);
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown solve method ", static_cast<int>(method)));
  }
  return entry->solve(n, options);
}

}  // namespace

const char* SolveMethodName(SolveMethod method) {
  const internal::SolveMethodEntry* entry = internal::FindSolveMethodEntry(method);
  return entry != nullptr ? entry->info.name : "UNKNOWN";
}

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSolved:
      return "SOLVED";
    case Outcome::kUnsolvable:
      return "UNSOLVABLE";
    case Outcome::kUndecided:
      return "UNDECIDED";
  }
  return "UNKNOWN";
}

absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                       const SolveOptions& options) {
  if (absl::Status status = CheckBoardSize(n); !status.ok()) return status;
  if (absl::Status params = CheckParams(options.params); !params.ok()) return params;
  if (options.symmetry >= kSymmetryCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("symmetry must be 0..", kSymmetryCount - 1, ", not ", options.symmetry));
  }
  absl::StatusOr<CompletionResult> result = SolveBy(n, method, options);
  if (!result.ok()) return result.status();
  result->stats.method = SolveMethodName(method);
  if (options.symmetry != 0 && result->outcome == Outcome::kSolved) {
    absl::StatusOr<Columns> image = ApplySymmetry(result->columns, options.symmetry);
    if (!image.ok()) return image.status();
    result->columns = *std::move(image);
  }
  return result;
}

}  // namespace nqueens

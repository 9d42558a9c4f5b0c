#include "exact/exact_search.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "base/huge_pages.h"
#include "exact/certificate.h"
#include "exact/free_board.h"
#include "exact/line_ranks.h"
#include "exact/parallel_search.h"
#include "exact/search_engines.h"

namespace nqueens::internal {
namespace {

// Nodes of the first run of ExactComplete, or twice the free rows when that
// is more (a run shorter than the board is deep cannot reach a solution);
// each restart doubles it.
constexpr uint64_t kFirstRunBudget = 1024;

// Runs of fewer nodes stay on one thread: splitting the tree would cost more
// than they take. Low enough that a hard board's first restarts already run
// on several threads (docs/constants.md, kParallelFromNodes).
constexpr uint64_t kParallelFromNodes = uint64_t{1} << 12;

// The engine for `board`: the word engine where it fits, on several threads
// for long runs. Each run writes its certificate anew, from the ranks of its
// tie-breaks, which choose its branching lines.
SearchOutcome RunSearch(const FreeBoard& board, absl::Span<const FreeQueen> prefix,
                        uint64_t node_budget, StopPoller& stop, uint64_t tie_seed,
                        const SubtreeSearch& how) {
  if (how.certificate != nullptr) {
    how.certificate->Restart();
    const BoardRanks ranks = DrawBoardRanks(board, tie_seed);
    how.certificate->Ranked(ranks.rows, ranks.columns);
  }
  if (board.size() > kLineListsMaxFreeRows) {
    return RunLargeSearchBelow(prefix, board, node_budget, stop, tie_seed, how.certificate);
  }
  if (board.size() > kWordSearchMaxFreeRows) {
    return RunTrailSearchBelow(prefix, board, node_budget, stop, tie_seed, how.certificate);
  }
  if (how.threads.count <= 1 || node_budget < kParallelFromNodes) {
    return RunWordSearchBelow(prefix, board, node_budget, stop, tie_seed, how.certificate);
  }
  const WordBoard word_board(board);
  return RunParallelWordSearch(word_board, node_budget, stop, tie_seed, how.threads, prefix,
                               how.certificate);
}

// Copies `from` into `to` in polled stretches (the solved board: 4 GB at
// n = 10^9); false once the poll fires.
bool CopyPolled(absl::Span<const uint32_t> from, Columns& to, StopPoller& stop) {
  to.clear();
  ReserveHuge(to, from.size());
  return RunInStretches(0, from.size(), stop, [&from, &to](size_t first, size_t last) {
    to.insert(to.end(), from.begin() + first, from.begin() + last);
  });
}

}  // namespace

// The search's cost is heavy-tailed: most residual boards fall in about one
// node per free row, a few get stuck deep in a hopeless subtree. So the
// search restarts with a doubled budget and new tie-breaks; every run is
// complete, so one that ends within its budget without a solution proves
// there is none. Restarts stop at how.last_run_from.
absl::Status SearchSubtree(absl::Span<const uint32_t> composition, const FreeBoard& board,
                           absl::Span<const FreeQueen> prefix, const ExactBudget& budget,
                           const SubtreeSearch& how, StopPoller& stop, ExactResult& result) {
  // The search polls the call's stop and its own deadline together.
  StopCondition bounded = stop.condition();
  bounded.deadline = std::min(bounded.deadline, budget.deadline);
  StopPoller search_stop(bounded);
  uint64_t run_budget = std::max<uint64_t>(kFirstRunBudget, 2 * uint64_t{board.size()});
  for (uint64_t run = 0;; ++run) {
    const uint64_t nodes_left = budget.nodes - std::min(budget.nodes, result.nodes);
    const SearchOutcome search =
        RunSearch(board, prefix, std::min(run_budget, nodes_left), search_stop, run, how);
    result.nodes += search.nodes;
    ++result.runs;
    result.explored = search.explored;
    if (!search_stop.status().ok()) {
      // The budget's deadline, before the call's, is a give-up; the call's
      // stop an error.
      const bool budget_ran_out =
          search_stop.status().code() == absl::StatusCode::kDeadlineExceeded &&
          budget.deadline < stop.condition().deadline;
      if (!budget_ran_out) return search_stop.status();
      result.verdict = ExactVerdict::kBudgetExhausted;
      return absl::OkStatus();
    }
    if (search.solutions > 0) {
      result.verdict = ExactVerdict::kSolved;
      if (!CopyPolled(composition, result.columns, stop)) return stop.status();
      for (uint32_t a = 0; a < board.size(); ++a) {
        result.columns[board.row(a) - 1] = board.column(search.placement[a]);
      }
      return absl::OkStatus();
    }
    if (!search.budget_exhausted) {
      result.verdict = ExactVerdict::kUnsolvable;
      return absl::OkStatus();
    }
    if (result.nodes >= budget.nodes) {
      result.verdict = ExactVerdict::kBudgetExhausted;
      return absl::OkStatus();
    }
    const bool last_run = run_budget >= how.last_run_from / 2 || run_budget > budget.nodes / 2;
    run_budget = last_run ? budget.nodes : run_budget * 2;
  }
}

absl::StatusOr<ExactResult> ExactComplete(absl::Span<const uint32_t> composition,
                                          const ExactBudget& budget, StopPoller& stop,
                                          const SearchThreads& threads,
                                          const CertificateWanted& wanted) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status();
  const bool certifies = wanted.max_bytes > 0;
  const std::string header = certifies ? CertificateHeader(wanted.format, composition.size(),
                                                           composition.size() - board->size(), {})
                                       : "";
  CertificateMemory memory(wanted.reserve_memory);
  std::optional<CertificateWriter> certificate;
  if (certifies) {
    certificate.emplace(wanted.format, board->rows(), board->columns(),
                        wanted.max_bytes - std::min(wanted.max_bytes, header.size()), &memory);
  }
  SubtreeSearch how;
  how.threads = threads;
  how.certificate = certifies ? &*certificate : nullptr;
  ExactResult result;
  if (absl::Status status = SearchSubtree(composition, *board, {}, budget, how, stop, result);
      !status.ok()) {
    return status;
  }
  if (result.verdict != ExactVerdict::kUnsolvable || !certifies) return result;
  if (std::optional<std::string> whole = certificate->Finish(header, CertificateEnd(wanted.format));
      whole.has_value()) {
    result.certificate = std::move(whole);
  } else {
    result.certificate_missing = memory.WhyDropped(wanted.max_bytes);
  }
  return result;
}

}  // namespace nqueens::internal

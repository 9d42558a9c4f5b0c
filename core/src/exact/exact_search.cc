#include "exact/exact_search.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "base/huge_pages.h"
#include "exact/certificate.h"
#include "exact/free_board.h"
#include "exact/parallel_search.h"
#include "exact/search_engines.h"

namespace nqueens::internal {
namespace {

// Nodes of the first run of ExactComplete, or twice the free rows when that
// is more (a run shorter than the board is deep cannot reach a solution);
// each restart doubles it.
constexpr uint64_t kFirstRunBudget = 1024;

// A run given this many nodes is the last: it goes on until the search's
// own budget ends. Restarts rescue satisfiable boards stuck in a hopeless
// subtree, which the runs below this (about 0.1 s on the word engine) are
// for; on an unsolvable board each restart only repeats the last run's work,
// and doubling without end spends several times the nodes of the proof.
// The size of the last run is measured against 2^23 on Excluded Diagonals
// boards in docs/hard-instances-log.md, "Last-run sizes and earlier
// versions".
constexpr uint64_t kLastRunFromNodes = uint64_t{1} << 20;

// Runs of fewer nodes stay on one thread: splitting the tree would cost more
// than they take. Low enough that a hard board's first restarts already run
// on several threads (docs/constants.md, kParallelFromNodes).
constexpr uint64_t kParallelFromNodes = uint64_t{1} << 12;

// The engine for `board`: the word engine where it fits, on several threads
// for long runs unless it writes a certificate.
SearchOutcome RunSearch(const FreeBoard& board, uint64_t node_budget, StopPoller& stop,
                        uint64_t tie_seed, const SearchThreads& threads,
                        CertificateWriter* certificate) {
  if (board.size() > kLineListsMaxFreeRows) {
    return RunLargeSearch(board, node_budget, stop, tie_seed);
  }
  if (board.size() > kWordSearchMaxFreeRows) {
    return RunTrailSearch(board, node_budget, stop, tie_seed);
  }
  // A certificate is the sequential search's tree.
  if (threads.count <= 1 || node_budget < kParallelFromNodes || certificate != nullptr) {
    if (certificate != nullptr) certificate->Restart();
    return RunWordSearch(board, node_budget, stop, tie_seed, certificate);
  }
  const WordBoard word_board(board);
  return RunParallelWordSearch(word_board, node_budget, stop, tie_seed, threads);
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

// The certificate of a search that proved UNSOLVABLE, or why there is none.
void FinishCertificate(std::optional<CertificateWriter>& writer, uint32_t free_rows,
                       ExactResult& result) {
  if (!writer.has_value()) {
    result.certificate_missing =
        absl::StrCat("certificates are written for boards of at most ", kWordSearchMaxFreeRows,
                     " free rows; this one has ", free_rows);
    return;
  }
  result.certificate = writer->Finish();
  if (!result.certificate.has_value()) {
    result.certificate_missing =
        absl::StrCat("the certificate outgrew its limit of ", writer->max_bytes(), " bytes");
  }
}

}  // namespace

// The search's cost is heavy-tailed: most residual boards fall in about one
// node per free row, a few get stuck deep in a hopeless subtree. So the
// search restarts with a doubled budget and new tie-breaks; every run is
// complete, so one that ends within its budget without a solution proves
// there is none. Restarts stop at kLastRunFromNodes.
absl::StatusOr<ExactResult> ExactComplete(absl::Span<const uint32_t> composition,
                                          const ExactBudget& budget, StopPoller& stop,
                                          const SearchThreads& threads,
                                          size_t certificate_max_bytes) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status();
  ExactResult result;
  std::optional<CertificateWriter> certificate;
  if (certificate_max_bytes > 0 && board->size() <= kWordSearchMaxFreeRows) {
    certificate.emplace(*board, composition.size(), composition.size() - board->size(),
                        certificate_max_bytes);
  }
  // The search polls the call's stop and its own deadline together.
  StopCondition bounded = stop.condition();
  bounded.deadline = std::min(bounded.deadline, budget.deadline);
  StopPoller search_stop(bounded);
  uint64_t run_budget = std::max<uint64_t>(kFirstRunBudget, 2 * uint64_t{board->size()});
  for (uint64_t run = 0;; ++run) {
    const SearchOutcome search =
        RunSearch(*board, std::min(run_budget, budget.nodes - result.nodes), search_stop, run,
                  threads, certificate.has_value() ? &*certificate : nullptr);
    result.nodes += search.nodes;
    result.runs = run + 1;
    result.explored = search.explored;
    if (!search_stop.status().ok()) {
      // The budget's deadline, before the call's, is a give-up; the call's
      // stop an error.
      const bool budget_ran_out =
          search_stop.status().code() == absl::StatusCode::kDeadlineExceeded &&
          budget.deadline < stop.condition().deadline;
      if (!budget_ran_out) return search_stop.status();
      result.verdict = ExactVerdict::kBudgetExhausted;
      return result;
    }
    if (search.solutions > 0) {
      result.verdict = ExactVerdict::kSolved;
      if (!CopyPolled(composition, result.columns, stop)) return stop.status();
      for (uint32_t a = 0; a < board->size(); ++a) {
        result.columns[board->row(a) - 1] = board->column(search.placement[a]);
      }
      return result;
    }
    if (!search.budget_exhausted) {
      result.verdict = ExactVerdict::kUnsolvable;
      if (certificate_max_bytes > 0) FinishCertificate(certificate, board->size(), result);
      return result;
    }
    if (result.nodes >= budget.nodes) {
      result.verdict = ExactVerdict::kBudgetExhausted;
      return result;
    }
    const bool last_run = run_budget >= kLastRunFromNodes / 2 || run_budget > budget.nodes / 2;
    run_budget = last_run ? budget.nodes : run_budget * 2;
  }
}

}  // namespace nqueens::internal

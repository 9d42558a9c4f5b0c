// The backend behind --local: the core, called directly.
#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "client/backends/backend.h"
#include "client/backends/cancellation.h"
#include "client/output/progress.h"
#include "command_line/cpu_count.h"
#include "nqueens/seed.h"

namespace nqueens::client {
namespace {

// The call's deadline, and its cancellation when it has one.
StopCondition StopFor(const RunOptions& options) {
  StopCondition stop;
  stop.deadline = absl::Now() + options.deadline;
  if (Cancellation* cancellation = options.cancellation; cancellation != nullptr) {
    stop.cancelled = [cancellation] { return cancellation->cancelled(); };
  }
  return stop;
}

// `threads`, or the CPUs this process may use when 0.
int ThreadCount(int threads) { return threads > 0 ? threads : command_line::UsableCpus(); }

// The core's options that every call takes, from the CLI's; the exact
// search on `threads` threads.
CallOptions ToCallOptions(const RunOptions& options, int threads) {
  CallOptions completion;
  completion.seed = options.seed ? *options.seed : FreshSeed();
  completion.params = options.params;
  if (options.max_backtracks != 0) {
    completion.params.tot_sim_bound = options.max_backtracks;
  }
  if (options.max_restarts != 0) completion.params.max_restarts = options.max_restarts;
  if (options.max_exact_nodes != 0) completion.params.exact_node_budget = options.max_exact_nodes;
  completion.params.exact_max_seconds = options.max_exact_seconds;
  completion.stop = StopFor(options);
  completion.threads.count = threads;
  return completion;
}

CompleteOptions ToCompleteOptions(const RunOptions& options, int threads) {
  CompleteOptions complete(ToCallOptions(options, threads));
  complete.complete_method = options.complete_method;
  complete.want_certificate = options.want_certificate;
  complete.certificate_format = options.certificate_format;
  complete.part = options.part;
  return complete;
}

SolveOptions ToSolveOptions(const RunOptions& options, int threads) {
  SolveOptions solve(ToCallOptions(options, threads));
  solve.formula_variant = options.formula_variant;
  solve.symmetry = options.symmetry;
  return solve;
}

// Complete's work on `threads` threads: a call's, or a batch item's on one.
absl::StatusOr<CompletionResult> CompleteOn(Board composition, const RunOptions& options,
                                            int threads) {
  const CompleteOptions completion = ToCompleteOptions(options, threads);
  if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
  return nqueens::Complete(std::move(composition.columns), completion);
}

class LocalBackend : public Backend {
 public:
  // A hard board's exact search and counting use every core by default.
  explicit LocalBackend(int threads) : threads_(ThreadCount(threads)) {}

  // Rounds of kBatchRound items per thread, each round's answers in order.
  // Each item runs with its own options, which hold the batch's: its
  // deadline runs from the item's start.
  absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>& next,
                             const std::function<void(BatchAnswer)>& answer,
                             const RunOptions&) override {
    constexpr size_t kBatchRound = 64;
    const size_t threads = static_cast<size_t>(command_line::UsableCpus());
    std::vector<BatchItem> round;
    for (;;) {
      round.clear();
      while (round.size() < kBatchRound * threads) {
        std::optional<BatchItem> item = next();
        if (!item.has_value()) break;
        round.push_back(*std::move(item));
      }
      if (round.empty()) return absl::OkStatus();
      std::vector<BatchAnswer> answers(round.size(), absl::UnknownError("not run"));
      std::atomic<size_t> cursor{0};
      std::vector<std::thread> workers;
      workers.reserve(threads);
      for (size_t t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
          for (size_t i; (i = cursor.fetch_add(1)) < round.size();) {
            answers[i] = CompleteOn(std::move(round[i].composition), round[i].options, 1);
          }
        });
      }
      for (std::thread& worker : workers) worker.join();
      for (BatchAnswer& item : answers) answer(std::move(item));
    }
  }

  absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                         const RunOptions& options) override {
    const SolveOptions solve = ToSolveOptions(options, threads_);
    ProgressPhase solving(options.progress, "solving", 0);
    return nqueens::Solve(n, method, solve);
  }

  absl::StatusOr<CompletionResult> Complete(Board composition, const RunOptions& options) override {
    ProgressPhase solving(options.progress, "solving", 0);
    return CompleteOn(std::move(composition), options, threads_);
  }

  // The core's validation is a single O(n) pass; run here without a stop
  // condition.
  absl::StatusOr<ValidationReport> Validate(Board board, const RunOptions& options) override {
    ProgressPhase validating(options.progress, "validating", 0);
    if (absl::Status dense = MakeDense(board); !dense.ok()) return dense;
    return nqueens::Validate(board.columns);
  }

  absl::StatusOr<CountResult> Count(Board composition, const RunOptions& options) override {
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    CountOptions count;
    count.stop = StopFor(options);
    count.threads.count = threads_;
    ProgressPhase counting(options.progress, "counting", kProgressSteps, "");
    count.on_progress = [&](const CountProgress& progress) {
      counting.AdvanceTo(static_cast<uint64_t>(progress.fraction_done * kProgressSteps));
    };
    const absl::Time start = absl::Now();
    absl::StatusOr<CountPlan> plan = CountPlan::Make(std::move(composition.columns), options.part);
    if (!plan.ok()) return plan.status();
    absl::StatusOr<CountResult> result = CountSolutions(*plan, count);
    if (!result.ok()) return result;
    result->elapsed = absl::Now() - start;
    counting.Complete();
    return result;
  }

  absl::StatusOr<uint64_t> Enumerate(Board composition, uint64_t limit, const RunOptions& options,
                                     const std::function<bool(const Columns&)>& sink) override {
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    absl::StatusOr<SolutionEnumerator> enumerator =
        SolutionEnumerator::Make(std::move(composition.columns), options.part);
    if (!enumerator.ok()) return enumerator.status();
    const StopCondition stop = StopFor(options);
    uint64_t handed = 0;
    while (!enumerator->done() && (limit == 0 || handed < limit)) {
      const size_t wanted = limit == 0 ? kBatch : std::min<uint64_t>(kBatch, limit - handed);
      absl::StatusOr<std::vector<Columns>> boards = enumerator->Next(wanted, stop);
      if (!boards.ok()) return boards.status();
      for (const Columns& board : *boards) {
        ++handed;
        if (!sink(board)) return handed;
      }
    }
    return handed;
  }

 private:
  static constexpr uint64_t kProgressSteps = 1000;
  static constexpr size_t kBatch = 256;
  const int threads_;
};

}  // namespace

std::unique_ptr<Backend> MakeLocalBackend(int threads) {
  return std::make_unique<LocalBackend>(threads);
}

}  // namespace nqueens::client

// The backend behind --local: the core, called directly.
#include <random>
#include <utility>

#include "absl/time/clock.h"
#include "backend.h"
#include "progress.h"

namespace nqueens::client {
namespace {

// A fresh seed from the operating system when none was asked for; the
// result's stats report it so that the run can be repeated.
uint64_t ChooseSeed(const RunOptions& options) {
  if (options.seed) return *options.seed;
  std::random_device device;
  return (uint64_t{device()} << 32) | device();
}

CompletionOptions ToCompletionOptions(const RunOptions& options) {
  CompletionOptions completion;
  completion.seed = ChooseSeed(options);
  if (options.max_backtracks != 0) {
    completion.params.tot_sim_bound = options.max_backtracks;
  }
  completion.stop.deadline = absl::Now() + options.deadline;
  return completion;
}

class LocalBackend : public Backend {
 public:
  absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                         const RunOptions& options) override {
    const CompletionOptions completion = ToCompletionOptions(options);
    ProgressPhase solving(options.progress, "solving", 0);
    return nqueens::Solve(n, method, completion);
  }

  absl::StatusOr<CompletionResult> Complete(Board composition, const RunOptions& options) override {
    const CompletionOptions completion = ToCompletionOptions(options);
    ProgressPhase solving(options.progress, "solving", 0);
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    return nqueens::Complete(std::move(composition.columns), completion);
  }

  // The core's validation is a single O(n) pass without a stop condition.
  absl::StatusOr<ValidationReport> Validate(Board board, const RunOptions& options) override {
    ProgressPhase validating(options.progress, "validating", 0);
    if (absl::Status dense = MakeDense(board); !dense.ok()) return dense;
    return nqueens::Validate(board.columns);
  }
};

}  // namespace

std::unique_ptr<Backend> MakeLocalBackend() { return std::make_unique<LocalBackend>(); }

}  // namespace nqueens::client

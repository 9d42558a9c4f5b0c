// The commands against a scripted backend: every outcome and every class of
// backend error maps to its exit status.
#include "client/commands.h"

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "test_util.h"

namespace nqueens::client {
namespace {

// Answers every call with the same result or error.
class ScriptedBackend : public Backend {
 public:
  explicit ScriptedBackend(absl::StatusOr<CompletionResult> answer) : answer_(std::move(answer)) {}

  absl::StatusOr<CompletionResult> Solve(uint32_t, SolveMethod, const RunOptions&) override {
    return answer_;
  }
  absl::StatusOr<CompletionResult> Complete(Board, const RunOptions&) override { return answer_; }
  absl::StatusOr<ValidationReport> Validate(Board, const RunOptions&) override {
    return answer_.status();
  }
  absl::StatusOr<CountResult> Count(Board, const RunOptions&) override { return answer_.status(); }
  absl::StatusOr<uint64_t> Enumerate(Board, uint64_t, const RunOptions&,
                                     const std::function<bool(const Columns&)>&) override {
    return answer_.status();
  }
  absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>&,
                             const std::function<void(BatchAnswer)>&, const RunOptions&) override {
    return answer_.status();
  }

 private:
  absl::StatusOr<CompletionResult> answer_;
};

CompletionResult WithOutcome(Outcome outcome) {
  CompletionResult result;
  result.outcome = outcome;
  if (outcome == Outcome::kSolved) result.columns = {2, 4, 1, 3};
  return result;
}

class RunCommandTest : public ::testing::Test {
 protected:
  RunCommandTest() {
    options_.quiet = true;
    options_.output_path = testing::TempPath(".out");
  }

  int Solve(absl::StatusOr<CompletionResult> answer) {
    ScriptedBackend backend(std::move(answer));
    return RunSolve(backend, "4", options_);
  }

  std::string Output() const {
    std::ifstream file(options_.output_path);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
  }

  CommandOptions options_;
};

TEST_F(RunCommandTest, OutcomesMapToExitStatuses) {
  EXPECT_EQ(Solve(WithOutcome(Outcome::kSolved)), 0);
  EXPECT_EQ(Output(), "2 4 1 3\n");
  EXPECT_EQ(Solve(WithOutcome(Outcome::kUnsolvable)), 1);
  EXPECT_EQ(Solve(WithOutcome(Outcome::kUndecided)), 4);
}

TEST_F(RunCommandTest, BackendErrorsMapToExitStatuses) {
  EXPECT_EQ(Solve(absl::InvalidArgumentError("queens attack")), 1);
  EXPECT_EQ(Solve(absl::UnavailableError("cannot reach server")), 3);
  EXPECT_EQ(Solve(absl::DeadlineExceededError("late")), 3);
  EXPECT_EQ(Solve(absl::ResourceExhaustedError("n above --max-n")), 5);
  EXPECT_EQ(Solve(absl::InternalError("bug")), 3);
}

TEST_F(RunCommandTest, BadArgumentsExitWithTwoBeforeTheBackendRuns) {
  ScriptedBackend backend(WithOutcome(Outcome::kSolved));
  EXPECT_EQ(RunSolve(backend, "four", options_), 2);
  EXPECT_EQ(RunSolve(backend, "0", options_), 2);
  EXPECT_EQ(RunComplete(backend, "/nonexistent/board.q", options_), 2);
  EXPECT_EQ(RunValidate(backend, "/nonexistent/board.q", options_), 2);
}

TEST(ExitCodeTest, MapsEveryOutcomeAndErrorClass) {
  EXPECT_EQ(ExitCodeFor(Outcome::kSolved), kExitOk);
  EXPECT_EQ(ExitCodeFor(Outcome::kUnsolvable), kExitRejected);
  EXPECT_EQ(ExitCodeFor(Outcome::kUndecided), kExitUndecided);
  EXPECT_EQ(ExitCodeFor(absl::InvalidArgumentError("")), kExitRejected);
  EXPECT_EQ(ExitCodeFor(absl::CancelledError("")), kExitFailure);
  EXPECT_EQ(ExitCodeFor(absl::UnknownError("")), kExitFailure);
  EXPECT_EQ(ExitCodeFor(absl::ResourceExhaustedError("")), kExitLimit);
}

}  // namespace
}  // namespace nqueens::client

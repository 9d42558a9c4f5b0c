// How the public calls stop (nqueens/stop.h). Nothing here is timed: the
// stop condition counts the core's polls (counting_stop.h), so a test can
// cancel a call at any chosen poll and the outcome is deterministic.
//
// What a phase without polls would break, and the test that sees it:
// - a poll whose answer is dropped, or a stop that leads on to another
//   stage: StopsAtEveryPoll cancels at every poll in turn and wants
//   CANCELLED with no poll after the one that said stop;
// - an O(n) phase that fills memory without polling (the 10^8-row board grew
//   by 350 MB after a cancel): MemoryGrowsLittleBetweenPolls bounds what the
//   process touches between two polls on a board of 8 million rows;
// - a pass that polls too rarely: tests/core/stop_phases_test.cc counts the
//   polls of each O(n) phase.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "counting_stop.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using test_stop::CountingStop;

// What a call returned, to compare two runs.
struct Returned {
  absl::StatusCode code = absl::StatusCode::kOk;
  std::string verdict;  // the outcome, or Validate's "complete" / "incomplete"
  Columns board;        // the completion, when there is one
  bool operator==(const Returned& other) const {
    return code == other.code && verdict == other.verdict && board == other.board;
  }
};

// A call of the core under a stop condition.
using StoppableCall = std::function<Returned(const StopCondition&)>;

Returned FromCompletion(absl::StatusOr<CompletionResult> result) {
  if (!result.ok()) return {result.status().code(), "", {}};
  return {absl::StatusCode::kOk, OutcomeName(result->outcome), std::move(result->columns)};
}

StoppableCall SolveCall(uint32_t n, SolveMethod method, const PipelineParams& params = {}) {
  return [=](const StopCondition& stop) {
    SolveOptions options;
    options.seed = 7;
    options.stop = stop;
    options.params = params;
    return FromCompletion(Solve(n, method, options));
  };
}

StoppableCall CompleteCall(const Columns& input, const PipelineParams& params = {}) {
  return [=](const StopCondition& stop) {
    CompleteOptions options;
    options.seed = 7;
    options.stop = stop;
    options.params = params;
    return FromCompletion(Complete(input, options));
  };
}

// CompleteCall for one run: the input is moved in, not copied, so that the
// copy does not count as memory the call touched.
StoppableCall CompleteOnceCall(Columns input) {
  auto held = std::make_shared<Columns>(std::move(input));
  return [held](const StopCondition& stop) {
    CompleteOptions options;
    options.seed = 7;
    options.stop = stop;
    return FromCompletion(Complete(std::move(*held), options));
  };
}

StoppableCall ValidateCall(const Columns& board) {
  return [=](const StopCondition& stop) -> Returned {
    ValidateOptions options;
    options.stop = stop;
    absl::StatusOr<ValidationReport> report = Validate(board, options);
    if (!report.ok()) return {report.status().code(), "", {}};
    return {absl::StatusCode::kOk, report->complete ? "complete" : "incomplete", {}};
  };
}

// Checks that `board` is a full solution keeping the queens of `input`.
void ExpectSolutionExtending(const Columns& board, const Columns& input) {
  absl::StatusOr<ValidationReport> report = Validate(board);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete);
  ASSERT_EQ(board.size(), input.size());
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      ASSERT_EQ(board[row], input[row]) << "row " << row + 1;
    }
  }
}

// The polls to stop at, out of `polls`: all of them when there are at most
// `max_runs`, otherwise the first and last quarter of `max_runs` and an even
// spread between.
std::vector<uint64_t> PollsToStopAt(uint64_t polls, uint64_t max_runs) {
  std::vector<uint64_t> chosen;
  if (polls <= max_runs) {
    for (uint64_t k = 1; k <= polls; ++k) chosen.push_back(k);
    return chosen;
  }
  const uint64_t edge = max_runs / 4;
  for (uint64_t k = 1; k <= edge; ++k) chosen.push_back(k);
  const uint64_t middle = max_runs - 2 * edge;
  for (uint64_t i = 1; i <= middle; ++i) {
    chosen.push_back(edge + i * (polls - 2 * edge) / (middle + 1));
  }
  for (uint64_t k = polls - edge + 1; k <= polls; ++k) chosen.push_back(k);
  return chosen;
}

// Runs `call` to its end, counting its polls, then once stopped at each poll
// of PollsToStopAt: every stopped run must return CANCELLED at that very poll
// (no poll after it: nothing went on to another phase). Returns what the
// unstopped run returned.
Returned ExpectStopsAtEveryPoll(const StoppableCall& call, uint64_t max_runs = 240) {
  CountingStop never;
  const Returned full = call(never.condition());
  EXPECT_EQ(full.code, absl::StatusCode::kOk);
  EXPECT_GT(never.polls(), 0u);
  for (uint64_t k : PollsToStopAt(never.polls(), max_runs)) {
    CountingStop stop(k);
    EXPECT_EQ(call(stop.condition()).code, absl::StatusCode::kCancelled)
        << "stopped at poll " << k << " of " << never.polls();
    EXPECT_EQ(stop.polls(), k) << "polled again after the stop at poll " << k;
  }
  // A stop that would come after the last poll changes nothing: polling is
  // not part of the result.
  CountingStop too_late(never.polls() + 1);
  EXPECT_EQ(call(too_late.condition()), full);
  EXPECT_EQ(too_late.polls(), never.polls());
  return full;
}

// Pairing passes cut into chunks, as on boards from 2^21 rows.
PipelineParams ChunkedPairing() {
  PipelineParams params;
  params.pairing_chunks_from_n = 0;
  params.pairing_chunk = 512;
  return params;
}

// Every stage of a run from the empty board, blocks 1-5.
constexpr uint32_t kStopRows = 40'000;

TEST(StopTest, SolveRandomStopsAtEveryPoll) {
  for (const PipelineParams& params : {PipelineParams{}, ChunkedPairing()}) {
    const Returned full =
        ExpectStopsAtEveryPoll(SolveCall(kStopRows, SolveMethod::kRandom, params));
    EXPECT_EQ(full.verdict, "SOLVED");
    ExpectSolutionExtending(full.board, Columns(kStopRows, kEmptyRow));
  }
}

TEST(StopTest, CompleteStopsAtEveryPoll) {
  const Columns solution = test_boards::RandomSolution(2000, 3);
  // Half the rows given: blocks 1-5 again, from a given composition.
  const Columns half = test_boards::RandomSubComposition(solution, 1000, 4);
  Returned full = ExpectStopsAtEveryPoll(CompleteCall(half));
  EXPECT_EQ(full.verdict, "SOLVED");
  ExpectSolutionExtending(full.board, half);
  // Ten free rows: the exact search decides it at once.
  const Columns nearly_full = test_boards::RandomSubComposition(solution, 1990, 5);
  full = ExpectStopsAtEveryPoll(CompleteCall(nearly_full));
  EXPECT_EQ(full.verdict, "SOLVED");
  ExpectSolutionExtending(full.board, nearly_full);
}

TEST(StopTest, CompleteStopsAtEveryPollOfItsRestarts) {
  // Every third queen of the construction: the random stages dead-end every
  // time (known_solutions.h), so each run goes back to the input (Restore)
  // until the restarts run out.
  const uint32_t n = 1000;
  const Columns construction = *ConstructSolution(n);
  Columns every_third(n, kEmptyRow);
  for (uint32_t row = 0; row < n; row += 3) every_third[row] = construction[row];
  PipelineParams params;
  params.match_construction = false;
  params.exact_max_free_rows = 0;
  params.tot_sim_bound = 20;
  params.max_restarts = 2;
  const Returned full = ExpectStopsAtEveryPoll(CompleteCall(every_third, params));
  EXPECT_EQ(full.verdict, "UNDECIDED");
}

TEST(StopTest, CompleteFromTheConstructionStopsAtEveryPoll) {
  // The known-solution stage: a scan of the input and a copy of the image.
  const Columns construction = *ConstructSolution(kStopRows);
  Columns half(kStopRows, kEmptyRow);
  for (uint32_t row = 0; row < kStopRows; row += 2) half[row] = construction[row];
  const Returned full = ExpectStopsAtEveryPoll(CompleteCall(half));
  EXPECT_EQ(full.board, construction);
}

TEST(StopTest, SolveConstructiveStopsAtEveryPoll) {
  const uint32_t n = 1'000'003;  // several polls
  const Returned full = ExpectStopsAtEveryPoll(SolveCall(n, SolveMethod::kConstructive));
  ExpectSolutionExtending(full.board, Columns(n, kEmptyRow));
}

TEST(StopTest, ValidateStopsAtEveryPoll) {
  const Returned full = ExpectStopsAtEveryPoll(ValidateCall(*ConstructSolution(1'000'003)));
  EXPECT_EQ(full.verdict, "complete");
}

TEST(StopTest, ValidateOfAnAttackedBoardStopsAtEveryPoll) {
  // Its second pass looks for the first queen of each conflict.
  Columns board = *ConstructSolution(1'000'003);
  board[999'000] = board[1];
  const Returned full = ExpectStopsAtEveryPoll(ValidateCall(board));
  EXPECT_EQ(full.verdict, "incomplete");
}

// --- Memory touched between polls. ---

// The resident size of this process, from /proc/self/statm (cheap enough to
// read at every poll).
class ResidentSize {
 public:
  ResidentSize() : fd_(open("/proc/self/statm", O_RDONLY)) {}
  ~ResidentSize() {
    if (fd_ >= 0) close(fd_);
  }
  uint64_t Bytes() const {
    char text[128] = {};
    const ssize_t size = pread(fd_, text, sizeof(text) - 1, 0);
    const std::vector<absl::string_view> fields =
        absl::StrSplit(absl::string_view(text, size > 0 ? static_cast<size_t>(size) : 0), ' ');
    uint64_t pages = 0;
    if (fields.size() < 2 || !absl::SimpleAtoi(fields[1], &pages)) return 0;
    return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  }
  bool ok() const { return fd_ >= 0 && Bytes() > 0; }

 private:
  int fd_;
};

// The most memory `call` touched between two of its polls (or before its
// first), with a stop condition that never fires.
uint64_t MostGrowthBetweenPolls(const StoppableCall& call, Returned& returned) {
  const ResidentSize resident;
  CountingStop never;
  uint64_t last = resident.Bytes(), most = 0;
  never.OnPoll([&](uint64_t) {
    const uint64_t now = resident.Bytes();
    most = std::max(most, now > last ? now - last : 0);
    last = now;
  });
  returned = call(never.condition());
  return most;
}

TEST(StopTest, MemoryGrowsLittleBetweenPolls) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer writes the shadow of each allocation at once (an eighth "
                  "of its size), which is not the core's memory";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer writes the shadow of each allocation at once (an eighth "
                  "of its size), which is not the core's memory";
#endif
#endif
  ASSERT_TRUE(ResidentSize().ok()) << "no /proc/self/statm";
  // Each O(n) array of this board is 32 MB (4 bytes a row); a poll comes
  // every 256 KB of it, and pages fault in 2 MB at a time where transparent
  // huge pages are on. A phase that filled an array without polling would
  // show its whole size.
  const uint32_t n = 1u << 23;
  constexpr uint64_t kMostBetweenPolls = uint64_t{8} << 20;
  Returned solved;
  EXPECT_LE(MostGrowthBetweenPolls(SolveCall(n, SolveMethod::kRandom), solved), kMostBetweenPolls);
  ASSERT_EQ(solved.verdict, "SOLVED");
  ExpectSolutionExtending(solved.board, Columns(n, kEmptyRow));
  const Columns half = test_boards::RandomSubComposition(solved.board, n / 2, 1);
  solved.board.clear();
  solved.board.shrink_to_fit();
  Returned completed;
  EXPECT_LE(MostGrowthBetweenPolls(CompleteOnceCall(half), completed), kMostBetweenPolls);
  ASSERT_EQ(completed.verdict, "SOLVED");
  ExpectSolutionExtending(completed.board, half);
  Returned constructed;
  EXPECT_LE(MostGrowthBetweenPolls(SolveCall(n, SolveMethod::kConstructive), constructed),
            kMostBetweenPolls);
  Returned validated;
  EXPECT_LE(MostGrowthBetweenPolls(ValidateCall(constructed.board), validated), kMostBetweenPolls);
  EXPECT_EQ(validated.verdict, "complete");
}

}  // namespace
}  // namespace nqueens

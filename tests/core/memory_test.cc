// The peak-memory estimates of nqueens/memory.h against measured peaks. Each
// call runs in a child process of its own (fork), which reports how far its
// resident size rose (VmHWM, reset just before) over what it held before it
// built the call's input. The estimate must cover the measured peak, and be
// less than twice it, so that it cannot drift far above what the core does.
//
// Under AddressSanitizer the resident size also holds the shadow of every
// allocation and the quarantine of freed memory, so the test is skipped.
#include "nqueens/memory.h"

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

#if defined(__SANITIZE_ADDRESS__)
#define NQUEENS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NQUEENS_UNDER_ASAN 1
#endif
#endif

namespace nqueens {
namespace {

// Big enough that the fixed costs are small beside the per-row ones.
constexpr uint32_t kLargeRows = 1u << 22;

// A "Vm...:" field of /proc/self/status in bytes; 0 when missing.
uint64_t StatusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!absl::StartsWith(line, field + ":")) continue;
    std::string number = line.substr(field.size() + 1);
    uint64_t kilobytes = 0;
    if (!absl::SimpleAtoi(number.substr(0, number.find("kB")), &kilobytes)) return 0;
    return kilobytes * 1024;
  }
  return 0;
}

// What a child reports.
struct Peak {
  uint64_t bytes = 0;  // growth of the resident size
  bool valid = false;  // the call succeeded and its result passed the validator
};

// Builds an input and makes the call on it; says whether the result is
// right (checked after the peak is read).
using MeasuredCall = std::function<std::function<bool()>()>;

// Runs `call` in a child process set up as the server sets malloc up
// (server/limits/memory_budget.cc: large buffers mapped, and unmapped when freed).
Peak MeasureInChild(const MeasuredCall& call) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";  // VmHWM down to VmRSS
    const uint64_t before = StatusBytes("VmRSS");
    const std::function<bool()> check = call();
    const uint64_t peak = StatusBytes("VmHWM");
    const Peak report{peak > before ? peak - before : 0, before > 0 && check()};
    _exit(write(fds[1], &report, sizeof(report)) == sizeof(report) ? 0 : 1);
  }
  close(fds[1]);
  Peak report;
  const bool got = child > 0 && read(fds[0], &report, sizeof(report)) == sizeof(report);
  close(fds[0]);
  int status = 0;
  if (child > 0) waitpid(child, &status, 0);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  return report;
}

void ExpectEstimateCovers(const char* what, uint64_t estimate, const MeasuredCall& call) {
  const Peak peak = MeasureInChild(call);
  EXPECT_TRUE(peak.valid) << what << ": the call failed, or its result is wrong";
  EXPECT_LE(peak.bytes, estimate) << what;
  EXPECT_GE(2 * peak.bytes, estimate) << what << ": the estimate is more than twice the peak";
}

bool IsSolution(const Columns& board) {
  absl::StatusOr<ValidationReport> report = Validate(board);
  return report.ok() && report->complete;
}

// Builds an input board in the measured span: it is the caller's memory,
// which the estimates include.
using InputMaker = std::function<Columns()>;

// Complete on the input `make_input` builds, moved in as a caller that
// budgets for the call does. The check builds the input again (after the peak
// was read) to see that the result keeps its queens.
MeasuredCall CompleteCall(InputMaker make_input, const CompleteOptions& options = {}) {
  return [make_input, options] {
    absl::StatusOr<CompletionResult> result = Complete(make_input(), options);
    return std::function<bool()>([make_input, result = std::move(result)] {
      if (!result.ok() || result->outcome != Outcome::kSolved || !IsSolution(result->columns)) {
        return false;
      }
      const Columns given = make_input();
      for (size_t row = 0; row < given.size(); ++row) {
        if (given[row] != kEmptyRow && given[row] != result->columns[row]) return false;
      }
      return true;
    });
  };
}

// `solution` with the rows for which `keep(row)` is false emptied, built
// directly: the input's own memory and nothing more.
Columns KeepRows(const Columns& solution, const std::function<bool(size_t)>& keep) {
  Columns board(solution.size());
  for (size_t row = 0; row < board.size(); ++row) {
    board[row] = keep(row) ? solution[row] : kEmptyRow;
  }
  return board;
}

class MemoryTest : public testing::Test {
 protected:
  void SetUp() override {
#ifdef NQUEENS_UNDER_ASAN
    GTEST_SKIP() << "AddressSanitizer's shadow memory and quarantine are part of the resident "
                    "size it measures";
#endif
    if (StatusBytes("VmHWM") == 0) GTEST_SKIP() << "no VmHWM in /proc/self/status";
  }
};

TEST_F(MemoryTest, CompleteStaysWithinItsEstimate) {
  SolveOptions options;
  options.seed = 3;
  absl::StatusOr<CompletionResult> random = Solve(kLargeRows, SolveMethod::kRandom, options);
  ASSERT_TRUE(random.ok());
  ASSERT_TRUE(IsSolution(random->columns));
  // The parent's: in the children's memory before they start.
  const Columns& solution = random->columns;
  ExpectEstimateCovers("Complete, empty board",
                       CompletePeakBytes(kLargeRows, 0, CompleteMethod::kPipeline),
                       CompleteCall([] { return Columns(kLargeRows, kEmptyRow); }));
  ExpectEstimateCovers("Complete, every other row given",
                       CompletePeakBytes(kLargeRows, kLargeRows / 2, CompleteMethod::kPipeline),
                       CompleteCall([&solution] {
                         return KeepRows(solution, [](size_t row) { return row % 2 == 0; });
                       }));
  // At most 16 free rows: the exact search runs first, and copies the board.
  constexpr uint32_t kFreeRows = 11;  // rows 7, 400,007, ... 4,000,007
  ExpectEstimateCovers(
      "Complete, 11 free rows",
      CompletePeakBytes(kLargeRows, kLargeRows - kFreeRows, CompleteMethod::kPipeline),
      CompleteCall([&solution] {
        return KeepRows(solution, [](size_t row) { return row % 400'000 != 7; });
      }));
}

TEST_F(MemoryTest, MinConflictsCompletionStaysWithinTheCompletionEstimate) {
  CompleteOptions options;
  options.seed = 5;
  options.complete_method = CompleteMethod::kMinConflicts;
  absl::StatusOr<CompletionResult> random =
      Solve(kLargeRows, SolveMethod::kMinConflicts, SolveOptions(options));
  ASSERT_TRUE(random.ok());
  ASSERT_TRUE(IsSolution(random->columns));
  const Columns& solution = random->columns;
  ExpectEstimateCovers("Complete MIN_CONFLICTS, empty board",
                       CompletePeakBytes(kLargeRows, 0, CompleteMethod::kMinConflicts),
                       CompleteCall([] { return Columns(kLargeRows, kEmptyRow); }, options));
  ExpectEstimateCovers(
      "Complete MIN_CONFLICTS, every other row given",
      CompletePeakBytes(kLargeRows, kLargeRows / 2, CompleteMethod::kMinConflicts),
      CompleteCall(
          [&solution] { return KeepRows(solution, [](size_t row) { return row % 2 == 0; }); },
          options));
}

TEST_F(MemoryTest, CompleteFromTheConstructionStaysWithinItsEstimate) {
  // The known-solution stage answers with a copy of the construction's image.
  ExpectEstimateCovers("Complete, construction",
                       CompletePeakBytes(kLargeRows, kLargeRows / 2, CompleteMethod::kPipeline),
                       CompleteCall([] {
                         Columns half = *ConstructSolution(kLargeRows);  // becomes the input
                         for (size_t row = 1; row < half.size(); row += 2) half[row] = kEmptyRow;
                         return half;
                       }));
}

TEST_F(MemoryTest, TheExactSearchOnItsLargestBoardStaysWithinTheEstimate) {
  // About 1,024 free rows, the most the exact search takes: its free board
  // is O(d^2), tens of MB on a board of any size. Made to run first here; the
  // defaults run it after the heuristic gives up, with the same memory.
  constexpr uint32_t n = 1100;
  // Rows spread over the board (a block of free rows makes a hard instance).
  const InputMaker make_input = [] {
    Columns board = *ConstructSolution(n);
    for (uint64_t i = 0; i < 1024; ++i) board[i * 2654435761u % n] = kEmptyRow;
    return board;
  };
  const Columns input = make_input();
  const uint64_t given = n - std::count(input.begin(), input.end(), kEmptyRow);
  ASSERT_LT(n - given, 1024u + 1);
  ASSERT_GT(n - given, 900u);
  CompleteOptions options;
  options.params.match_construction = false;
  options.params.exact_first_max_free_rows = 1024;
  ExpectEstimateCovers("Complete, about 1,024 free rows",
                       CompletePeakBytes(n, given, CompleteMethod::kPipeline),
                       CompleteCall(make_input, options));
}

TEST_F(MemoryTest, SolveAndValidateStayWithinTheirEstimates) {
  ExpectEstimateCovers("Solve RANDOM", SolvePeakBytes(kLargeRows, SolveMethod::kRandom), [] {
    absl::StatusOr<CompletionResult> result = Solve(kLargeRows, SolveMethod::kRandom);
    return [result = std::move(result)] { return result.ok() && IsSolution(result->columns); };
  });
  ExpectEstimateCovers(
      "Solve MIN_CONFLICTS", SolvePeakBytes(kLargeRows, SolveMethod::kMinConflicts), [] {
        absl::StatusOr<CompletionResult> result = Solve(kLargeRows, SolveMethod::kMinConflicts);
        return [result = std::move(result)] { return result.ok() && IsSolution(result->columns); };
      });
  ExpectEstimateCovers(
      "Solve CONSTRUCTIVE", SolvePeakBytes(kLargeRows, SolveMethod::kConstructive), [] {
        absl::StatusOr<CompletionResult> result = Solve(kLargeRows, SolveMethod::kConstructive);
        return [result = std::move(result)] { return result.ok() && IsSolution(result->columns); };
      });
  ExpectEstimateCovers("Validate", ValidatePeakBytes(kLargeRows), [] {
    const Columns board = *ConstructSolution(kLargeRows);  // the caller's board counts
    absl::StatusOr<ValidationReport> report = Validate(board);
    return [complete = report.ok() && report->complete] { return complete; };
  });
}

TEST(MemoryEstimateTest, AnUnknownInputIsTheWorstOfEveryKnownOne) {
  for (uint64_t n : {1, 4, 100, 1023, 1024, 1025, 5000, 1'000'000}) {
    // Every k on small boards; on the large one every k near both ends.
    std::vector<uint64_t> queens;
    for (uint64_t k = 0; k <= n; ++k) {
      if (n <= 5000 || k < 3000 || n - k < 3000 || k % 997 == 0) queens.push_back(k);
    }
    uint64_t worst = 0;
    for (uint64_t k : queens) {
      EXPECT_LE(CompletePeakBytes(n, k), CompletePeakBytes(n)) << "n = " << n << ", k = " << k;
      worst = std::max(worst, CompletePeakBytes(n, k));
    }
    EXPECT_EQ(CompletePeakBytes(n), worst) << "n = " << n;
  }
}

TEST(MemoryEstimateTest, SolveCountsTheImageAndEachMethodsArrays) {
  const uint64_t n = 1'000'000;
  for (SolveMethod method :
       {SolveMethod::kConstructive, SolveMethod::kRandom, SolveMethod::kBacktracking,
        SolveMethod::kGenetic, SolveMethod::kFormula}) {
    // A symmetry adds the image board, 4 bytes a row (in 2 MiB pages).
    EXPECT_GE(SolvePeakBytes(n, method, 1), SolvePeakBytes(n, method) + 4 * n);
    EXPECT_LE(SolvePeakBytes(n, method, 7), SolvePeakBytes(n, method) + 4 * n + (2 << 20));
  }
  // GENETIC holds its whole population: 75 boards.
  EXPECT_GT(SolvePeakBytes(n, SolveMethod::kGenetic), 75 * 4 * n);
  EXPECT_GT(SolvePeakBytes(n, SolveMethod::kBacktracking),
            SolvePeakBytes(n, SolveMethod::kConstructive) + 5 * n - (2 << 20));
}

TEST(MemoryEstimateTest, CompletionGrowsWithTheFreeRowsAndTheBoard) {
  EXPECT_GT(CompletePeakBytes(2'000'000, 0), CompletePeakBytes(2'000'000, 1'000'000));
  EXPECT_GT(CompletePeakBytes(2'000'000, 0), CompletePeakBytes(1'000'000, 0));
  EXPECT_EQ(SolvePeakBytes(1'000'000, SolveMethod::kRandom),
            CompletePeakBytes(1'000'000, 0, CompleteMethod::kPipeline));
  // The exact search's free board: 1,024 free rows cost tens of MB at any n.
  EXPECT_GT(CompletePeakBytes(1100, 76), uint64_t{30} << 20);
}

}  // namespace
}  // namespace nqueens

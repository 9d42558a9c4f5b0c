// How promptly the core stops (core/include/nqueens/stop.h promises 100 ms):
// runs one core call in a thread, cancels it through its StopCondition at a
// chosen time after the start, and measures the time from the cancel to the
// call's return, and the process's memory before, at the cancel and after.
//
//   nqueens-stop-latency --n=100000000 --cancel_after_ms=100,500,1000,2000 --runs=5
//   nqueens-stop-latency --mode=gaps --n=1000000000 --calls=random --run_for_ms=600000
//
// Calls:
//   random        Solve(n, kRandom): the pipeline from the empty board.
//   complete      Complete of half the rows of the explicit construction,
//                 with match_construction off, so that the pipeline runs.
//   known         Complete of the same input with the defaults: the
//                 known-solution stage completes it (an O(n) check and copy).
//   constructive  Solve(n, kConstructive).
//   min-conflicts Solve(n, kMinConflicts).
//   validate      Validate of the explicit construction.
// The input is built before the call and is not timed.
//
// --mode=latency (the default) prints a CSV header and one line per call and
// cancel time:
//   call,n,cancel_after_ms,runs,finished_first,median_ms,max_ms,
//   rss_before_mb,rss_at_cancel_mb,peak_after_cancel_mb,rss_after_mb
// finished_first counts runs that returned before the cancel (they are left
// out of the latency figures); median_ms and max_ms are the time from the
// cancel to the return (nan, as are rss_at_cancel_mb and
// peak_after_cancel_mb, when every run finished first). Memory (medians over
// the runs, in MB of 10^6 bytes): the resident size (VmRSS) with the input
// built, just before the cancel, and after the call returned, its result was
// freed and malloc_trim(0) ran (as the server does after a large call,
// server/limits/memory_budget.cc);
// peak_after_cancel is the highest resident size between the cancel and the
// return (VmHWM, reset at the cancel): above rss_at_cancel when the call
// went on allocating after it was cancelled.
//
// --mode=gaps runs each call once without cancelling it (or until
// --run_for_ms, then cancels it) and prints the longest time between two of
// its polls, which bounds the stop latency over every phase, not only those
// the cancel times reach:
//   call,n,polls,longest_gap_ms,at_poll,longest_gap_cpu_ms,at_poll_cpu,
//   first_poll_ms,last_poll_to_return_ms,status
// longest_gap_ms is wall time, which on a shared machine includes the time
// the thread waited for a core; longest_gap_cpu_ms is the thread's own CPU
// time between two polls (the work done). first_poll_ms is from the start to
// the first poll; last_poll_to_return_ms from the last poll to the return
// (freeing what the call held included).
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/proc_memory.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(uint64_t, n, 100000000, "board size");
ABSL_FLAG(std::string, calls, "random,complete,known,constructive,validate",
          "comma-separated calls to measure (see the top of the file)");
ABSL_FLAG(std::string, cancel_after_ms, "100,500,1000,2000",
          "comma-separated times after the start at which to cancel");
ABSL_FLAG(uint32_t, runs, 5, "runs per call and cancel time");
ABSL_FLAG(std::string, mode, "latency", "latency or gaps (see the top of the file)");
ABSL_FLAG(uint64_t, run_for_ms, 600000, "gaps: cancel a call that runs longer than this");

namespace {

using nqueens::Columns;
using nqueens::bench::Clock;

[[noreturn]] void Fail(const std::string& message) { throw std::runtime_error(message); }

// --- Memory, from procfs. ---

// A "Vm...:" line of /proc/self/status, in bytes.
uint64_t StatusBytes(const std::string& field) {
  const std::optional<uint64_t> bytes = nqueens::bench::ProcStatusBytes("self", field);
  if (!bytes.has_value()) Fail("no " + field + " in /proc/self/status");
  return *bytes;
}

void ResetPeak() {
  if (!nqueens::bench::ResetPeakResidentBytes("self")) Fail("cannot reset the peak RSS");
}

// --- Inputs. ---

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Columns Construction(uint32_t n) {
  std::optional<Columns> solution = nqueens::ConstructSolution(n);
  if (!solution) Fail(absl::StrCat("no constructive solution for n = ", n));
  return std::move(*solution);
}

// The construction with about half its rows emptied, picked by a hash of the
// row (a pseudo-random choice that costs 2 ns a row at n = 10^9).
Columns HalfOfConstruction(uint32_t n, uint64_t seed) {
  Columns board = Construction(n);
  for (uint32_t row = 0; row < n; ++row) {
    if (SplitMix64(seed ^ row) & 1) board[row] = nqueens::kEmptyRow;
  }
  return board;
}

void CheckSolution(const Columns& board) {
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
  if (!report.ok() || !report->complete) Fail("a call returned a board that is not a solution");
}

// --- One call, cancelled from another thread. ---

// What a call returned: its status and, when it solved its input, the board
// (checked after the timing).
struct CallResult {
  absl::Status status;
  std::optional<Columns> solution;
};

// The call under test, run with `options.stop`.
using Call = std::function<CallResult(const nqueens::CallOptions& options)>;

CallResult FromCompletion(absl::StatusOr<nqueens::CompletionResult> result) {
  if (!result.ok()) return {result.status(), std::nullopt};
  if (result->outcome != nqueens::Outcome::kSolved) {
    return {absl::InternalError("the call did not solve its input"), std::nullopt};
  }
  return {absl::OkStatus(), std::move(result->columns)};
}

// Builds the input of `call` (untimed) and returns the call to make on it.
Call MakeCall(const std::string& call, uint32_t n, uint64_t seed) {
  if (call == "random" || call == "constructive" || call == "min-conflicts") {
    const nqueens::SolveMethod method = call == "random" ? nqueens::SolveMethod::kRandom
                                        : call == "constructive"
                                            ? nqueens::SolveMethod::kConstructive
                                            : nqueens::SolveMethod::kMinConflicts;
    return [n, method](const nqueens::CallOptions& options) {
      return FromCompletion(nqueens::Solve(n, method, nqueens::SolveOptions(options)));
    };
  }
  if (call == "complete" || call == "known") {
    auto input = std::make_shared<Columns>(HalfOfConstruction(n, seed));
    const bool match_construction = call == "known";
    return [input, match_construction](const nqueens::CallOptions& call_options) {
      nqueens::CompleteOptions options(call_options);
      options.params.match_construction = match_construction;
      return FromCompletion(nqueens::Complete(std::move(*input), options));
    };
  }
  if (call == "validate") {
    auto input = std::make_shared<const Columns>(Construction(n));
    return [input](const nqueens::CallOptions& options) {
      nqueens::ValidateOptions validate_options;
      validate_options.stop = options.stop;
      absl::StatusOr<nqueens::ValidationReport> report =
          nqueens::Validate(*input, validate_options);
      if (report.ok() && !report->complete) {
        return CallResult{absl::InternalError("Validate rejected a solution"), std::nullopt};
      }
      return CallResult{report.status(), std::nullopt};
    };
  }
  Fail("unknown call " + call);
}

struct Sample {
  bool finished_first = false;
  double cancel_to_return_ms = 0;
  uint64_t rss_before = 0, rss_at_cancel = 0, peak_after_cancel = 0, rss_after = 0;
};

// Runs `run_call` in a thread and cancels it `cancel_after` after the start.
Sample Measure(Call run_call, std::chrono::milliseconds cancel_after) {
  Sample sample;
  std::atomic<bool> cancel{false};
  nqueens::CompleteOptions options;
  options.stop.cancelled = [&cancel] { return cancel.load(std::memory_order_relaxed); };
  std::mutex mutex;
  std::condition_variable returned_cv;
  bool returned = false;
  Clock::time_point returned_at;
  CallResult result;
  sample.rss_before = StatusBytes("VmRSS");
  const Clock::time_point start = Clock::now();
  std::thread worker([&] {
    CallResult call_result = run_call(options);
    std::lock_guard<std::mutex> lock(mutex);
    returned_at = Clock::now();
    result = std::move(call_result);
    returned = true;
    returned_cv.notify_one();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    sample.finished_first =
        returned_cv.wait_until(lock, start + cancel_after, [&returned] { return returned; });
  }
  Clock::time_point cancelled_at;
  if (!sample.finished_first) {
    sample.rss_at_cancel = StatusBytes("VmRSS");
    ResetPeak();
    cancelled_at = Clock::now();
    cancel.store(true, std::memory_order_relaxed);
  }
  worker.join();
  // The call may have returned while this thread was taking its readings.
  if (!sample.finished_first && returned_at <= cancelled_at) sample.finished_first = true;
  if (!sample.finished_first) {
    sample.peak_after_cancel = StatusBytes("VmHWM");
    sample.cancel_to_return_ms = 1e3 * nqueens::bench::SecondsBetween(cancelled_at, returned_at);
  }
  if (!result.status.ok() &&
      !(result.status.code() == absl::StatusCode::kCancelled && !sample.finished_first)) {
    Fail("the call returned " + result.status.ToString());
  }
  if (result.solution) CheckSolution(*result.solution);
  result.solution.reset();
  run_call = nullptr;  // frees the input
  malloc_trim(0);
  sample.rss_after = StatusBytes("VmRSS");
  return sample;
}

// --- Longest time between polls. ---

struct Gaps {
  uint64_t polls = 0;
  double longest_ms = 0;
  uint64_t longest_at_poll = 0;
  double longest_cpu_ms = 0;
  uint64_t longest_cpu_at_poll = 0;
  double first_poll_ms = 0, last_poll_to_return_ms = 0;
  absl::StatusCode code = absl::StatusCode::kOk;
};

// Runs `run_call` with a callback that times the intervals between polls,
// and cancels once `run_for` has passed.
Gaps MeasureGaps(Call run_call, std::chrono::milliseconds run_for) {
  Gaps gaps;
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  double last_cpu = 1e3 * nqueens::bench::ThreadCpuSeconds();
  nqueens::CompleteOptions options;
  options.stop.cancelled = [&] {
    const Clock::time_point now = Clock::now();
    const double now_cpu = 1e3 * nqueens::bench::ThreadCpuSeconds();
    const double gap = 1e3 * nqueens::bench::SecondsBetween(last, now),
                 cpu_gap = now_cpu - last_cpu;
    if (++gaps.polls == 1) gaps.first_poll_ms = gap;
    if (gap > gaps.longest_ms) {
      gaps.longest_ms = gap;
      gaps.longest_at_poll = gaps.polls;
    }
    if (cpu_gap > gaps.longest_cpu_ms) {
      gaps.longest_cpu_ms = cpu_gap;
      gaps.longest_cpu_at_poll = gaps.polls;
    }
    last = now;
    last_cpu = now_cpu;
    return now - start > run_for;
  };
  CallResult result = run_call(options);
  gaps.last_poll_to_return_ms = 1e3 * nqueens::bench::SecondsBetween(last, Clock::now());
  gaps.code = result.status.code();
  if (!result.status.ok() && gaps.code != absl::StatusCode::kCancelled) {
    Fail("the call returned " + result.status.ToString());
  }
  if (result.solution) CheckSolution(*result.solution);
  return gaps;
}

void PrintGaps(const std::string& call, uint64_t n, const Gaps& gaps) {
  absl::PrintF("%s,%d,%d,%.1f,%d,%.1f,%d,%.1f,%.1f,%s\n", call, n, gaps.polls, gaps.longest_ms,
               gaps.longest_at_poll, gaps.longest_cpu_ms, gaps.longest_cpu_at_poll,
               gaps.first_poll_ms, gaps.last_poll_to_return_ms,
               absl::StatusCodeToString(gaps.code));
  std::fflush(stdout);
}

// --- Report. ---

void PrintLine(const std::string& call, uint64_t n, int cancel_after_ms,
               const std::vector<Sample>& samples) {
  std::vector<double> latency, before, at_cancel, peak, after;
  int finished_first = 0;
  for (const Sample& s : samples) {
    after.push_back(s.rss_after / 1e6);
    before.push_back(s.rss_before / 1e6);
    if (s.finished_first) {
      ++finished_first;
      continue;
    }
    latency.push_back(s.cancel_to_return_ms);
    at_cancel.push_back(s.rss_at_cancel / 1e6);
    peak.push_back(s.peak_after_cancel / 1e6);
  }
  const double max_latency =
      latency.empty() ? NAN : *std::max_element(latency.begin(), latency.end());
  absl::PrintF("%s,%d,%d,%d,%d,%.1f,%.1f,%.0f,%.0f,%.0f,%.0f\n", call, n, cancel_after_ms,
               samples.size(), finished_first, nqueens::bench::Median(latency), max_latency,
               nqueens::bench::Median(before), nqueens::bench::Median(at_cancel),
               nqueens::bench::Median(peak), nqueens::bench::Median(after));
  std::fflush(stdout);
}

// The --cancel_after_ms list; nullopt when it does not parse.
std::optional<std::vector<int>> CancelTimes() {
  std::vector<int> times;
  for (absl::string_view text : absl::StrSplit(absl::GetFlag(FLAGS_cancel_after_ms), ',')) {
    int ms = 0;
    if (!absl::SimpleAtoi(text, &ms) || ms < 0) return std::nullopt;
    times.push_back(ms);
  }
  return times;
}

void ReportLatencies(const std::vector<std::string>& calls, uint64_t n, uint32_t runs,
                     const std::vector<int>& cancel_times) {
  absl::PrintF(
      "call,n,cancel_after_ms,runs,finished_first,median_ms,max_ms,rss_before_mb,"
      "rss_at_cancel_mb,peak_after_cancel_mb,rss_after_mb\n");
  for (const std::string& call : calls) {
    for (int cancel_after_ms : cancel_times) {
      std::vector<Sample> samples;
      for (uint32_t run = 0; run < runs; ++run) {
        samples.push_back(Measure(MakeCall(call, static_cast<uint32_t>(n), run),
                                  std::chrono::milliseconds(cancel_after_ms)));
      }
      PrintLine(call, n, cancel_after_ms, samples);
    }
  }
}

void ReportGaps(const std::vector<std::string>& calls, uint64_t n) {
  absl::PrintF(
      "call,n,polls,longest_gap_ms,at_poll,longest_gap_cpu_ms,at_poll_cpu,first_poll_ms,"
      "last_poll_to_return_ms,status\n");
  const std::chrono::milliseconds run_for(absl::GetFlag(FLAGS_run_for_ms));
  for (const std::string& call : calls) {
    PrintGaps(call, n, MeasureGaps(MakeCall(call, static_cast<uint32_t>(n), 0), run_for));
  }
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const uint64_t n = absl::GetFlag(FLAGS_n);
  const uint32_t runs = absl::GetFlag(FLAGS_runs);
  const std::string mode = absl::GetFlag(FLAGS_mode);
  const std::optional<std::vector<int>> cancel_times = CancelTimes();
  if (n < 4 || n > nqueens::kMaxBoardSize || runs == 0 || !cancel_times ||
      (mode != "latency" && mode != "gaps")) {
    absl::FPrintF(stderr,
                  "nqueens-stop-latency: --n must be in 4..2^31-1, --runs at least 1, "
                  "--cancel_after_ms a list of milliseconds, --mode latency or gaps\n");
    return 2;
  }
  const std::vector<std::string> calls = absl::StrSplit(absl::GetFlag(FLAGS_calls), ',');
  try {
    if (mode == "gaps") {
      ReportGaps(calls, n);
    } else {
      ReportLatencies(calls, n, runs, *cancel_times);
    }
  } catch (const std::runtime_error& error) {
    absl::FPrintF(stderr, "nqueens-stop-latency: %s\n", error.what());
    return 1;
  }
  return 0;
}

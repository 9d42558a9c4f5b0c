// Cheap polling of a StopCondition from hot loops and O(n) passes.
//
// The promise (nqueens/stop.h) is a stop within 100 ms at any n, so no stretch
// of work between two polls may grow with n: a pass over the rows polls every
// kRowsPerPoll rows (RunInStretches), and a loop whose iterations cost more
// than a few nanoseconds tells ShouldStop how many steps each one took.
#ifndef NQUEENS_BASE_STOP_POLLER_H_
#define NQUEENS_BASE_STOP_POLLER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "nqueens/stop.h"

namespace nqueens::internal {

class StopPoller {
 public:
  // Steps between two polls of ShouldStop. A step is a few nanoseconds of
  // work (a node of the exact search, a row scanned), so a few thousand take
  // well under a millisecond.
  static constexpr uint64_t kStride = 4096;
  // Rows (or array elements) between two polls of a pass over the board:
  // few enough to stop in time even when each row costs a cache miss, many
  // enough that the poll (a clock read and the callback) costs next to
  // nothing in a sequential pass (docs/constants.md, kRowsPerPoll).
  static constexpr size_t kRowsPerPoll = size_t{1} << 16;

  explicit StopPoller(const StopCondition& condition) : condition_(condition) {}

  // For a nested computation that polls on its own.
  const StopCondition& condition() const { return condition_; }

  // True once the deadline passed or the caller cancelled; sticky. Polls
  // once kStride steps have been counted since the last poll; `steps` is
  // what the caller did since its previous call.
  bool ShouldStop(uint64_t steps = 1) {
    if (!status_.ok()) return true;
    steps_ += steps;
    if (steps_ < kStride) return false;
    steps_ = 0;
    return CheckNow();
  }

  // Polls without striding; use at coarse points (between stages).
  bool CheckNow() {
    if (!status_.ok()) return true;
    if (condition_.cancelled && condition_.cancelled()) {
      status_ = absl::CancelledError("the caller cancelled the computation");
    } else if (condition_.deadline != absl::InfiniteFuture() &&
               absl::Now() >= condition_.deadline) {
      status_ = absl::DeadlineExceededError("the deadline passed before the computation finished");
    }
    return !status_.ok();
  }

  // OK while running; CANCELLED or DEADLINE_EXCEEDED once stopped.
  const absl::Status& status() const { return status_; }

 private:
  const StopCondition& condition_;
  uint64_t steps_ = 0;
  absl::Status status_;
};

// Calls body(first, last) on [begin, end) cut into stretches of kRowsPerPoll
// indices, polling `stop` before each. False, with the rest not run, once it
// fires.
template <typename Body>
bool RunInStretches(size_t begin, size_t end, StopPoller& stop, Body&& body) {
  for (size_t first = begin; first < end; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return false;
    body(first, std::min(end, first + StopPoller::kRowsPerPoll));
  }
  return true;
}

// Appends `count` copies of `value` to `values` in polled stretches, in one
// allocation: writing fresh memory faults its pages in, which outlasts the
// promised stop on the largest boards (docs/constants.md, AppendPolled).
// False, with only part appended (the caller must not use it), once the poll
// fires.
template <typename Vector>
bool AppendPolled(Vector& values, size_t count, typename Vector::value_type value,
                  StopPoller& stop) {
  values.reserve(values.size() + count);
  return RunInStretches(0, count, stop, [&values, value](size_t first, size_t last) {
    values.insert(values.end(), last - first, value);
  });
}

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_STOP_POLLER_H_

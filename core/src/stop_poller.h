// Cheap polling of a StopCondition from hot loops: the clock and the callback
// are consulted only every kStride calls, so a loop can call ShouldStop() on
// every iteration.
#ifndef NQUEENS_SRC_STOP_POLLER_H_
#define NQUEENS_SRC_STOP_POLLER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "nqueens/stop.h"

namespace nqueens::internal {

class StopPoller {
 public:
  // A few thousand loop iterations take well under a millisecond.
  static constexpr uint32_t kStride = 4096;

  explicit StopPoller(const StopCondition& condition) : condition_(condition) {}

  // True once the deadline passed or the caller cancelled; sticky.
  bool ShouldStop() {
    if (!status_.ok()) return true;
    if (++calls_ % kStride != 0) return false;
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
  uint32_t calls_ = 0;
  absl::Status status_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_STOP_POLLER_H_

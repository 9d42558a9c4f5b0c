// How a caller stops a long computation: a deadline and/or a cancellation
// callback. Long loops poll it (cheaply, every few thousand steps, so that a
// stop request takes effect within 100 ms) and return DEADLINE_EXCEEDED or
// CANCELLED.
#ifndef NQUEENS_STOP_H_
#define NQUEENS_STOP_H_

#include <functional>

#include "absl/time/time.h"

namespace nqueens {

struct StopCondition {
  absl::Time deadline = absl::InfiniteFuture();
  // Returns true once the caller no longer wants the result (for example a
  // cancelled RPC). May be empty. Must be thread-safe and cheap.
  std::function<bool()> cancelled;
};

}  // namespace nqueens

#endif  // NQUEENS_STOP_H_

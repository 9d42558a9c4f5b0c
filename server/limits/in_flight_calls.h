// Counts the calls a service is running so that shutdown can refuse new calls
// and wait for the running ones before gRPC closes the connections. (gRPC's
// own Shutdown() closes a connection as soon as its last call ends on the
// server side, which can cut off the final bytes of a call that was
// mid-stream when shutdown began.)
//
// After the last call, shutdown goes on refusing for a moment while calls
// still arrive (a client whose call just ended often sends the next at once):
// gRPC ends a call that reaches it during its own Shutdown() with CANCELLED
// (grpc/grpc#41785), which clients cannot tell from their own cancellation,
// whereas our refusal says UNAVAILABLE, which they retry.
#ifndef NQUEENS_SERVER_LIMITS_IN_FLIGHT_CALLS_H_
#define NQUEENS_SERVER_LIMITS_IN_FLIGHT_CALLS_H_

#include <algorithm>
#include <atomic>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace nqueens::server {

class InFlightCalls {
 public:
  // False once Close() was called: the call must be refused.
  bool Enter() {
    absl::MutexLock lock(&mutex_);
    if (closed_) {
      last_event_ = absl::Now();
      return false;
    }
    ++running_;
    return true;
  }

  // True when this was the last call in flight.
  bool Exit() {
    absl::MutexLock lock(&mutex_);
    if (closed_) last_event_ = absl::Now();
    return --running_ == 0;
  }

  bool closed() const {
    absl::MutexLock lock(&mutex_);
    return closed_;
  }

  int running() const {
    absl::MutexLock lock(&mutex_);
    return running_;
  }

  // Waits until no call is in flight or the deadline passed; true when none
  // is. For tests and diagnostics.
  bool AwaitIdle(absl::Time deadline) const {
    absl::MutexLock lock(&mutex_);
    return mutex_.AwaitWithDeadline(absl::Condition(this, &InFlightCalls::Idle), deadline);
  }

  // Refuses further calls, then waits until the running ones have ended or
  // the deadline passed. True when none is left.
  bool CloseAndWait(absl::Time deadline) {
    absl::MutexLock lock(&mutex_);
    closed_ = true;
    return mutex_.AwaitWithDeadline(absl::Condition(this, &InFlightCalls::Idle), deadline);
  }

  // Once closed: waits until no call has ended or been refused for `quiet`,
  // or the deadline.
  void AwaitQuiet(absl::Duration quiet, absl::Time deadline) const {
    for (;;) {
      absl::Time until;
      {
        absl::MutexLock lock(&mutex_);
        until = std::min(last_event_ + quiet, deadline);
      }
      const absl::Time now = absl::Now();
      if (until <= now) return;
      absl::SleepFor(until - now);
    }
  }

  // Once the grace period is over: the running calls' stop conditions ask
  // this, so that their jobs stop and the calls end with the shutdown's reason
  // (Call::StoppedStatus) before gRPC cancels them with its own words
  // ("Cancelling all calls").
  void EndGrace() { grace_over_.store(true, std::memory_order_relaxed); }
  bool grace_over() const { return grace_over_.load(std::memory_order_relaxed); }

 private:
  bool Idle() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { return running_ == 0; }

  std::atomic<bool> grace_over_{false};

  mutable absl::Mutex mutex_;
  int running_ ABSL_GUARDED_BY(mutex_) = 0;
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
  // When a call last ended or was refused, once closed.
  absl::Time last_event_ ABSL_GUARDED_BY(mutex_) = absl::InfinitePast();
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_IN_FLIGHT_CALLS_H_

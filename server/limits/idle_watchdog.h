// Cuts streams that stall (--stream-idle-timeout). A stream's reactor
// watches it while it waits on the client -- reading the request, writing the
// response -- and not while it computes; it touches the watch whenever the
// stream makes progress. When none was made for the timeout, the watchdog
// calls the watch's `on_idle`, which ends the call and frees its memory. A
// watch may also have a latest time (the call's --max-call-seconds): a
// stream that keeps trickling is cut then all the same.
//
// One thread for all streams; it sleeps until the earliest deadline.
#ifndef NQUEENS_SERVER_LIMITS_IDLE_WATCHDOG_H_
#define NQUEENS_SERVER_LIMITS_IDLE_WATCHDOG_H_

#include <algorithm>
#include <functional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server {

class IdleWatchdog {
 public:
  // absl::InfiniteDuration() never cuts a stream.
  explicit IdleWatchdog(absl::Duration timeout);
  ~IdleWatchdog();  // all Watches must have ended

  IdleWatchdog(const IdleWatchdog&) = delete;
  IdleWatchdog& operator=(const IdleWatchdog&) = delete;

  absl::Duration timeout() const { return timeout_; }

  // Watches one call's stream for as long as it lives.
  class Watch {
   public:
    // `on_idle` runs once, on the watchdog's thread, with the watchdog's lock
    // held: it must not block or touch the watchdog. It runs at `latest`
    // at the latest, progress or not.
    Watch(IdleWatchdog& watchdog, std::function<void()> on_idle,
          absl::Time latest = absl::InfiniteFuture());
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    // The stream made progress: it is not idle.
    void Touch();
    // True once the watchdog called on_idle.
    bool expired() const;
    absl::Duration timeout() const { return watchdog_.timeout(); }

   private:
    friend class IdleWatchdog;
    IdleWatchdog& watchdog_;
    const std::function<void()> on_idle_;
    const absl::Time latest_;
    absl::Time deadline_ ABSL_GUARDED_BY(watchdog_.mutex_);
    bool expired_ ABSL_GUARDED_BY(watchdog_.mutex_) = false;
  };

 private:
  void CutIdleStreams();
  // When a watch touched now expires.
  absl::Time DeadlineFrom(absl::Time now, absl::Time latest) const {
    return std::min(now + timeout_, latest);
  }

  const absl::Duration timeout_;
  mutable absl::Mutex mutex_;
  absl::CondVar watch_added_;
  absl::flat_hash_set<Watch*> watches_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread thread_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_IDLE_WATCHDOG_H_

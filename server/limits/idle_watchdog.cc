#include "server/limits/idle_watchdog.h"

#include <algorithm>
#include <utility>

namespace nqueens::server {

IdleWatchdog::IdleWatchdog(absl::Duration timeout)
    : timeout_(timeout), thread_([this] { CutIdleStreams(); }) {}

IdleWatchdog::~IdleWatchdog() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
    watch_added_.Signal();
  }
  thread_.join();
}

void IdleWatchdog::CutIdleStreams() {
  absl::MutexLock lock(&mutex_);
  while (!stopping_) {
    const absl::Time now = absl::Now();
    absl::Time next_deadline = absl::InfiniteFuture();
    for (Watch* watch : watches_) {
      if (watch->expired_) continue;
      if (watch->deadline_ <= now) {
        // Under the mutex: the Watch, and with it the call, is still alive.
        watch->expired_ = true;
        watch->on_idle_();
      } else {
        next_deadline = std::min(next_deadline, watch->deadline_);
      }
    }
    // Touches only move deadlines later, so waking up at the earliest
    // deadline seen here is never too late; new watches signal.
    watch_added_.WaitWithDeadline(&mutex_, next_deadline);
  }
}

IdleWatchdog::Watch::Watch(IdleWatchdog& watchdog, std::function<void()> on_idle, absl::Time latest)
    : watchdog_(watchdog), on_idle_(std::move(on_idle)), latest_(latest) {
  absl::MutexLock lock(&watchdog_.mutex_);
  deadline_ = watchdog_.DeadlineFrom(absl::Now(), latest_);
  watchdog_.watches_.insert(this);
  watchdog_.watch_added_.Signal();
}

IdleWatchdog::Watch::~Watch() {
  absl::MutexLock lock(&watchdog_.mutex_);
  watchdog_.watches_.erase(this);
}

void IdleWatchdog::Watch::Touch() {
  absl::MutexLock lock(&watchdog_.mutex_);
  deadline_ = watchdog_.DeadlineFrom(absl::Now(), latest_);
}

bool IdleWatchdog::Watch::expired() const {
  absl::MutexLock lock(&watchdog_.mutex_);
  return expired_;
}

}  // namespace nqueens::server

#include "server/idle_heap_trim.h"

#include <malloc.h>

namespace nqueens::server {

void TrimHeap() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

IdleHeapTrim::IdleHeapTrim(absl::Duration delay) : delay_(delay), thread_([this] { Run(); }) {}

IdleHeapTrim::~IdleHeapTrim() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  thread_.join();
}

void IdleHeapTrim::Busy() {
  absl::MutexLock lock(&mutex_);
  ++generation_;
  idle_ = false;
}

void IdleHeapTrim::Idle() {
  absl::MutexLock lock(&mutex_);
  idle_ = true;
}

uint64_t IdleHeapTrim::trims() const {
  absl::MutexLock lock(&mutex_);
  return trims_;
}

void IdleHeapTrim::Run() {
  const auto idle_or_stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return idle_ || stopping_;
  };
  absl::MutexLock lock(&mutex_);
  while (true) {
    mutex_.Await(absl::Condition(&idle_or_stopping));
    if (stopping_) return;
    // Still idle, with no call in between, after the delay?
    const uint64_t generation = generation_;
    const auto busy_again = [this, generation]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return generation_ != generation || stopping_;
    };
    if (mutex_.AwaitWithTimeout(absl::Condition(&busy_again), delay_)) continue;
    idle_ = false;  // once per idle period
    ++trims_;
    mutex_.Unlock();
    TrimHeap();
    mutex_.Lock();
  }
}

}  // namespace nqueens::server

#include "server/base/idle_heap_trim.h"

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

void IdleHeapTrim::Busy() { generation_.fetch_add(1, std::memory_order_relaxed); }

void IdleHeapTrim::Idle() {
  absl::MutexLock lock(&mutex_);
  idle_ = true;
  idle_generation_ = generation_.load(std::memory_order_relaxed);
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
    idle_ = false;  // the next Idle() starts another period
    const uint64_t generation = idle_generation_;
    // Calls that begin meanwhile do not wake this thread.
    if (mutex_.AwaitWithTimeout(absl::Condition(&stopping_), delay_)) return;
    // A call began since the server turned idle: wait for the next idle
    // period (which may have begun already).
    if (generation_.load(std::memory_order_relaxed) != generation) continue;
    ++trims_;
    mutex_.Unlock();
    TrimHeap();
    mutex_.Lock();
  }
}

}  // namespace nqueens::server

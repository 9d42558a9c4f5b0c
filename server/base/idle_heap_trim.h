// Gives malloc's free pages back to the kernel once the server has been idle
// for a moment. glibc keeps what calls free in its heap, well above the idle
// size after a load run of small calls, and nothing in a later call's
// estimate accounts for that. A trim is not free (docs/constants.md,
// IdleHeapTrim), so it runs only after no call has been in flight for
// `delay`, once per idle period, on a thread of its own. A call that begins
// only counts itself (no lock, no wake-up): the thread wakes when the
// server turns idle, at most once per `delay`, and looks after the delay
// whether any call began meanwhile.
#ifndef NQUEENS_SERVER_BASE_IDLE_HEAP_TRIM_H_
#define NQUEENS_SERVER_BASE_IDLE_HEAP_TRIM_H_

#include <atomic>
#include <cstdint>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server {

class IdleHeapTrim {
 public:
  explicit IdleHeapTrim(absl::Duration delay);
  ~IdleHeapTrim();

  IdleHeapTrim(const IdleHeapTrim&) = delete;
  IdleHeapTrim& operator=(const IdleHeapTrim&) = delete;

  // A call began, or the last call in flight ended.
  void Busy();
  void Idle();

  // Trims done so far (for tests).
  uint64_t trims() const;

 private:
  void Run();

  const absl::Duration delay_;
  // Changes at every Busy(): a trim waits for an idle period without one.
  std::atomic<uint64_t> generation_{0};
  mutable absl::Mutex mutex_;
  // Set by Idle() with the generation then; the thread takes it.
  bool idle_ ABSL_GUARDED_BY(mutex_) = false;
  uint64_t idle_generation_ ABSL_GUARDED_BY(mutex_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  uint64_t trims_ ABSL_GUARDED_BY(mutex_) = 0;
  std::thread thread_;
};

// malloc_trim(0) where the C library has it.
void TrimHeap();

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_BASE_IDLE_HEAP_TRIM_H_

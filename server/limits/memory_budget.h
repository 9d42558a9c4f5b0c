// The memory all calls of a server share (--memory-budget). A call reserves
// its estimated peak (memory_estimate.h) before it allocates anything O(n)
// and holds the reservation until it ends; a call that does not fit is
// refused at once instead of pushing the process into an out-of-memory kill.
// Large reservations also hand malloc's free pages back to the kernel when
// they are made and when they end, so that freed memory is freed for real.
#ifndef NQUEENS_SERVER_LIMITS_MEMORY_BUDGET_H_
#define NQUEENS_SERVER_LIMITS_MEMORY_BUDGET_H_

#include <cstdint>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server {

class MemoryBudget {
 public:
  // Gives its bytes back to the budget when destroyed. Move-only.
  class Reservation {
   public:
    Reservation(Reservation&& other) noexcept;
    Reservation& operator=(Reservation&& other) noexcept;
    ~Reservation();

    uint64_t bytes() const { return bytes_; }
    // Takes over `other`'s bytes: one reservation of the sum. Same budget.
    void Absorb(Reservation&& other);

   private:
    friend class MemoryBudget;
    Reservation(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}

    MemoryBudget* budget_;  // null once moved from
    uint64_t bytes_;
  };

  explicit MemoryBudget(uint64_t capacity) : capacity_(capacity) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // nullopt when `bytes` does not fit in what is free now. Thread-safe.
  std::optional<Reservation> Reserve(uint64_t bytes);

  uint64_t capacity() const { return capacity_; }
  uint64_t in_use() const;
  uint64_t available() const;

  // Waits until exactly `bytes` are reserved or the deadline passed; true
  // when they are. For tests and diagnostics.
  bool AwaitInUse(uint64_t bytes, absl::Time deadline) const;

 private:
  void Release(uint64_t bytes);

  const uint64_t capacity_;
  mutable absl::Mutex mutex_;
  uint64_t in_use_ ABSL_GUARDED_BY(mutex_) = 0;
};

// The budget when none is configured: 75% of the memory this process may
// use, i.e. of physical memory or of the cgroup limit (a Kubernetes or Docker
// memory limit) when that is lower.
uint64_t DefaultMemoryBudget();

// The limit in the contents of a cgroup memory file (v2 memory.max, v1
// memory.limit_in_bytes); nullopt for "max" or anything unreadable.
std::optional<uint64_t> ParseCgroupMemoryLimit(absl::string_view contents);

// Makes malloc give buffers of 1 MiB and more back to the kernel as soon as
// they are freed. By default glibc raises its mmap threshold to the size of
// each large buffer freed and keeps later ones in its heap, so a call's
// request board and chunks stayed resident after it and raised the next
// call's peak (docs/constants.md, ReturnLargeFreedBuffersToTheKernel). Call
// once, before serving.
void ReturnLargeFreedBuffersToTheKernel();

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_MEMORY_BUDGET_H_

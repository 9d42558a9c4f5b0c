// A stop signal that one thread raises for calls running on others: a job
// cut into parts cancels the parts still running once its answer is known
// (a SOLVED part, enough boards, a failed job). The local backend polls it
// through the core's StopCondition; a remote call cancels its RPC when it is
// raised (client/backends/backend.h, RunOptions::cancellation).
#ifndef NQUEENS_CLIENT_BACKENDS_CANCELLATION_H_
#define NQUEENS_CLIENT_BACKENDS_CANCELLATION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>

#include "absl/synchronization/mutex.h"

namespace nqueens::client {

class Cancellation {
 public:
  // While it lives, Cancel() runs its callback; destroying it waits for a
  // callback that runs, so that the callback may use what the registrant
  // owns until then.
  class Registration {
   public:
    Registration() = default;
    Registration(Registration&& other) noexcept;
    Registration& operator=(Registration&&) = delete;
    Registration(const Registration&) = delete;
    ~Registration();

   private:
    friend class Cancellation;
    Registration(Cancellation* owner, uint64_t id) : owner_(owner), id_(id) {}
    Cancellation* owner_ = nullptr;
    uint64_t id_ = 0;
  };

  Cancellation() = default;
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  // Raises the signal and runs every registered callback, once. Any thread.
  void Cancel();
  // Cheap; any thread.
  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }
  // Runs `on_cancel` on Cancel(), or at once when already cancelled.
  // `on_cancel` must be quick and must not use this object.
  [[nodiscard]] Registration Register(std::function<void()> on_cancel);

 private:
  void Unregister(uint64_t id);

  std::atomic<bool> cancelled_{false};
  absl::Mutex mutex_;
  uint64_t next_id_ ABSL_GUARDED_BY(mutex_) = 1;
  std::map<uint64_t, std::function<void()>> callbacks_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_CANCELLATION_H_

// A one-shot notification on std::mutex, for tests that ThreadSanitizer runs:
// Debian's absl::Notification locks and unlocks inside the uninstrumented
// Abseil library, where tests/tsan_absl_mutex.cc cannot see it.
#ifndef NQUEENS_TESTS_SERVER_TEST_NOTIFICATION_H_
#define NQUEENS_TESTS_SERVER_TEST_NOTIFICATION_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "absl/time/time.h"

namespace nqueens::testing {

class TestNotification {
 public:
  void Notify() {
    std::lock_guard<std::mutex> lock(mutex_);
    notified_ = true;
    changed_.notify_all();
  }
  bool HasBeenNotified() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return notified_;
  }
  // True once notified; false when `timeout` passed first.
  bool WaitForNotificationWithTimeout(absl::Duration timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, absl::ToChronoNanoseconds(timeout),
                             [this] { return notified_; });
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool notified_ = false;
};

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_SERVER_TEST_NOTIFICATION_H_

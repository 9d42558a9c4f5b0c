#include "cancellation_poll.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>

namespace nqueens::server {
namespace {

class ThrottledPoll {
 public:
  ThrottledPoll(std::function<bool()> is_cancelled, absl::Duration interval)
      : is_cancelled_(std::move(is_cancelled)),
        interval_ns_(absl::ToInt64Nanoseconds(interval)) {}

  bool operator()() {
    if (cancelled_.load(std::memory_order_relaxed)) return true;
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    if (now < next_poll_ns_.load(std::memory_order_relaxed)) return false;
    // Two threads may both get here; both then ask gRPC, which is harmless.
    next_poll_ns_.store(now + interval_ns_, std::memory_order_relaxed);
    if (!is_cancelled_()) return false;
    cancelled_.store(true, std::memory_order_relaxed);
    return true;
  }

 private:
  const std::function<bool()> is_cancelled_;
  const int64_t interval_ns_;
  std::atomic<int64_t> next_poll_ns_{INT64_MIN};
  std::atomic<bool> cancelled_{false};
};

}  // namespace

std::function<bool()> PollCancellation(std::function<bool()> is_cancelled,
                                       absl::Duration interval) {
  auto poll = std::make_shared<ThrottledPoll>(std::move(is_cancelled), interval);
  return [poll] { return (*poll)(); };
}

}  // namespace nqueens::server

// A StopCondition for tests: counts the times the core polls it and asks it
// to stop from a chosen poll on. Deterministic where a deadline is not: the
// same call polls the same number of times, so a test can stop it at any
// one of its polls.
#ifndef NQUEENS_TESTS_CORE_COUNTING_STOP_H_
#define NQUEENS_TESTS_CORE_COUNTING_STOP_H_

#include <cstdint>
#include <functional>
#include <utility>

#include "nqueens/stop.h"

namespace nqueens::test_stop {

// A condition that never asks to stop.
inline const StopCondition kNever;

class CountingStop {
 public:
  // Asks to stop from poll number `stop_at` (1-based) on; never when 0.
  explicit CountingStop(uint64_t stop_at = 0) : stop_at_(stop_at) {
    condition_.cancelled = [this] {
      ++polls_;
      if (on_poll_) on_poll_(polls_);
      return stop_at_ != 0 && polls_ >= stop_at_;
    };
  }
  // condition() refers to this object.
  CountingStop(const CountingStop&) = delete;
  CountingStop& operator=(const CountingStop&) = delete;

  const StopCondition& condition() const { return condition_; }
  uint64_t polls() const { return polls_; }
  // Runs `on_poll(poll number)` at every poll, before answering it.
  void OnPoll(std::function<void(uint64_t)> on_poll) { on_poll_ = std::move(on_poll); }

 private:
  uint64_t stop_at_;
  uint64_t polls_ = 0;
  std::function<void(uint64_t)> on_poll_;
  StopCondition condition_;
};

}  // namespace nqueens::test_stop

#endif  // NQUEENS_TESTS_CORE_COUNTING_STOP_H_

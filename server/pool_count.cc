#include "pool_count.h"

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"

namespace nqueens::server {
namespace {

// What the call's worker and its helpers share. Helpers hold it by
// shared_ptr: a helper may start after the call has ended.
class SharedCount {
 public:
  explicit SharedCount(CountPlan plan) : plan_(std::move(plan)), parts_(plan_.parts()) {}

  // Takes parts until none is left or the count is abandoned; a part that
  // `stop` cut abandons it.
  void TakeParts(const StopCondition& stop, const std::function<void()>& after_each_part) {
    for (;;) {
      size_t index = 0;
      {
        // Taken and counted as counting at once: AwaitResult must never see
        // a part taken that no one counts yet.
        absl::MutexLock lock(&mutex_);
        if (abandoned_.load() || next_ == parts_.size()) return;
        index = next_++;
        ++counting_;
      }
      absl::StatusOr<CountPart> part = plan_.Count(index, stop);
      {
        absl::MutexLock lock(&mutex_);
        --counting_;
        if (!part.ok()) return AbandonWith(part.status());
        parts_[index] = *part;
        ++done_;
        nodes_ += part->nodes;
      }
      if (after_each_part) after_each_part();
    }
  }

  bool abandoned() const { return abandoned_.load(); }

  // Waits until no helper counts a part, abandoning the count if `stop`
  // fires meanwhile; then the sum, or why there is none. `stop` is polled
  // without the lock held: its callback may ask for Progress.
  absl::StatusOr<CountResult> AwaitResult(const StopCondition& stop) {
    while (!AwaitIdle()) {
      if (absl::Now() >= stop.deadline) {
        Abandon(absl::DeadlineExceededError("the deadline passed"));
      } else if (stop.cancelled && stop.cancelled()) {
        Abandon(absl::CancelledError("cancelled"));
      }
    }
    absl::MutexLock lock(&mutex_);
    if (!error_.ok()) return error_;
    return plan_.Sum(parts_);
  }
  CountProgress Progress(absl::Time start) const {
    absl::MutexLock lock(&mutex_);
    return CountProgress{static_cast<double>(done_) / static_cast<double>(parts_.size()), nodes_,
                         absl::Now() - start};
  }

  // A stop that follows the abandonment and `deadline`: helpers must not
  // look at the call, which may have ended.
  StopCondition HelperStop(const std::shared_ptr<SharedCount>& self, absl::Time deadline) const {
    StopCondition stop;
    stop.deadline = deadline;
    stop.cancelled = [self] { return self->abandoned(); };
    return stop;
  }

 private:
  // How often the call's worker looks at its stop while helpers count.
  static constexpr absl::Duration kStopPollInterval = absl::Milliseconds(20);

  // True once no helper counts a part; false after kStopPollInterval.
  bool AwaitIdle() {
    absl::MutexLock lock(&mutex_);
    const absl::Condition idle(
        +[](int* counting) { return *counting == 0; }, &counting_);
    // AwaitWithDeadline, not AwaitWithTimeout: the latter draws a false
    // report from ThreadSanitizer's view of Abseil's mutex here.
    return mutex_.AwaitWithDeadline(idle, absl::Now() + kStopPollInterval);
  }

  void Abandon(absl::Status status) {
    absl::MutexLock lock(&mutex_);
    AbandonWith(std::move(status));
  }

  // The first reason wins: a helper stopped by the abandonment reports
  // CANCELLED, which is not why the count ended.
  void AbandonWith(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (error_.ok()) error_ = std::move(status);
    abandoned_.store(true);
  }

  const CountPlan plan_;
  std::atomic<bool> abandoned_{false};
  mutable absl::Mutex mutex_;
  std::vector<CountPart> parts_ ABSL_GUARDED_BY(mutex_);
  size_t next_ ABSL_GUARDED_BY(mutex_) = 0;  // the next part to take
  size_t done_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t nodes_ ABSL_GUARDED_BY(mutex_) = 0;
  int counting_ ABSL_GUARDED_BY(mutex_) = 0;
  absl::Status error_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

absl::StatusOr<CountResult> CountOnPool(
    WorkerPool& pool, CountPlan plan, const StopCondition& stop, absl::Duration progress_interval,
    const std::function<void(const CountProgress&)>& on_progress) {
  const absl::Time start = absl::Now();
  auto shared = std::make_shared<SharedCount>(std::move(plan));
  const StopCondition helper_stop = shared->HelperStop(shared, stop.deadline);
  for (int helper = 1; helper < pool.MaxPerCall(); ++helper) {
    // A full queue only means fewer helpers.
    pool.Submit(WorkerPool::Size::kLarge,
                [shared, helper_stop] { shared->TakeParts(helper_stop, nullptr); });
  }
  // The call's worker reports between its parts, at its polls inside a part
  // and while it waits for the helpers: whichever thread counts the parts,
  // progress comes at least every interval (and every kStopPollInterval).
  absl::Time next_progress = start + progress_interval;
  const std::function<void()> report = [&] {
    if (absl::Now() < next_progress) return;
    next_progress = absl::Now() + progress_interval;
    on_progress(shared->Progress(start));
  };
  StopCondition stop_and_report = stop;
  stop_and_report.cancelled = [&] {
    report();
    return stop.cancelled && stop.cancelled();
  };
  shared->TakeParts(stop_and_report, report);
  report();
  absl::StatusOr<CountResult> result = shared->AwaitResult(stop_and_report);
  if (result.ok()) result->elapsed = absl::Now() - start;
  return result;
}

}  // namespace nqueens::server

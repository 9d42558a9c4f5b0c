#include "base/parallel_parts.h"

#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"

namespace nqueens::internal {
namespace {

// How often the calling thread asks keep_going while helpers run parts.
constexpr absl::Duration kWaitPollInterval = absl::Milliseconds(20);

// What the threads of one job share. Helpers hold it by shared_ptr: a
// helper may start after the job has ended, and must then touch nothing of
// the caller's.
class SharedParts {
 public:
  explicit SharedParts(size_t parts) : parts_(parts) {}

  // Counts a thread in; false once the job has ended.
  bool Enter() {
    absl::MutexLock lock(&mutex_);
    if (closed_) return false;
    ++running_;
    return true;
  }
  void Leave() {
    absl::MutexLock lock(&mutex_);
    --running_;
  }

  std::optional<size_t> Next() {
    const size_t index = next_.fetch_add(1);
    if (index >= parts_) return std::nullopt;
    return index;
  }

  // Waits until no helper runs a part, asking keep_going meanwhile; then no
  // helper enters any more.
  void AwaitAndClose(const std::function<bool()>& keep_going, std::atomic<bool>& abandoned) {
    absl::MutexLock lock(&mutex_);
    const absl::Condition idle(
        +[](int* running) { return *running == 0; }, &running_);
    // AwaitWithDeadline, not AwaitWithTimeout: the latter draws a false
    // report from ThreadSanitizer's view of Abseil's mutex.
    while (!mutex_.AwaitWithDeadline(idle, absl::Now() + kWaitPollInterval)) {
      if (!keep_going) continue;
      // keep_going may take locks of its own (a progress report).
      mutex_.Unlock();
      if (!keep_going()) abandoned.store(true);
      mutex_.Lock();
    }
    closed_ = true;
  }

 private:
  const size_t parts_;
  std::atomic<size_t> next_{0};
  absl::Mutex mutex_;
  int running_ ABSL_GUARDED_BY(mutex_) = 0;
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
};

void TakeParts(const PartRunner& run, const std::function<bool()>& keep_going, SharedParts& shared,
               std::atomic<bool>& abandoned) {
  while (!abandoned.load()) {
    if (keep_going && !keep_going()) break;
    const std::optional<size_t> index = shared.Next();
    if (!index.has_value()) return;
    if (!run(*index)) break;
  }
  abandoned.store(true);
}

}  // namespace

void RunParts(const PartsJob& job, const SearchThreads& threads, std::atomic<bool>& abandoned) {
  auto shared = std::make_shared<SharedParts>(job.parts);
  std::vector<std::thread> own_threads;
  for (size_t helper = 1; helper < static_cast<size_t>(threads.count) && helper < job.parts;
       ++helper) {
    // `job` and `abandoned` are looked at only once Enter has let the helper
    // in, which it does only while RunParts waits.
    auto take = [shared, &job, &abandoned] {
      if (!shared->Enter()) return;
      TakeParts(job.start_thread(false), nullptr, *shared, abandoned);
      shared->Leave();
    };
    if (!threads.run) {
      own_threads.emplace_back(std::move(take));
    } else if (!threads.run(std::move(take))) {
      break;  // fewer helpers, not an error
    }
  }
  if (shared->Enter()) {
    TakeParts(job.start_thread(true), job.keep_going, *shared, abandoned);
    shared->Leave();
  }
  shared->AwaitAndClose(job.keep_going, abandoned);
  for (std::thread& thread : own_threads) thread.join();
}

}  // namespace nqueens::internal

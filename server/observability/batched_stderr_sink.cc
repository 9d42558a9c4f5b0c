#include "server/observability/batched_stderr_sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::server {
namespace {

// The lines not yet written, and the thread that writes them kLogBatchDelay
// after the first of them came. Never destroyed: lines may come until the
// process ends, from threads that outlive main.
class StderrBatch {
 public:
  static StderrBatch& Get() {
    static StderrBatch* const batch = new StderrBatch();
    return *batch;
  }

  void Append(const spdlog::memory_buf_t& line, bool at_once) {
    bool full = false;
    {
      absl::MutexLock lock(&mutex_);
      pending_.append(line.data(), line.size());
      full = pending_.size() >= kLogBatchMaxBytes;
    }
    if (at_once || full) Write();
  }

  // Writes every line appended so far.
  void Write() {
    // One writer at a time, so that batches keep their order.
    absl::MutexLock writing(&write_mutex_);
    {
      absl::MutexLock lock(&mutex_);
      written_.swap(pending_);
    }
    WriteAll(written_);
    written_.clear();
  }

 private:
  StderrBatch() {
    std::thread([this] { WriteLater(); }).detach();
    std::atexit([] { Get().Write(); });
  }

  // Sleeps while no line waits; the first line to come wakes it (the only
  // wake-up a batch costs).
  [[noreturn]] void WriteLater() {
    for (;;) {
      {
        absl::MutexLock lock(&mutex_);
        mutex_.Await(absl::Condition(
            +[](std::string* pending) { return !pending->empty(); }, &pending_));
      }
      absl::SleepFor(kLogBatchDelay);
      Write();
    }
  }

  static void WriteAll(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t wrote = ::write(STDERR_FILENO, bytes.data() + done, bytes.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) return;  // nowhere to log to: the lines are dropped
      done += static_cast<size_t>(wrote);
    }
  }

  absl::Mutex write_mutex_;
  std::string written_ ABSL_GUARDED_BY(write_mutex_);
  absl::Mutex mutex_ ABSL_ACQUIRED_AFTER(write_mutex_);
  std::string pending_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

void BatchedStderrSink::sink_it_(const spdlog::details::log_msg& message) {
  spdlog::memory_buf_t line;
  formatter_->format(message, line);
  StderrBatch::Get().Append(line, message.level >= spdlog::level::warn);
}

void BatchedStderrSink::flush_() { StderrBatch::Get().Write(); }

}  // namespace nqueens::server

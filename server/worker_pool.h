// The threads that run the service's CPU-bound work (Solve, Complete,
// Validate and their streams), and the bounded queue of calls waiting for one.
// gRPC's own threads only move messages; a call holds a worker only while it
// computes.
//
// Fairness: a call is small or large by its estimated cost. `workers` threads
// run calls of either size, small ones first. One more thread, the express
// lane, runs small calls, and only while every worker is busy with a large
// call: so with workers = 2 and two 10^7-row completions running, a
// 1,000-row completion still starts at once instead of waiting seconds behind
// them, while a load of small calls alone runs on exactly `workers` threads.
// The express lane costs nothing but a sleeping thread when it is not needed,
// and the workers run at a lower CPU priority than it and gRPC's threads.
#ifndef NQUEENS_SERVER_WORKER_POOL_H_
#define NQUEENS_SERVER_WORKER_POOL_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server {

class WorkerPool {
 public:
  enum class Size { kSmall, kLarge };
  using Ticket = uint64_t;

  // workers >= 1; max_queued >= 0 calls may wait beyond those running.
  WorkerPool(int workers, int max_queued);
  // Runs no further job; waits for the running ones. Jobs still queued are
  // dropped without running (their calls must have been withdrawn first).
  ~WorkerPool();

  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `job`; nullopt when max_queued jobs already wait.
  std::optional<Ticket> Submit(Size size, std::function<void()> job);
  // True when the job was still waiting: it is removed and never runs. False
  // when it has started (or finished).
  bool Withdraw(Ticket ticket);

  int workers() const { return workers_; }
  int max_queued() const { return max_queued_; }
  int queued() const;
  int running() const;
  // Waits until exactly `running` jobs run and `queued` wait, or the deadline
  // passed; true when they do. For tests and diagnostics.
  bool AwaitLoad(int running, int queued, absl::Time deadline) const;

 private:
  struct Job {
    Ticket ticket;
    std::function<void()> run;
  };

  bool HasWorkFor(bool express_lane) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void Run(bool express_lane);

  const int workers_;
  const int max_queued_;
  mutable absl::Mutex mutex_;
  std::deque<Job> small_ ABSL_GUARDED_BY(mutex_);
  std::deque<Job> large_ ABSL_GUARDED_BY(mutex_);
  Ticket next_ticket_ ABSL_GUARDED_BY(mutex_) = 1;
  // Jobs running on the workers, by size, and on the express lane (0 or 1).
  int running_small_ ABSL_GUARDED_BY(mutex_) = 0;
  int running_large_ ABSL_GUARDED_BY(mutex_) = 0;
  int express_running_ ABSL_GUARDED_BY(mutex_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_WORKER_POOL_H_

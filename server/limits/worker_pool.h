// The threads that run the service's CPU-bound work (Solve, Complete,
// Validate and their streams), and the bounded queue of calls waiting for one.
// gRPC's own threads only move messages; a call holds a worker only while it
// computes.
//
// Fairness: a call is small or large by its estimated cost. `workers` threads
// run calls of either size, small ones first. One more thread, the express
// lane, runs small calls, and only while every worker is busy with a long
// job: a large one, or a small one that has run for `short_job` already (a
// small board can still be a hard search). So with workers = 2 and two
// 10^7-row completions running, or two hard searches of 3,000 rows, a
// 1,000-row completion still starts at once instead of waiting behind them,
// while a load of quick small calls runs on exactly `workers` threads. The
// express lane costs nothing but a sleeping thread when it is not needed,
// and the workers run at a lower CPU priority than it and gRPC's threads.
// One call runs at most MaxPerCall() jobs at once (its own and its helpers,
// or a batch's items), so that no call takes every worker.
#ifndef NQUEENS_SERVER_LIMITS_WORKER_POOL_H_
#define NQUEENS_SERVER_LIMITS_WORKER_POOL_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "nqueens/threads.h"

namespace nqueens::server {

class WorkerPool {
 public:
  enum class Size { kSmall, kLarge };
  using Ticket = uint64_t;

  // A small job that has run this long counts as long (see above).
  static constexpr absl::Duration kShortJob = absl::Milliseconds(10);

  // workers >= 1; max_queued >= 0 calls may wait beyond those running.
  WorkerPool(int workers, int max_queued, absl::Duration short_job = kShortJob);
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
  // How many jobs one call may run at once: every worker but one.
  int MaxPerCall() const { return workers_ > 1 ? workers_ - 1 : 1; }
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
  // Every worker runs a long job (see above), as of `now`.
  bool WorkersAllLong(absl::Time now) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // When the small jobs on the workers will all be long, if small jobs wait
  // and every worker is busy; else absl::InfiniteFuture().
  absl::Time AllTurnLong() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Until the express lane has a job, or the pool stops.
  void AwaitExpressWork() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // `worker`: the worker's index, or kExpressLane.
  void Run(int worker);

  static constexpr int kExpressLane = -1;

  const int workers_;
  const int max_queued_;
  const absl::Duration short_job_;
  mutable absl::Mutex mutex_;
  std::deque<Job> small_ ABSL_GUARDED_BY(mutex_);
  std::deque<Job> large_ ABSL_GUARDED_BY(mutex_);
  Ticket next_ticket_ ABSL_GUARDED_BY(mutex_) = 1;
  // Jobs running on the workers, by size, and on the express lane (0 or 1).
  int running_small_ ABSL_GUARDED_BY(mutex_) = 0;
  int running_large_ ABSL_GUARDED_BY(mutex_) = 0;
  int express_running_ ABSL_GUARDED_BY(mutex_) = 0;
  // When each worker's small job started; absl::InfiniteFuture() for a
  // worker that is idle or runs a large job.
  std::vector<absl::Time> small_started_ ABSL_GUARDED_BY(mutex_);
  // Counts the queue's and the threads' changes, for the express lane.
  uint64_t changes_ ABSL_GUARDED_BY(mutex_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<std::thread> threads_;
};

// The pool as the threads of one call's search or count (the core's
// SearchThreads): MaxPerCall() in all, its helpers queued as large jobs.
SearchThreads CallThreads(WorkerPool& pool);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_WORKER_POOL_H_

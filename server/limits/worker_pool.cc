#include "server/limits/worker_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

namespace nqueens::server {
namespace {

// The workers' nice value, above the express lane's and gRPC's threads' 0:
// the kernel then gives a small call on the express lane, and the messages
// gRPC moves, about three times the CPU share of a worker computing a large
// call, instead of an equal one. Raising one's own nice value needs no
// privilege (lowering it would, so a worker keeps it for all calls; with no
// large call running, nothing competes with it).
constexpr int kWorkerNice = 5;

void LowerThisThreadsPriority() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kWorkerNice);
}

// Removes the job with `ticket` from `queue`; false when it is not there.
template <typename Queue, typename Ticket>
bool Erase(Queue& queue, Ticket ticket) {
  const auto it = std::find_if(queue.begin(), queue.end(),
                               [ticket](const auto& job) { return job.ticket == ticket; });
  if (it == queue.end()) return false;
  queue.erase(it);
  return true;
}

}  // namespace

WorkerPool::WorkerPool(int workers, int max_queued, absl::Duration short_job)
    : workers_(std::max(1, workers)),
      max_queued_(std::max(0, max_queued)),
      short_job_(short_job),
      small_started_(workers_, absl::InfiniteFuture()) {
  threads_.reserve(workers_ + 1);
  for (int i = 0; i < workers_; ++i) threads_.emplace_back([this, i] { Run(i); });
  threads_.emplace_back([this] { Run(kExpressLane); });
}

WorkerPool::~WorkerPool() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

std::optional<WorkerPool::Ticket> WorkerPool::Submit(Size size, std::function<void()> job) {
  absl::MutexLock lock(&mutex_);
  // Threads that would take the job now: free workers, and for a small job
  // the express lane when it is free and the workers all run large jobs.
  int takers = workers_ - running_small_ - running_large_;
  if (size == Size::kSmall && express_running_ == 0 && WorkersAllLong(absl::Now())) ++takers;
  const int waiting = static_cast<int>(small_.size() + large_.size());
  if (waiting - takers >= max_queued_) return std::nullopt;
  const Ticket ticket = next_ticket_++;
  ++changes_;
  (size == Size::kSmall ? small_ : large_).push_back(Job{ticket, std::move(job)});
  return ticket;
}

bool WorkerPool::Withdraw(Ticket ticket) {
  absl::MutexLock lock(&mutex_);
  return Erase(small_, ticket) || Erase(large_, ticket);
}

int WorkerPool::queued() const {
  absl::MutexLock lock(&mutex_);
  return static_cast<int>(small_.size() + large_.size());
}

int WorkerPool::running() const {
  absl::MutexLock lock(&mutex_);
  return running_small_ + running_large_ + express_running_;
}

bool WorkerPool::AwaitLoad(int running, int queued, absl::Time deadline) const {
  absl::MutexLock lock(&mutex_);
  const auto reached = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return running_small_ + running_large_ + express_running_ == running &&
           static_cast<int>(small_.size() + large_.size()) == queued;
  };
  return mutex_.AwaitWithDeadline(absl::Condition(&reached), deadline);
}

bool WorkerPool::HasWorkFor(bool express_lane) const {
  if (stopping_) return true;
  if (express_lane) return !small_.empty() && WorkersAllLong(absl::Now());
  return !small_.empty() || !large_.empty();
}

bool WorkerPool::WorkersAllLong(absl::Time now) const {
  if (running_small_ + running_large_ < workers_) return false;
  return std::all_of(small_started_.begin(), small_started_.end(), [&](absl::Time started) {
    return started == absl::InfiniteFuture() || started + short_job_ <= now;
  });
}

absl::Time WorkerPool::AllTurnLong() const {
  if (small_.empty() || running_small_ + running_large_ < workers_) return absl::InfiniteFuture();
  absl::Time all_long = absl::InfinitePast();
  for (const absl::Time started : small_started_) {
    if (started != absl::InfiniteFuture()) all_long = std::max(all_long, started + short_job_);
  }
  return all_long == absl::InfinitePast() ? absl::InfiniteFuture() : all_long;
}

void WorkerPool::AwaitExpressWork() {
  // Time alone makes a small job long, so the lane also wakes when the
  // workers' small jobs turn long, and looks again after every change.
  while (!HasWorkFor(true)) {
    const uint64_t seen = changes_;
    const auto changed = [this, seen]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return changes_ != seen || HasWorkFor(true);
    };
    mutex_.AwaitWithDeadline(absl::Condition(&changed), AllTurnLong());
  }
}

void WorkerPool::Run(int worker) {
  const bool express_lane = worker == kExpressLane;
  if (!express_lane) LowerThisThreadsPriority();
  const auto has_work = [this, express_lane]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return HasWorkFor(express_lane);
  };
  absl::MutexLock lock(&mutex_);
  while (true) {
    if (express_lane) {
      AwaitExpressWork();
    } else {
      mutex_.Await(absl::Condition(&has_work));
    }
    if (stopping_) return;
    const bool small = !small_.empty();
    std::deque<Job>& queue = small ? small_ : large_;
    Job job = std::move(queue.front());
    queue.pop_front();
    int& running = express_lane ? express_running_ : small ? running_small_ : running_large_;
    ++running;
    ++changes_;
    if (small && !express_lane) small_started_[worker] = absl::Now();
    mutex_.Unlock();
    job.run();
    job.run = nullptr;  // what the job captured goes before the next one waits
    mutex_.Lock();
    --running;
    ++changes_;
    if (!express_lane) small_started_[worker] = absl::InfiniteFuture();
  }
}

SearchThreads CallThreads(WorkerPool& pool) {
  SearchThreads threads;
  threads.count = pool.MaxPerCall();
  threads.run = [&pool](std::function<void()> job) {
    return pool.Submit(WorkerPool::Size::kLarge, std::move(job)).has_value();
  };
  return threads;
}

}  // namespace nqueens::server

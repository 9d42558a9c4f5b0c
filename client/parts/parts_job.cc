#include "client/parts/parts_job.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "client/backends/cancellation.h"

namespace nqueens::client {
namespace {

struct ServerState {
  int failures_in_row = 0;
  absl::Time rest_until = absl::InfinitePast();
  bool dropped = false;
};

// One run of RunParts: the parts not yet handed out, what each server may
// take, and the job's end.
class Scheduler {
 public:
  Scheduler(const std::vector<JobServer>& servers, const RunOptions& base,
            const PartsJobOptions& options, const PartTask& task)
      : servers_(servers),
        base_(base),
        options_(options),
        task_(task),
        deadline_(absl::Now() + options.deadline),
        pending_(options.parts.begin(), options.parts.end()),
        attempts_(options.part_count, 0),
        states_(servers.size()),
        remaining_(options.parts.size()),
        phase_(options.progress, "parts", options.part_count, "parts") {
    phase_.Advance(options.part_count - options.parts.size());
  }

  absl::Status Run() {
    if (remaining_ == 0) return absl::OkStatus();
    if (servers_.empty() || options_.window == 0) {
      return absl::InvalidArgumentError("a job of parts needs a server and a window");
    }
    std::vector<std::thread> workers;
    for (size_t server = 0; server < servers_.size(); ++server) {
      for (size_t slot = 0; slot < options_.window; ++slot) {
        workers.emplace_back([this, server] { Work(server); });
      }
    }
    {
      absl::MutexLock lock(&mutex_);
      if (!mutex_.AwaitWithDeadline(absl::Condition(&over_), deadline_)) {
        EndLocked(absl::DeadlineExceededError("deadline exceeded"));
      }
    }
    cancellation_.Cancel();
    for (std::thread& worker : workers) worker.join();
    absl::MutexLock lock(&mutex_);
    return status_;
  }

 private:
  // One slot of `server`: a part at a time until the job or the server is
  // done.
  void Work(size_t server) {
    while (std::optional<uint64_t> part = TakePart(server)) {
      const absl::StatusOr<bool> result = task_(*servers_[server].backend, OptionsFor(*part));
      for (const PartEvent& event : Record(server, *part, result)) {
        if (options_.on_event) options_.on_event(event);
      }
    }
  }

  RunOptions OptionsFor(uint64_t part) {
    RunOptions options = base_;
    options.part = {part, options_.part_count};
    options.cancellation = &cancellation_;
    options.progress = nullptr;
    if (deadline_ != absl::InfiniteFuture()) {
      options.deadline = std::max(deadline_ - absl::Now(), absl::ZeroDuration());
    }
    return options;
  }

  // The next part for `server`, once it has rested from its last failure;
  // nullopt when the job is over or the server dropped.
  std::optional<uint64_t> TakePart(size_t server) {
    absl::MutexLock lock(&mutex_);
    ServerState& state = states_[server];
    const auto stopped = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return over_ || state.dropped;
    };
    const auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return stopped() || !pending_.empty();
    };
    while (!stopped()) {
      if (absl::Now() < state.rest_until) {
        mutex_.AwaitWithDeadline(absl::Condition(&stopped), state.rest_until);
      } else if (pending_.empty()) {
        mutex_.Await(absl::Condition(&ready));
      } else {
        const uint64_t part = pending_.front();
        pending_.pop_front();
        return part;
      }
    }
    return std::nullopt;
  }

  // Counts how `part` went on `server`; the events to tell (none once the
  // job is over: a part cancelled then is no news).
  std::vector<PartEvent> Record(size_t server, uint64_t part, const absl::StatusOr<bool>& result) {
    absl::MutexLock lock(&mutex_);
    if (over_) return {};
    PartEvent event;
    event.part = part;
    event.server = server;
    if (result.ok()) {
      states_[server].failures_in_row = 0;
      ++done_;
      --remaining_;
      phase_.Advance(1);
      event.parts_done = done_;
      if (*result || remaining_ == 0) EndLocked(absl::OkStatus());
      return {event};
    }
    event.kind = PartEvent::Kind::kFailed;
    event.error = result.status();
    event.parts_done = done_;
    std::vector<PartEvent> events;
    events.push_back(event);
    const absl::Status& error = result.status();
    // The board or the options are at fault: every server would say so.
    if (error.code() == absl::StatusCode::kInvalidArgument) {
      EndLocked(error);
      return events;
    }
    // A call's deadline is the job's.
    if (absl::Now() >= deadline_) {
      EndLocked(absl::DeadlineExceededError("deadline exceeded"));
      return events;
    }
    pending_.push_front(part);  // first in line: it is the oldest
    if (RestAfterFailure(server)) {
      event.kind = PartEvent::Kind::kDropped;
      events.push_back(event);
    }
    if (std::all_of(states_.begin(), states_.end(),
                    [](const ServerState& state) { return state.dropped; })) {
      EndLocked(absl::Status(
          error.code(), absl::StrCat("no server left: each failed ", options_.max_failures_in_row,
                                     " parts in a row; the last failure: ", error.message())));
    } else if (++attempts_[part] >= options_.max_part_attempts) {
      EndLocked(
          absl::Status(error.code(), absl::StrCat("part ", part, " failed ", attempts_[part],
                                                  " times; the last failure: ", error.message())));
    }
    return events;
  }

  // Makes `server` rest after a failure; true when it failed too often in a
  // row and is now dropped.
  bool RestAfterFailure(size_t server) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    ServerState& state = states_[server];
    ++state.failures_in_row;
    absl::Duration rest = options_.first_backoff;
    for (int i = 1; i < state.failures_in_row && rest < options_.max_backoff; ++i) rest *= 2;
    state.rest_until = absl::Now() + std::min(rest, options_.max_backoff);
    if (state.dropped || state.failures_in_row < options_.max_failures_in_row) return false;
    state.dropped = true;
    return true;
  }

  void EndLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (over_) return;
    over_ = true;
    status_ = std::move(status);
  }

  const std::vector<JobServer>& servers_;
  const RunOptions& base_;
  const PartsJobOptions& options_;
  const PartTask& task_;
  const absl::Time deadline_;
  Cancellation cancellation_;

  absl::Mutex mutex_;
  std::deque<uint64_t> pending_ ABSL_GUARDED_BY(mutex_);
  std::vector<int> attempts_ ABSL_GUARDED_BY(mutex_);  // failures, by part
  std::vector<ServerState> states_ ABSL_GUARDED_BY(mutex_);
  uint64_t remaining_ ABSL_GUARDED_BY(mutex_);  // parts not yet done
  uint64_t done_ ABSL_GUARDED_BY(mutex_) = 0;   // by this run
  bool over_ ABSL_GUARDED_BY(mutex_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mutex_);
  ProgressPhase phase_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

absl::Status RunParts(const std::vector<JobServer>& servers, const RunOptions& base,
                      const PartsJobOptions& options, const PartTask& task) {
  return Scheduler(servers, base, options, task).Run();
}

}  // namespace nqueens::client

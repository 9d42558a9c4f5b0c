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
  const JobServer* server = nullptr;
  int failures_in_row = 0;
  absl::Time rest_until = absl::InfinitePast();
  bool dropped = false;
  bool named = true;      // by the last look-up
  bool on_trial = false;  // dropped, then named again, and no success since
  bool TakesParts() const { return named && !dropped; }
};

// One run of RunParts: the servers and what each may take, the parts not
// yet handed out, and the job's end.
class Scheduler {
 public:
  Scheduler(const std::vector<JobServer>& servers, const RunOptions& base,
            const PartsJobOptions& options, const PartTask& task)
      : given_(servers),
        base_(base),
        options_(options),
        task_(task),
        deadline_(absl::Now() + options.deadline),
        pending_(options.parts.begin(), options.parts.end()),
        attempts_(options.part_count, 0),
        remaining_(options.parts.size()),
        phase_(options.progress, "parts", options.part_count, "parts") {
    phase_.Advance(options.part_count - options.parts.size());
  }

  absl::Status Run() {
    if (remaining_ == 0) return absl::OkStatus();
    if (given_.empty() || options_.window == 0) {
      return absl::InvalidArgumentError("a job of parts needs a server and a window");
    }
    {
      absl::MutexLock lock(&mutex_);
      for (const JobServer& server : given_) AddServerLocked(server);
    }
    std::thread looker;
    if (options_.look_up.servers && options_.look_up.every != absl::InfiniteDuration()) {
      looker = std::thread([this] { LookUpUntilOver(); });
    }
    {
      absl::MutexLock lock(&mutex_);
      if (!mutex_.AwaitWithDeadline(absl::Condition(&over_), deadline_)) {
        EndLocked(absl::DeadlineExceededError("deadline exceeded"));
      }
    }
    cancellation_.Cancel();
    if (looker.joinable()) looker.join();
    JoinWorkers();
    absl::MutexLock lock(&mutex_);
    return status_;
  }

 private:
  // `server` joins the job with a window of slots, each a thread.
  void AddServerLocked(const JobServer& server) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    const size_t index = states_.size();
    states_.push_back(ServerState{&server});
    for (size_t slot = 0; slot < options_.window; ++slot) {
      workers_.emplace_back([this, index, &backend = *server.backend] { Work(index, backend); });
    }
  }

  // Waits for every slot's thread, once no server can join any more.
  void JoinWorkers() {
    std::vector<std::thread> workers;
    {
      absl::MutexLock lock(&mutex_);
      workers.swap(workers_);
    }
    for (std::thread& worker : workers) worker.join();
  }

  // One slot of `server`: a part at a time until the job is over.
  void Work(size_t server, Backend& backend) {
    while (std::optional<uint64_t> part = TakePart(server)) {
      const absl::StatusOr<bool> result = task_(backend, OptionsFor(*part));
      Tell(Record(server, *part, result));
    }
  }

  void Tell(const std::vector<PartEvent>& events) const {
    if (!options_.on_event) return;
    for (const PartEvent& event : events) options_.on_event(event);
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

  // The next part for `server`, once it takes parts and has rested from its
  // last failure; nullopt when the job is over.
  std::optional<uint64_t> TakePart(size_t server) {
    absl::MutexLock lock(&mutex_);
    const auto takes_parts = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return states_[server].TakesParts();
    };
    const auto over_or_takes = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return over_ || takes_parts();
    };
    const auto over_or_not = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return over_ || !takes_parts();
    };
    const auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return over_or_not() || !pending_.empty();
    };
    while (!over_) {
      if (!takes_parts()) {
        mutex_.Await(absl::Condition(&over_or_takes));
      } else if (absl::Now() < states_[server].rest_until) {
        mutex_.AwaitWithDeadline(absl::Condition(&over_or_not), states_[server].rest_until);
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

  PartEvent EventLocked(PartEvent::Kind kind, size_t server) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    PartEvent event;
    event.kind = kind;
    event.server = server;
    event.server_name = states_[server].server->name;
    event.parts_done = done_;
    return event;
  }

  // Counts how `part` went on `server`; the events to tell (none once the
  // job is over: a part cancelled then is no news).
  std::vector<PartEvent> Record(size_t server, uint64_t part, const absl::StatusOr<bool>& result) {
    absl::MutexLock lock(&mutex_);
    if (over_) return {};
    ServerState& state = states_[server];
    if (result.ok()) {
      state.failures_in_row = 0;
      state.on_trial = false;
      ++done_;
      --remaining_;
      phase_.Advance(1);
      PartEvent event = EventLocked(PartEvent::Kind::kDone, server);
      event.part = part;
      if (*result || remaining_ == 0) EndLocked(absl::OkStatus());
      return {event};
    }
    PartEvent event = EventLocked(PartEvent::Kind::kFailed, server);
    event.part = part;
    event.error = result.status();
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
    // A server on trial was dropped before: dropping it again is no news.
    const bool on_trial = state.on_trial;
    if (RestAfterFailure(server) && !on_trial) {
      event.kind = PartEvent::Kind::kDropped;
      events.push_back(event);
    }
    if (std::all_of(states_.begin(), states_.end(),
                    [](const ServerState& other) { return other.dropped; })) {
      EndLocked(absl::Status(
          error.code(), absl::StrCat("no server left: each failed ", options_.max_failures_in_row,
                                     " parts in a row; the last failure: ", error.message())));
    } else if (!on_trial && ++attempts_[part] >= options_.max_part_attempts) {
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

  // Every look_up.every until the job is over, the servers that the look-up
  // names take parts and the others do not (PartsJobOptions::look_up).
  void LookUpUntilOver() {
    while (true) {
      {
        absl::MutexLock lock(&mutex_);
        if (mutex_.AwaitWithTimeout(absl::Condition(&over_), options_.look_up.every)) return;
      }
      absl::StatusOr<std::vector<JobServer>> named = options_.look_up.servers();
      if (named.ok()) Tell(Follow(*std::move(named)));  // else the servers stay as they are
    }
  }

  // Makes the servers of `named` take parts and the others not; the events
  // that tell so.
  std::vector<PartEvent> Follow(std::vector<JobServer> named) {
    absl::MutexLock lock(&mutex_);
    if (over_) return {};
    std::vector<bool> still_named(states_.size(), false);
    std::vector<PartEvent> events;
    for (JobServer& server : named) {
      const size_t index = IndexLocked(server.name);
      if (index == states_.size()) {
        joined_.push_back(std::move(server));
        AddServerLocked(joined_.back());
        still_named.push_back(true);
        events.push_back(EventLocked(PartEvent::Kind::kJoined, index));
      } else if (!still_named[index]) {
        still_named[index] = true;
        if (ReturnLocked(index)) events.push_back(EventLocked(PartEvent::Kind::kReturned, index));
      }
    }
    for (size_t index = 0; index < states_.size(); ++index) {
      if (still_named[index] || !states_[index].named) continue;
      states_[index].named = false;
      events.push_back(EventLocked(PartEvent::Kind::kLeft, index));
    }
    return events;
  }

  // The index of the server called `name`; states_.size() for none.
  size_t IndexLocked(const std::string& name) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    size_t index = 0;
    while (index < states_.size() && states_[index].server->name != name) ++index;
    return index;
  }

  // Makes server `index`, named again, take parts: one that had left as it
  // was, one that was dropped on trial (one failure drops it again); whether
  // it did not take parts before.
  bool ReturnLocked(size_t index) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    ServerState& state = states_[index];
    if (state.TakesParts()) return false;
    state.named = true;
    if (state.dropped) {
      state.dropped = false;
      state.on_trial = true;
      state.failures_in_row = options_.max_failures_in_row - 1;
      state.rest_until = absl::InfinitePast();
    }
    return true;
  }

  void EndLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (over_) return;
    over_ = true;
    status_ = std::move(status);
  }

  const std::vector<JobServer>& given_;
  const RunOptions& base_;
  const PartsJobOptions& options_;
  const PartTask& task_;
  const absl::Time deadline_;
  Cancellation cancellation_;

  absl::Mutex mutex_;
  // The job's servers: given_'s, then those that joined (in joined_, whose
  // elements stay where they are), in that order.
  std::vector<ServerState> states_ ABSL_GUARDED_BY(mutex_);
  std::deque<JobServer> joined_ ABSL_GUARDED_BY(mutex_);
  std::vector<std::thread> workers_ ABSL_GUARDED_BY(mutex_);  // window threads per server
  std::deque<uint64_t> pending_ ABSL_GUARDED_BY(mutex_);
  std::vector<int> attempts_ ABSL_GUARDED_BY(mutex_);  // failures, by part
  uint64_t remaining_ ABSL_GUARDED_BY(mutex_);         // parts not yet done
  uint64_t done_ ABSL_GUARDED_BY(mutex_) = 0;          // by this run
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

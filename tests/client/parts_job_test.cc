// The scheduler of a job cut into parts (client/parts/parts_job.h), with tasks
// that script what each server answers; parts_job_servers_test.cc runs a job
// over real servers. No server binary here: the TSan stage runs these.
#include "client/parts/parts_job.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "client/backends/cancellation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

using ::testing::HasSubstr;

// A server that the tasks tell apart by its backend or its name; never
// called.
class NoBackend : public Backend {
 public:
  explicit NoBackend(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  absl::StatusOr<CompletionResult> Solve(uint32_t, SolveMethod, const RunOptions&) override {
    return absl::UnimplementedError("");
  }
  absl::StatusOr<CompletionResult> Complete(Board, const RunOptions&) override {
    return absl::UnimplementedError("");
  }
  absl::StatusOr<ValidationReport> Validate(Board, const RunOptions&) override {
    return absl::UnimplementedError("");
  }
  absl::StatusOr<CountResult> Count(Board, const RunOptions&) override {
    return absl::UnimplementedError("");
  }
  absl::StatusOr<uint64_t> Enumerate(Board, uint64_t, const RunOptions&,
                                     const std::function<bool(const Columns&)>&) override {
    return absl::UnimplementedError("");
  }
  absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>&,
                             const std::function<void(BatchAnswer)>&, const RunOptions&) override {
    return absl::UnimplementedError("");
  }

 private:
  std::string name_;
};

std::vector<JobServer> ServersNamed(const std::vector<std::string>& names) {
  std::vector<JobServer> servers;
  servers.reserve(names.size());
  for (const std::string& name : names) {
    servers.push_back({name, std::make_unique<NoBackend>(name)});
  }
  return servers;
}

// server0, server1, ...
std::vector<JobServer> Servers(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(absl::StrCat("server", i));
  return ServersNamed(names);
}

const std::string& NameOf(const Backend& backend) {
  return static_cast<const NoBackend&>(backend).name();
}

size_t ServerOf(const std::vector<JobServer>& servers, const Backend& backend) {
  for (size_t i = 0; i < servers.size(); ++i) {
    if (servers[i].backend.get() == &backend) return i;
  }
  ADD_FAILURE() << "a backend of no server";
  return 0;
}

// Every part, with rests short enough for a test.
PartsJobOptions Options(uint64_t part_count, size_t window = 2) {
  PartsJobOptions options;
  options.part_count = part_count;
  for (uint64_t part = 0; part < part_count; ++part) options.parts.push_back(part);
  options.window = window;
  options.first_backoff = absl::Milliseconds(1);
  options.max_backoff = absl::Milliseconds(4);
  return options;
}

// How often each part ran, and how many ended well.
class Tally {
 public:
  void Ran(uint64_t part, bool well) {
    absl::MutexLock lock(&mutex_);
    ++runs_[part];
    if (well) ++successes_[part];
  }
  int runs(uint64_t part) {
    absl::MutexLock lock(&mutex_);
    return runs_[part];
  }
  // Whether each of parts 0 .. count - 1 ended well exactly once.
  bool EachSucceededOnce(uint64_t count) {
    absl::MutexLock lock(&mutex_);
    for (uint64_t part = 0; part < count; ++part) {
      if (successes_[part] != 1) return false;
    }
    return successes_.size() == count;
  }

 private:
  absl::Mutex mutex_;
  std::map<uint64_t, int> runs_ ABSL_GUARDED_BY(mutex_);
  std::map<uint64_t, int> successes_ ABSL_GUARDED_BY(mutex_);
};

// Waits until the job cancels the call that `run` belongs to.
bool WaitForCancellation(const RunOptions& run, absl::Duration timeout) {
  absl::Notification cancelled;
  const Cancellation::Registration registration =
      run.cancellation->Register([&cancelled] { cancelled.Notify(); });
  return cancelled.WaitForNotificationWithTimeout(timeout);
}

TEST(RunPartsTest, RunsEveryPartOnceWithTheWindowFullOnEveryServer) {
  const std::vector<JobServer> servers = Servers(2);
  Tally tally;
  absl::Mutex mutex;
  std::vector<int> in_flight(2, 0);
  std::vector<int> most(2, 0);
  int total = 0;
  bool filled = false;  // every slot was busy at once
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    const size_t server = ServerOf(servers, backend);
    absl::MutexLock lock(&mutex);
    ++total;
    most[server] = std::max(most[server], ++in_flight[server]);
    if (total == 6) filled = true;
    // The first parts wait until all six slots are taken (or give up).
    mutex.AwaitWithTimeout(absl::Condition(&filled), absl::Seconds(30));
    --in_flight[server];
    --total;
    tally.Ran(run.part.index, true);
    return false;
  };
  const absl::Status status = RunParts(servers, RunOptions(), Options(40, 3), task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(40));
  EXPECT_TRUE(filled);
  EXPECT_EQ(most, std::vector<int>({3, 3}));
}

TEST(RunPartsTest, SendsAFailedPartToAnotherServerAndDropsAServerThatKeepsFailing) {
  const std::vector<JobServer> servers = Servers(2);
  Tally tally;
  std::atomic<int> failures_on_0{0};
  absl::Notification dropped_0;
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    const bool broken = ServerOf(servers, backend) == 0;
    if (broken) {
      tally.Ran(run.part.index, false);
      ++failures_on_0;
      return absl::UnavailableError("connection refused");
    }
    // The good server's first parts end only once the broken one is gone.
    EXPECT_TRUE(dropped_0.WaitForNotificationWithTimeout(absl::Seconds(30)));
    tally.Ran(run.part.index, true);
    return false;
  };
  std::vector<PartEvent> events;
  absl::Mutex mutex;
  PartsJobOptions options = Options(16);
  options.on_event = [&](const PartEvent& event) {
    absl::MutexLock lock(&mutex);
    events.push_back(event);
    if (event.kind == PartEvent::Kind::kDropped) dropped_0.Notify();
  };
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(16));
  int dropped = 0;
  for (const PartEvent& event : events) {
    if (event.kind != PartEvent::Kind::kDropped) continue;
    ++dropped;
    EXPECT_EQ(event.server, 0u);
    EXPECT_THAT(event.error.message(), HasSubstr("connection refused"));
  }
  EXPECT_EQ(dropped, 1);
  // Dropped after 4 in a row; a part it had in flight then may fail too.
  EXPECT_GE(failures_on_0, 4);
  EXPECT_LE(failures_on_0, 5);
}

TEST(RunPartsTest, ThePartsOwnFaultFailsTheJobAtOnce) {
  const std::vector<JobServer> servers = Servers(2);
  Tally tally;
  const PartTask task = [&](Backend&, const RunOptions& run) -> absl::StatusOr<bool> {
    tally.Ran(run.part.index, run.part.index != 3);
    if (run.part.index == 3) return absl::InvalidArgumentError("queens attack");
    return false;
  };
  const absl::Status status = RunParts(servers, RunOptions(), Options(12), task);
  EXPECT_EQ(status, absl::InvalidArgumentError("queens attack"));
  EXPECT_EQ(tally.runs(3), 1);  // every server would say the same
}

TEST(RunPartsTest, FailsWhenNoServerIsLeftWithTheLastFailure) {
  const std::vector<JobServer> servers = Servers(2);
  const PartTask task = [&](Backend&, const RunOptions&) -> absl::StatusOr<bool> {
    return absl::UnavailableError("gone away");
  };
  const absl::Status status = RunParts(servers, RunOptions(), Options(12), task);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(status.message(), HasSubstr("no server left"));
  EXPECT_THAT(status.message(), HasSubstr("gone away"));
}

TEST(RunPartsTest, APartThatFailsOnEveryServerFailsTheJobAfterItsAttempts) {
  const std::vector<JobServer> servers = Servers(3);
  Tally tally;
  const PartTask task = [&](Backend&, const RunOptions& run) -> absl::StatusOr<bool> {
    tally.Ran(run.part.index, run.part.index != 5);
    if (run.part.index == 5) return absl::ResourceExhaustedError("too big for this server");
    return false;
  };
  const absl::Status status = RunParts(servers, RunOptions(), Options(12), task);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("part 5 failed 8 times"));
  EXPECT_THAT(status.message(), HasSubstr("too big for this server"));
  EXPECT_EQ(tally.runs(5), 8);
}

TEST(RunPartsTest, APartThatDecidesTheJobCancelsThePartsInFlight) {
  const std::vector<JobServer> servers = Servers(2);
  absl::Mutex mutex;
  int started = 0;
  std::atomic<int> cancelled{0};
  const PartTask task = [&](Backend&, const RunOptions& run) -> absl::StatusOr<bool> {
    {
      absl::MutexLock lock(&mutex);
      ++started;
    }
    if (run.part.index == 0) {
      // Decides once the three other slots run parts of their own.
      absl::MutexLock lock(&mutex);
      const auto all_started = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex) { return started == 4; };
      EXPECT_TRUE(mutex.AwaitWithTimeout(absl::Condition(&all_started), absl::Seconds(30)));
      return true;
    }
    if (WaitForCancellation(run, absl::Seconds(30))) ++cancelled;
    return absl::CancelledError("cancelled");
  };
  const absl::Status status = RunParts(servers, RunOptions(), Options(20), task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(cancelled, 3);
  absl::MutexLock lock(&mutex);
  EXPECT_EQ(started, 4);  // no part started after the answer
}

TEST(RunPartsTest, TheDeadlineEndsTheJobAndReachesEachCall) {
  const std::vector<JobServer> servers = Servers(1);
  std::atomic<bool> cancelled{false};
  std::atomic<bool> call_deadline_set{false};
  const PartTask task = [&](Backend&, const RunOptions& run) -> absl::StatusOr<bool> {
    call_deadline_set = run.deadline <= absl::Milliseconds(200);
    cancelled = WaitForCancellation(run, absl::Seconds(30));
    return absl::DeadlineExceededError("too late");
  };
  PartsJobOptions options = Options(4, 1);
  options.deadline = absl::Milliseconds(200);
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  EXPECT_EQ(status, absl::DeadlineExceededError("deadline exceeded"));
  EXPECT_TRUE(cancelled);
  EXPECT_TRUE(call_deadline_set);
}

TEST(RunPartsTest, OneProgressPhaseCountsThePartsDoneBeforeAndNow) {
  std::vector<std::string> drawn;
  absl::Time now = absl::UnixEpoch();
  ProgressBar bar([&](absl::string_view text) { drawn.emplace_back(text); },
                  [&] { return now += absl::Seconds(1); });
  const std::vector<JobServer> servers = Servers(1);
  PartsJobOptions options = Options(8, 1);
  options.parts = {1, 4, 6};  // the other five were done before
  options.progress = &bar;
  std::vector<uint64_t> ran;
  const PartTask task = [&](Backend&, const RunOptions& run) -> absl::StatusOr<bool> {
    ran.push_back(run.part.index);
    EXPECT_EQ(run.progress, nullptr);  // the calls draw nothing of their own
    bar.Tick();
    return false;
  };
  ASSERT_TRUE(RunParts(servers, RunOptions(), options, task).ok());
  EXPECT_EQ(ran, std::vector<uint64_t>({1, 4, 6}));
  ASSERT_FALSE(drawn.empty());
  EXPECT_THAT(drawn.front(), HasSubstr("parts ["));
  EXPECT_THAT(drawn.front(), HasSubstr("5/8 parts"));
  EXPECT_THAT(drawn[drawn.size() - 2], HasSubstr("8/8 parts"));  // then the line's end
}

// A look-up whose answers the test scripts: each call takes the next
// answer, and the last one stays.
class ScriptedLookUp {
 public:
  // The names of the servers, or an error.
  using Answer = absl::StatusOr<std::vector<std::string>>;

  explicit ScriptedLookUp(std::vector<Answer> answers) : answers_(std::move(answers)) {}

  void AnswerFromNowOn(Answer answer) {
    absl::MutexLock lock(&mutex_);
    answers_ = {std::move(answer)};
    next_ = 0;
  }
  int calls() {
    absl::MutexLock lock(&mutex_);
    return calls_;
  }
  // Asked every millisecond.
  ServerLookUp LookUp() {
    return {[this] { return Next(); }, absl::Milliseconds(1)};
  }

 private:
  absl::StatusOr<std::vector<JobServer>> Next() {
    absl::MutexLock lock(&mutex_);
    ++calls_;
    const Answer& answer = answers_[std::min(next_++, answers_.size() - 1)];
    if (!answer.ok()) return answer.status();
    return ServersNamed(*answer);
  }

  absl::Mutex mutex_;
  std::vector<Answer> answers_ ABSL_GUARDED_BY(mutex_);
  size_t next_ ABSL_GUARDED_BY(mutex_) = 0;
  int calls_ ABSL_GUARDED_BY(mutex_) = 0;
};

// Set any number of times, awaited with a timeout.
class Latch {
 public:
  void Set() {
    absl::MutexLock lock(&mutex_);
    set_ = true;
  }
  bool Await(absl::Duration timeout) {
    absl::MutexLock lock(&mutex_);
    return mutex_.AwaitWithTimeout(absl::Condition(&set_), timeout);
  }

 private:
  absl::Mutex mutex_;
  bool set_ ABSL_GUARDED_BY(mutex_) = false;
};

// The job's events, in the order they were told.
class EventLog {
 public:
  void Add(const PartEvent& event) {
    absl::MutexLock lock(&mutex_);
    events_.push_back(event);
  }
  // How many events of `kind` name the server called `name`.
  int Count(PartEvent::Kind kind, const std::string& name) {
    absl::MutexLock lock(&mutex_);
    return static_cast<int>(std::count_if(events_.begin(), events_.end(), [&](const PartEvent& e) {
      return e.kind == kind && e.server_name == name;
    }));
  }

 private:
  absl::Mutex mutex_;
  std::vector<PartEvent> events_ ABSL_GUARDED_BY(mutex_);
};

// Options(part_count, window) that look the servers up with `look_up` and
// log every event in `events`.
PartsJobOptions LookingUp(uint64_t part_count, size_t window, ScriptedLookUp& look_up,
                          EventLog& events) {
  PartsJobOptions options = Options(part_count, window);
  options.look_up = look_up.LookUp();
  options.on_event = [&events](const PartEvent& event) { events.Add(event); };
  return options;
}

// A look-up that fails keeps the servers as they are; one that names a new
// server makes it join the job and take parts.
TEST(RunPartsTest, AServerThatALookUpNamesLaterJoinsTheJobAndTakesParts) {
  const std::vector<JobServer> servers = Servers(1);
  ScriptedLookUp look_up(
      {absl::UnavailableError("no answer"), std::vector<std::string>{"server0", "late"}});
  Tally tally;
  Latch late_did_one;
  std::atomic<int> done_by_late{0};
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    if (NameOf(backend) == "late") {
      ++done_by_late;
      late_did_one.Set();
    } else {
      // server0 holds its parts until the late server did one.
      EXPECT_TRUE(late_did_one.Await(absl::Seconds(30)));
    }
    tally.Ran(run.part.index, true);
    return false;
  };
  EventLog events;
  PartsJobOptions options = LookingUp(16, 2, look_up, events);
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(16));
  EXPECT_GE(done_by_late, 1);
  EXPECT_GE(look_up.calls(), 2);
  EXPECT_EQ(events.Count(PartEvent::Kind::kJoined, "late"), 1);
  EXPECT_EQ(events.Count(PartEvent::Kind::kJoined, "server0"), 0);
  EXPECT_EQ(events.Count(PartEvent::Kind::kDone, "late"), done_by_late);
}

// One slot each: server1 fails 4 parts in a row and is dropped; the look-up
// still names it, so it takes parts again, which now succeed.
TEST(RunPartsTest, ADroppedServerThatALookUpStillNamesIsTriedAgain) {
  const std::vector<JobServer> servers = Servers(2);
  ScriptedLookUp look_up({std::vector<std::string>{"server0", "server1"}});
  Tally tally;
  std::atomic<int> calls_on_1{0};
  Latch back;
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    if (NameOf(backend) == "server1") {
      if (++calls_on_1 <= 4) {
        tally.Ran(run.part.index, false);
        return absl::UnavailableError("connection refused");
      }
      back.Set();
    } else {
      EXPECT_TRUE(back.Await(absl::Seconds(30)));
    }
    tally.Ran(run.part.index, true);
    return false;
  };
  EventLog events;
  PartsJobOptions options = LookingUp(16, 1, look_up, events);
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(16));
  EXPECT_GT(calls_on_1, 4);
  EXPECT_EQ(events.Count(PartEvent::Kind::kDropped, "server1"), 1);
  EXPECT_GE(events.Count(PartEvent::Kind::kReturned, "server1"), 1);
  EXPECT_GE(events.Count(PartEvent::Kind::kDone, "server1"), 1);
}

// A server that is named again after it was dropped is on trial: its next
// failure drops it again, without a word, and counts against no part. Here
// server1 always fails and takes the same part each time it is back: were
// those failures counted, that part would fail the job at its third.
TEST(RunPartsTest, AServerOnTrialCostsNoPartAnAttempt) {
  const std::vector<JobServer> servers = Servers(2);
  ScriptedLookUp look_up({std::vector<std::string>{"server0", "server1"}});
  Tally tally;
  std::atomic<int> calls_on_1{0};
  Latch failed_enough;
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    if (NameOf(backend) == "server1") {
      if (++calls_on_1 >= 12) failed_enough.Set();
      tally.Ran(run.part.index, false);
      return absl::UnavailableError("connection refused");
    }
    // server0's parts wait until server1 failed 12 times.
    EXPECT_TRUE(failed_enough.Await(absl::Seconds(30)));
    tally.Ran(run.part.index, true);
    return false;
  };
  EventLog events;
  PartsJobOptions options = LookingUp(8, 1, look_up, events);
  options.max_failures_in_row = 2;
  options.max_part_attempts = 3;
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(8));
  EXPECT_GE(calls_on_1, 12);
  EXPECT_EQ(events.Count(PartEvent::Kind::kDropped, "server1"), 1);
}

// A server that the look-up no longer names gets no new part, and the part
// it has in flight then still counts.
TEST(RunPartsTest, AServerNoLongerNamedFinishesItsPartAndTakesNoOther) {
  const std::vector<JobServer> servers = Servers(2);
  ScriptedLookUp look_up({std::vector<std::string>{"server0", "server1"}});
  Tally tally;
  std::atomic<int> calls_on_0{0};
  Latch started_on_0;
  Latch left;
  const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
    if (NameOf(backend) == "server0") {
      ++calls_on_0;
      started_on_0.Set();
      look_up.AnswerFromNowOn(std::vector<std::string>{"server1"});
      EXPECT_TRUE(left.Await(absl::Seconds(30)));
    } else {
      // server1 holds its first part until server0 has one too.
      EXPECT_TRUE(started_on_0.Await(absl::Seconds(30)));
    }
    tally.Ran(run.part.index, true);
    return false;
  };
  EventLog events;
  PartsJobOptions options = Options(12, 1);
  options.look_up = look_up.LookUp();
  options.on_event = [&](const PartEvent& event) {
    events.Add(event);
    if (event.kind == PartEvent::Kind::kLeft && event.server_name == "server0") left.Set();
  };
  const absl::Status status = RunParts(servers, RunOptions(), options, task);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(tally.EachSucceededOnce(12));
  EXPECT_EQ(calls_on_0, 1);
  EXPECT_EQ(events.Count(PartEvent::Kind::kLeft, "server0"), 1);
  EXPECT_EQ(events.Count(PartEvent::Kind::kDone, "server0"), 1);
  EXPECT_EQ(events.Count(PartEvent::Kind::kLeft, "server1"), 0);
}

}  // namespace
}  // namespace nqueens::client

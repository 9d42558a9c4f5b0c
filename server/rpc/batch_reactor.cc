// CompleteBatch: many small compositions over one bidirectional stream.
#include <grpcpp/alarm.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "server/rpc/call_reactor.h"
#include "server/rpc/message_codec.h"
#include "server/rpc/reactors.h"

namespace nqueens::server {
namespace {

// CompleteBatch: reads a message of items while fewer than `window_` items
// are in work or waiting to be written and none of the last message's items
// waits to start, runs each item on the worker pool as a job of its own
// (items record nothing in the call, so they may run at once; at most
// MaxPerCall() of them, so that a batch never takes every worker), and writes
// the answers in the order of the items. Answers that are ready wait for
// company: they go out when half a window of them is ready, when no other
// item is in work, or kAnswerDelay after the first of them was ready; each
// message saved is work saved on both sides. Memory: a message read holds
// its bytes and parsed size in the budget until its items are in work, and
// each item in work holds its own; an idle batch holds nothing. The call
// ends once the client is done and every answer is out (with
// INVALID_ARGUMENT after a message that could not be parsed), at
// --max-call-seconds once the items in work are answered, or, after a cancel
// or a broken stream, once no job is left and the timer has fired: both use
// the reactor, which OnDone deletes.
class BatchCall final
    : public CallReactor<grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>> {
 public:
  BatchCall(ServiceState& service, grpc::CallbackServerContext* context)
      : CallReactor(service, context, "CompleteBatch"),
        window_(uint64_t{8} * static_cast<uint64_t>(std::max(1, service.pool.workers()))) {}

  // After construction, as the other stream reactors.
  void Begin() {
    if (EndUnlessOk(call_.Enter())) return;
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { return MoveLocked(true); });
  }

  void OnReadDone(bool ok) override {
    // No read is under way until ReadLocked() below: `in_` is ours.
    ++messages_read_;
    v1::CompleteBatchRequest request;
    absl::StatusOr<MemoryBudget::Reservation> message = absl::OutOfRangeError("no message");
    if (ok) message = ParseRequest(&request);
    in_.Clear();
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      reading_ = false;
      if (!ok || call_.finished() || !message.ok()) {
        reads_done_ = true;
        if (ok && !message.ok()) {
          refused_ = absl::Status(
              message.status().code(),
              absl::StrCat(message.status().message(), "; the items before it were answered"));
        }
      } else {
        for (v1::CompleteRequest& item : *request.mutable_items()) {
          waiting_.push_back(std::move(item));
        }
        if (!waiting_.empty()) message_memory_ = *std::move(message);
      }
      // Empty messages do not keep the stream alive.
      return MoveLocked(!ok || request.items_size() > 0);
    });
  }

  void OnWriteDone(bool ok) override {
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      writing_ = false;
      broken_ |= !ok;
      Written(ok);
      return MoveLocked(ok);
    });
  }

 private:
  // The message just read, its memory (its bytes and what parsing them
  // makes) reserved first; held until its items are in work.
  absl::StatusOr<MemoryBudget::Reservation> ParseRequest(v1::CompleteBatchRequest* request) {
    const std::string what = absl::StrCat("message ", messages_read_, " of the batch");
    absl::StatusOr<uint64_t> parsing = ParsingBytes<v1::CompleteBatchRequest>(in_, what);
    if (!parsing.ok()) return parsing.status();
    absl::StatusOr<MemoryBudget::Reservation> memory = call_.ReserveApart(*parsing);
    if (!memory.ok()) return memory.status();
    if (absl::Status status = ParseMessage(in_, what, request); !status.ok()) return status;
    return memory;
  }

  // Answers out, items into work, the next message in, as far as each can
  // go; then whether the call is over. `progressed`: the client moved the
  // stream (a message with items, a write taken).
  std::optional<absl::Status> MoveLocked(bool progressed) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    WriteLocked();
    StartItemsLocked();
    ReadLocked();
    // The idle timeout no longer ends the call under a job.
    WatchLocked(progressed);
    return EndIfDoneLocked();
  }

  uint64_t HeldLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return in_flight_ + answers_.size();
  }

  // Whether items may still start and messages be read.
  bool GoingLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return !broken_ && !call_.cancelled() && !OutOfTime();
  }
  bool OutOfTime() const { return absl::Now() >= call_.CallTimeLimit(); }

  // Each item holds its own memory while it is in work.
  void StartItemsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    while (!waiting_.empty() && HeldLocked() < window_ &&
           in_flight_ < static_cast<uint64_t>(call_.service().pool.MaxPerCall()) && GoingLocked()) {
      const uint64_t index = next_index_++;
      v1::CompleteRequest request = std::move(waiting_.front());
      waiting_.pop_front();
      absl::StatusOr<MemoryBudget::Reservation> memory =
          call_.ReserveApart(BatchItemBytes(request));
      if (!memory.ok()) {
        RefuseItemLocked(index, memory.status());
        continue;
      }
      auto held = std::make_shared<MemoryBudget::Reservation>(*std::move(memory));
      ++in_flight_;
      const bool queued = call_.service()
                              .pool
                              .Submit(WorkerPool::Size::kSmall,
                                      [this, index, request = std::move(request), held]() mutable {
                                        v1::CompleteBatchAnswer answer =
                                            RunBatchItem(call_, index, request);
                                        held.reset();
                                        Answered(index, std::move(answer));
                                      })
                              .has_value();
      if (!queued) {
        --in_flight_;
        RefuseItemLocked(index, absl::ResourceExhaustedError("all workers are busy and the queue "
                                                             "is full (--max-queued); try again "
                                                             "later"));
      }
    }
    if (waiting_.empty()) message_memory_.reset();
  }

  void RefuseItemLocked(uint64_t index, const absl::Status& status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    v1::CompleteBatchAnswer& refused = answers_[index];
    refused.set_index(index);
    SetBatchItemError(status, refused);
  }

  // On a worker: item `index` is done.
  void Answered(uint64_t index, v1::CompleteBatchAnswer answer) {
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      --in_flight_;
      answers_[index] = std::move(answer);
      return MoveLocked(false);
    });
  }

  void ReadLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (reading_ || reads_done_ || !GoingLocked() || !waiting_.empty() || HeldLocked() >= window_) {
      return;
    }
    reading_ = true;
    StartRead(&in_);
  }

  // The answers ready in order, up to kAnswerBytes (at least one), in one
  // message, if it is time (see the class comment).
  void WriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (writing_ || broken_ || ReadyLocked() == 0) return;
    const bool more_coming = in_flight_ > 0 || (!waiting_.empty() && GoingLocked());
    if (more_coming && ReadyLocked() < window_ / 2 && !answer_delay_over_) {
      if (!timer_set_) {
        timer_set_ = true;
        timer_.Set(absl::ToChronoTime(absl::Now() + kAnswerDelay), [this](bool) { OnTimer(); });
      }
      return;
    }
    answer_delay_over_ = false;
    v1::CompleteBatchResponse response;
    size_t bytes = 0;
    for (auto next = answers_.find(next_write_); next != answers_.end();
         next = answers_.find(next_write_)) {
      bytes += next->second.ByteSizeLong();
      if (response.answers_size() > 0 && bytes > kAnswerBytes) break;
      *response.add_answers() = std::move(next->second);
      answers_.erase(next);
      ++next_write_;
    }
    writing_ = true;
    Send(SerializeMessage(response));
  }

  // How many answers are ready in order, counting up to window_ / 2.
  uint64_t ReadyLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    uint64_t ready = 0;
    for (auto next = answers_.find(next_write_);
         next != answers_.end() && next->first == next_write_ + ready && ready < window_ / 2;
         ++next) {
      ++ready;
    }
    return ready;
  }

  void OnTimer() {
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      timer_set_ = false;
      answer_delay_over_ = true;
      return MoveLocked(false);
    });
  }

  // The idle timeout watches the stream while only the client can move it:
  // a write it does not read (cut by cancelling, which waits for the jobs),
  // or a read while no job runs (ended at once: nothing else uses the call).
  void WatchLocked(bool progressed) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    Watch(writing_                      ? Watching::kWrite
          : reading_ && in_flight_ == 0 ? Watching::kRead
                                        : Watching::kNone,
          progressed);
  }

  // Over once every answer is out; after a cancel or a broken stream, once
  // no job is left; after --max-call-seconds, once the answers of the items
  // in work are out too (items not started then are not answered).
  std::optional<absl::Status> EndIfDoneLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (ended_ || in_flight_ > 0 || reading_ || writing_ || timer_set_) return std::nullopt;
    const bool failed = broken_ || call_.cancelled();
    const bool out_of_time = OutOfTime();
    if (!failed && !(answers_.empty() && ((reads_done_ && waiting_.empty()) || out_of_time))) {
      return std::nullopt;
    }
    ended_ = true;
    Watch(Watching::kNone);
    if (failed) return BrokenStreamStatus();
    if (out_of_time) return call_.Explain(absl::DeadlineExceededError("the call's time is up"));
    return refused_;
  }

  // Far below the 4 MiB that gRPC clients take by default, and above the
  // largest answer (65,536 rows).
  static constexpr size_t kAnswerBytes = size_t{1} << 20;
  // Long against the gRPC work a message costs, short for a person waiting.
  static constexpr absl::Duration kAnswerDelay = absl::Milliseconds(5);

  const uint64_t window_;
  grpc::ByteBuffer in_;         // between StartRead and OnReadDone
  uint64_t messages_read_ = 0;  // only in OnReadDone
  absl::Mutex mutex_;
  std::deque<v1::CompleteRequest> waiting_ ABSL_GUARDED_BY(mutex_);  // read, not started
  // The memory of the message whose items wait.
  std::optional<MemoryBudget::Reservation> message_memory_ ABSL_GUARDED_BY(mutex_);
  uint64_t next_index_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t next_write_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t in_flight_ ABSL_GUARDED_BY(mutex_) = 0;
  std::map<uint64_t, v1::CompleteBatchAnswer> answers_ ABSL_GUARDED_BY(mutex_);
  absl::Status refused_ ABSL_GUARDED_BY(mutex_);  // a message that could not be parsed
  bool reading_ ABSL_GUARDED_BY(mutex_) = false;
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool reads_done_ ABSL_GUARDED_BY(mutex_) = false;
  bool broken_ ABSL_GUARDED_BY(mutex_) = false;
  bool ended_ ABSL_GUARDED_BY(mutex_) = false;
  grpc::Alarm timer_;  // the answers' delay
  bool timer_set_ ABSL_GUARDED_BY(mutex_) = false;
  bool answer_delay_over_ ABSL_GUARDED_BY(mutex_) = false;
};

}  // namespace

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StartCompleteBatchCall(
    ServiceState& service, grpc::CallbackServerContext* context) {
  auto* call = new BatchCall(service, context);
  call->Begin();
  return call;
}

}  // namespace nqueens::server

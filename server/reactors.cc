#include "reactors.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "call_reactor.h"
#include "stream_io.h"

namespace nqueens::server {
namespace {

class UnaryCall final : public CallReactor<grpc::ServerUnaryReactor> {
 public:
  UnaryCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
            const grpc::ByteBuffer& request, grpc::ByteBuffer* response, PrepareResponse prepare)
      : CallReactor(service, context, method), response_(response) {
    EndUnlessOk(Start(request, prepare));
  }

 private:
  absl::Status Start(const grpc::ByteBuffer& request, PrepareResponse prepare) {
    absl::StatusOr<ResponseJob> job = EnterAndPrepare(request, prepare);
    if (!job.ok()) return job.status();
    job_ = *std::move(job);
    return call_.Schedule(call_.SizeOf(job_.n), [this] { FinishWithResponse(job_, response_); });
  }

  grpc::ByteBuffer* const response_;
  ResponseJob job_;
};

class ResultStreamCall final : public CallReactor<grpc::ServerWriteReactor<grpc::ByteBuffer>> {
 public:
  ResultStreamCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
                   const grpc::ByteBuffer& request, PrepareResult prepare)
      : CallReactor(service, context, method) {
    EndUnlessOk(Start(request, prepare));
  }

  void OnWriteDone(bool ok) override { AfterWrite(ok); }

 private:
  absl::Status Start(const grpc::ByteBuffer& request, PrepareResult prepare) {
    absl::StatusOr<ResultJob> job = EnterAndPrepare(request, prepare);
    if (!job.ok()) return job.status();
    job_ = *std::move(job);
    return call_.Schedule(call_.SizeOf(job_.n),
                          [this] { StreamResult<v1::SolveStreamResponse>(job_); });
  }

  ResultJob job_;
};

// Reads a request stream into a board on gRPC's threads, then hands the
// board to OnBoard().
template <typename Base, typename Request>
class RequestStreamCall : public CallReactor<Base> {
 public:
  RequestStreamCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
                    Work work)
      : CallReactor<Base>(service, context, method), reader_(this->call_, work) {}

  // After construction, so that OnBoard() dispatches to the derived class.
  void Begin() {
    if (this->EndUnlessOk(this->call_.Enter())) return;
    this->WatchStream(false);
    this->StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return OnClientDone();
    if (this->EndUnlessOk(reader_.Add(in_))) return;
    if (reader_.progressed()) this->Touch();
    this->StartRead(&in_);
  }

 protected:
  using Header = typename RequestStreamReader<Request>::Header;
  virtual void OnBoard(const Header& header, Columns board) = 0;

 private:
  // The client sent its last message, or the call ended.
  void OnClientDone() {
    this->UnwatchStream();
    if (this->call_.finished()) return;  // cut by the idle timeout
    if (this->call_.context()->IsCancelled()) return this->End(this->BrokenStreamStatus());
    absl::StatusOr<Columns> board = reader_.Finish();
    if (this->EndUnlessOk(board.status())) return;
    OnBoard(reader_.header(), *std::move(board));
  }

  RequestStreamReader<Request> reader_;
  grpc::ByteBuffer in_;
};

class ValidateStreamCall final : public RequestStreamCall<grpc::ServerReadReactor<grpc::ByteBuffer>,
                                                          v1::ValidateStreamRequest> {
 public:
  ValidateStreamCall(ServiceState& service, grpc::CallbackServerContext* context,
                     grpc::ByteBuffer* response)
      : RequestStreamCall(service, context, "ValidateStream", Work::kValidation),
        response_(response) {}

 private:
  void OnBoard(const Header& header, Columns board) override {
    job_ = ValidateStreamJob(call_, header, std::move(board));
    EndUnlessOk(
        call_.Schedule(call_.SizeOf(job_.n), [this] { FinishWithResponse(job_, response_); }));
  }

  grpc::ByteBuffer* const response_;
  ResponseJob job_;
};

class CompleteStreamCall final
    : public RequestStreamCall<grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>,
                               v1::CompleteStreamRequest> {
 public:
  CompleteStreamCall(ServiceState& service, grpc::CallbackServerContext* context)
      : RequestStreamCall(service, context, "CompleteStream", Work::kCompletion) {}

  void OnWriteDone(bool ok) override { AfterWrite(ok); }

 private:
  void OnBoard(const Header& header, Columns board) override {
    job_ = CompleteStreamJob(call_, header, std::move(board));
    EndUnlessOk(call_.Schedule(call_.SizeOf(job_.n),
                               [this] { StreamResult<v1::CompleteStreamResponse>(job_); }));
  }

  ResultJob job_;
};

// CompleteBatch: reads items ahead while fewer than `window_` are in work or
// waiting to be written, runs each on the worker pool as a job of its own
// (items record nothing in the call, so they may run at once), and writes
// the answers in the order of the requests. The call ends once the client
// is done and every answer is out, or, after a cancel or a broken stream,
// once no job is left: a job uses the reactor, which OnDone deletes.
class BatchCall final
    : public CallReactor<grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>> {
 public:
  BatchCall(ServiceState& service, grpc::CallbackServerContext* context)
      : CallReactor(service, context, "CompleteBatch"),
        window_(8 * std::max(1, service.pool.workers())) {}

  // After construction, as the other stream reactors.
  void Begin() {
    if (EndUnlessOk(call_.Enter()) || EndUnlessOk(AdmitBatch(call_, window_))) return;
    absl::MutexLock lock(&mutex_);
    ReadLocked();
  }

  void OnReadDone(bool ok) override {
    std::optional<absl::Status> end;
    {
      absl::MutexLock lock(&mutex_);
      reading_ = false;
      // After this the idle timeout no longer ends the call under a job.
      WatchLocked();
      if (!ok || call_.finished()) {
        reads_done_ = true;
      } else {
        StartItemLocked();
        ReadLocked();
      }
      end = EndIfDoneLocked();
    }
    if (end.has_value()) End(*end);
  }

  void OnWriteDone(bool ok) override {
    std::optional<absl::Status> end;
    {
      absl::MutexLock lock(&mutex_);
      writing_ = false;
      broken_ |= !ok;
      WriteLocked();
      ReadLocked();
      end = EndIfDoneLocked();
    }
    if (end.has_value()) End(*end);
  }

 private:
  void StartItemLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    const uint64_t index = next_index_++;
    ++in_flight_;
    const bool queued =
        call_.service()
            .pool
            .Submit(WorkerPool::Size::kSmall,
                    [this, index, request = std::move(in_)]() mutable {
                      Answered(index, RunBatchItem(call_, index, std::move(request)));
                    })
            .has_value();
    if (!queued) {
      --in_flight_;
      v1::CompleteBatchResponse refused;
      refused.set_index(index);
      refused.mutable_error()->set_code(static_cast<int>(absl::StatusCode::kResourceExhausted));
      refused.mutable_error()->set_message(
          "all workers are busy and the queue is full (--max-queued); try again later");
      answers_[index] = SerializeMessage(refused);
      WriteLocked();
    }
  }

  // On a worker: item `index` is done.
  void Answered(uint64_t index, grpc::ByteBuffer answer) {
    std::optional<absl::Status> end;
    {
      absl::MutexLock lock(&mutex_);
      --in_flight_;
      answers_[index] = std::move(answer);
      WriteLocked();
      ReadLocked();
      end = EndIfDoneLocked();
    }
    if (end.has_value()) End(*end);
  }

  void ReadLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    const uint64_t held = in_flight_ + answers_.size();
    if (reading_ || reads_done_ || broken_ || call_.cancelled() || held >= window_) return;
    reading_ = true;
    WatchLocked();
    StartRead(&in_);
  }

  void WriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    const auto next = answers_.find(next_write_);
    if (writing_ || broken_ || next == answers_.end()) return;
    out_ = std::move(next->second);
    answers_.erase(next);
    ++next_write_;
    writing_ = true;
    WatchLocked();
    StartWrite(&out_);
  }

  // The idle timeout watches the stream while only the client can move it:
  // a write it does not read (cut by cancelling, which waits for the jobs),
  // or a read while no job runs (ended at once: nothing else uses the call).
  void WatchLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    const Watching watching = writing_                      ? Watching::kWrite
                              : reading_ && in_flight_ == 0 ? Watching::kRead
                                                            : Watching::kNone;
    if (watching == watching_) {
      if (watching != Watching::kNone) Touch();
      return;
    }
    watching_ = watching;
    if (watching == Watching::kNone) {
      UnwatchStream();
    } else {
      WatchStream(watching == Watching::kWrite);
    }
  }

  std::optional<absl::Status> EndIfDoneLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (ended_ || in_flight_ > 0 || reading_ || writing_) return std::nullopt;
    const bool failed = broken_ || call_.cancelled();
    if (!failed && !(reads_done_ && answers_.empty())) return std::nullopt;
    ended_ = true;
    UnwatchStream();
    return failed ? BrokenStreamStatus() : absl::OkStatus();
  }

  enum class Watching { kNone, kRead, kWrite };

  const uint64_t window_;
  absl::Mutex mutex_;
  grpc::ByteBuffer in_ ABSL_GUARDED_BY(mutex_);
  grpc::ByteBuffer out_ ABSL_GUARDED_BY(mutex_);
  uint64_t next_index_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t next_write_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t in_flight_ ABSL_GUARDED_BY(mutex_) = 0;
  std::map<uint64_t, grpc::ByteBuffer> answers_ ABSL_GUARDED_BY(mutex_);
  bool reading_ ABSL_GUARDED_BY(mutex_) = false;
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool reads_done_ ABSL_GUARDED_BY(mutex_) = false;
  bool broken_ ABSL_GUARDED_BY(mutex_) = false;
  bool ended_ ABSL_GUARDED_BY(mutex_) = false;
  Watching watching_ ABSL_GUARDED_BY(mutex_) = Watching::kNone;
};

}  // namespace

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StartCompleteBatchCall(
    ServiceState& service, grpc::CallbackServerContext* context) {
  auto* call = new BatchCall(service, context);
  call->Begin();
  return call;
}

grpc::ServerUnaryReactor* StartUnaryCall(ServiceState& service,
                                         grpc::CallbackServerContext* context, const char* method,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response, PrepareResponse prepare) {
  return new UnaryCall(service, context, method, *request, response, prepare);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* StartResultStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context, const char* method,
    const grpc::ByteBuffer* request, PrepareResult prepare) {
  return new ResultStreamCall(service, context, method, *request, prepare);
}

grpc::ServerReadReactor<grpc::ByteBuffer>* StartValidateStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context, grpc::ByteBuffer* response) {
  auto* call = new ValidateStreamCall(service, context, response);
  call->Begin();
  return call;
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StartCompleteStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context) {
  auto* call = new CompleteStreamCall(service, context);
  call->Begin();
  return call;
}

}  // namespace nqueens::server

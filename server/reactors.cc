#include "reactors.h"

#include <atomic>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "stream_io.h"
#include "wire/status.h"

namespace nqueens::server {
namespace {

// A job's answer; a job that runs out of memory despite its reservation is
// refused rather than taking the server down.
template <typename T>
absl::StatusOr<T> RunGuarded(const std::function<absl::StatusOr<T>()>& job) {
  try {
    return job();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("the server has no memory left for this request");
  }
}

// What a unary request holds before and while it is parsed: the bytes as
// received and the parsed message.
uint64_t ReceivedRequestBytes(const grpc::ByteBuffer& request) { return 2 * request.Length(); }

// What every reactor shares: the call's bookkeeping and its one Finish, the
// idle watch of its stream, and running a job to the answer.
template <typename Base>
class CallReactor : public Base {
 public:
  CallReactor(ServiceState& service, grpc::CallbackServerContext* context, const char* method)
      : call_(service, context, method) {}

  // The client cancelled, the deadline passed, or the server shuts down.
  void OnCancel() override {
    if (call_.Cancel()) End(call_.StoppedStatus());
  }
  void OnDone() override { delete this; }

 protected:
  void End(const absl::Status& status) {
    if (call_.MarkFinished(status)) this->Finish(wire::ToGrpcStatus(status));
  }
  // Ends the call unless `status` is OK; true when it did.
  bool EndUnlessOk(const absl::Status& status) {
    if (status.ok()) return false;
    End(status);
    return true;
  }

  // Watches the stream while the server waits on the client.
  void WatchStream(bool writing) {
    writing_ = writing;
    watch_.emplace(call_.service().idle_watchdog, [this] { OnIdle(); });
  }
  void UnwatchStream() { watch_.reset(); }
  void Touch() { watch_->Touch(); }
  // Why a stream broke off: the idle timeout, or the call's end.
  absl::Status BrokenStreamStatus() const {
    if (!idle_.load()) return call_.StoppedStatus();
    return absl::CancelledError(absl::StrCat(
        "no message moved for ", absl::FormatDuration(call_.service().idle_watchdog.timeout()),
        "; the stream was cut (--stream-idle-timeout)"));
  }

  // Runs `job` (on a worker) and finishes the call with its one message.
  void FinishWithResponse(ResponseJob& job, grpc::ByteBuffer* response) {
    absl::StatusOr<grpc::ByteBuffer> answer = RunGuarded(job.run);
    job.run = nullptr;  // frees the request before the response goes out
    if (answer.ok()) *response = *std::move(answer);
    End(call_.Explain(answer.status()));
  }

  // Runs `job` (on a worker), then writes its result as a stream of
  // `Response` messages, one at a time, from gRPC's threads.
  template <typename Response>
  void StreamResult(ResultJob& job) {
    absl::StatusOr<CompletionResult> result = RunGuarded(job.run);
    job.run = nullptr;
    if (!result.ok()) return End(call_.Explain(result.status()));
    auto writer = std::make_shared<ResultStreamWriter<Response>>(
        job.n, *std::move(result), job.chunk_size, call_.lowered_limits());
    next_message_ = [writer] { return writer->Next(); };
    WatchStream(true);
    WriteNext();
  }
  // For OnWriteDone.
  void AfterWrite(bool ok) {
    if (!ok) return End(BrokenStreamStatus());
    Touch();
    WriteNext();
  }

  Call call_;

 private:
  void OnIdle() {
    idle_.store(true);
    // A write the client does not read holds the call until it is cancelled;
    // a pending read ends with the call.
    if (writing_) {
      call_.context()->TryCancel();
    } else {
      End(BrokenStreamStatus());
    }
  }

  void WriteNext() {
    std::optional<grpc::ByteBuffer> next = next_message_();
    if (!next.has_value()) {
      UnwatchStream();
      return End(absl::OkStatus());
    }
    out_ = *std::move(next);
    this->StartWrite(&out_);
  }

  std::optional<IdleWatchdog::Watch> watch_;
  std::atomic<bool> idle_{false};
  bool writing_ = false;
  std::function<std::optional<grpc::ByteBuffer>()> next_message_;
  grpc::ByteBuffer out_;  // the message being written
};

class UnaryCall final : public CallReactor<grpc::ServerUnaryReactor> {
 public:
  UnaryCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
            const grpc::ByteBuffer& request, grpc::ByteBuffer* response, PrepareResponse prepare)
      : CallReactor(service, context, method), response_(response) {
    EndUnlessOk(Start(request, prepare));
  }

 private:
  absl::Status Start(const grpc::ByteBuffer& request, PrepareResponse prepare) {
    if (absl::Status entered = call_.Enter(); !entered.ok()) return entered;
    if (absl::Status memory = call_.ReserveMemory(ReceivedRequestBytes(request)); !memory.ok()) {
      return memory;
    }
    grpc::ByteBuffer bytes(request);
    absl::StatusOr<ResponseJob> job = prepare(call_, bytes);
    if (!job.ok()) return job.status();
    job_ = *std::move(job);
    return call_.Schedule(job_.n, [this] { FinishWithResponse(job_, response_); });
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
    if (absl::Status entered = call_.Enter(); !entered.ok()) return entered;
    if (absl::Status memory = call_.ReserveMemory(ReceivedRequestBytes(request)); !memory.ok()) {
      return memory;
    }
    grpc::ByteBuffer bytes(request);
    absl::StatusOr<ResultJob> job = prepare(call_, bytes);
    if (!job.ok()) return job.status();
    job_ = *std::move(job);
    return call_.Schedule(job_.n, [this] { StreamResult<v1::SolveStreamResponse>(job_); });
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
    EndUnlessOk(call_.Schedule(job_.n, [this] { FinishWithResponse(job_, response_); }));
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
    EndUnlessOk(call_.Schedule(job_.n, [this] { StreamResult<v1::CompleteStreamResponse>(job_); }));
  }

  ResultJob job_;
};

}  // namespace

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

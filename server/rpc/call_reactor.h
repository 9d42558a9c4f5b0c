// What every call's reactor shares (reactors.h lists their files): the
// call's bookkeeping and its one Finish, its one Start of a job, the one
// writer of its outgoing messages with the idle watch of its stream, and
// running a job to the answer.
#ifndef NQUEENS_SERVER_RPC_CALL_REACTOR_H_
#define NQUEENS_SERVER_RPC_CALL_REACTOR_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "server/rpc/call.h"
#include "server/rpc/handlers.h"
#include "server/rpc/stream_io.h"
#include "wire/status.h"

namespace nqueens::server {

// A job's answer; a job that runs out of memory despite its reservation is
// refused rather than taking the server down.
template <typename T>
inline absl::StatusOr<T> RunGuarded(const std::function<absl::StatusOr<T>()>& job) {
  try {
    return job();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("the server has no memory left for this request");
  }
}

// The base of every reactor.
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

  // What the stream's idle watch waits on: nothing, a read or a write.
  enum class Watching { kNone, kRead, kWrite };

  // The call's one idle watch: it watches `watching` from now on, a watch
  // that goes on is touched when the stream `progressed`. A read is watched
  // up to the call's --max-call-seconds too (an upload that trickles). A
  // write the client takes is not cut there: cutting it cancels the call,
  // and the client would see CANCELLED, not the limit; the call ends at its
  // next step.
  void Watch(Watching watching, bool progressed = false) {
    if (watching == watching_) {
      if (watching != Watching::kNone && progressed) watch_->Touch();
      return;
    }
    watching_ = watching;
    if (watching == Watching::kNone) {
      watch_.reset();
      return;
    }
    const bool writing = watching == Watching::kWrite;
    watch_.emplace(
        call_.service().idle_watchdog, [this, writing] { OnIdle(writing); },
        writing ? absl::InfiniteFuture() : call_.CallTimeLimit());
  }

  // The call's one path for outgoing messages: holds `message` (a copy of a
  // grpc::ByteBuffer shares its slices) until gRPC has taken it, watched as
  // a write. The reactor's OnWriteDone calls Written.
  void Send(const grpc::ByteBuffer& message) {
    Watch(Watching::kWrite, true);
    out_ = message;
    this->StartWrite(&out_);
  }
  // A write ended: the client took the message (`ok`) or the stream broke.
  void Written(bool ok) {
    if (ok) Watch(watching_, true);
  }

  // Why a stream broke off: the idle timeout, --max-call-seconds, or the
  // call's end.
  absl::Status BrokenStreamStatus() {
    if (!idle_.load()) return call_.StoppedStatus();
    if (absl::Now() >= call_.CallTimeLimit()) {
      return call_.Explain(absl::DeadlineExceededError("the call's time is up"));
    }
    return absl::CancelledError(absl::StrCat(
        "no message moved for ", absl::FormatDuration(call_.service().idle_watchdog.timeout()),
        "; the stream was cut (--stream-idle-timeout)"));
  }

  // Runs `job` (on a worker) and finishes the call with its one message.
  void FinishWithResponse(ResponseJob& job, grpc::ByteBuffer* response) {
    absl::StatusOr<grpc::ByteBuffer> answer = RunGuarded(job.run);
    job.run = nullptr;  // frees the request before the response goes out
    // An answer made after the deadline or a cancel never reaches the client.
    if (absl::Status going = call_.StillGoing(); answer.ok() && !going.ok()) answer = going;
    const absl::Status status = answer.status();
    if (answer.ok()) *response = *std::move(answer);
    End(call_.Explain(status));
  }

  // Runs `job` (on a worker), then writes its result as a stream of
  // `Response` messages, one at a time, from gRPC's threads.
  template <typename Response>
  void StreamResult(ResultJob& job) {
    absl::StatusOr<CompletionResult> result = RunGuarded(job.run);
    job.run = nullptr;
    if (!result.ok()) return End(call_.Explain(result.status()));
    result->stats.lowered_limits = call_.lowered_limits();
    auto writer = std::make_shared<ResultStreamWriter<Response>>(
        job.n, *std::move(result), job.chunk_size, job.chunk_certificate);
    next_message_ = [writer] { return writer->Next(); };
    WriteNext();
  }
  // OnWriteDone of a call that streams a result.
  void AfterResultWrite(bool ok) {
    Written(ok);
    if (!ok) return End(BrokenStreamStatus());
    WriteNext();
  }

  // Enters the service, makes the call's `job` from the request (which
  // reserves its memory before it parses it) and schedules `run` on a
  // worker: `size`, or by the job's rows when unset; a quick job runs at
  // once instead (RunsAtOnce). Ends the call at the first step that fails.
  template <typename Job>
  void StartJob(const grpc::ByteBuffer& request,
                absl::StatusOr<Job> (*prepare)(Call&, grpc::ByteBuffer&), Job& job,
                std::optional<WorkerPool::Size> size, const std::function<void()>& run) {
    if (EndUnlessOk(call_.Enter())) return;
    grpc::ByteBuffer bytes(request);
    absl::StatusOr<Job> made = prepare(call_, bytes);
    if (EndUnlessOk(made.status())) return;
    job = *std::move(made);
    if (RunsAtOnce(job)) return call_.RunAtOnce(run);
    EndUnlessOk(call_.Schedule(size.value_or(call_.SizeOf(job.n)), run));
  }

  // Runs `decide` under `mutex`, then ends the call with the status it
  // returned, if any, once the lock is released: End may delete the reactor,
  // its mutex included.
  template <typename Decide>
  void EndAfter(absl::Mutex& mutex, Decide decide) {
    std::optional<absl::Status> end;
    {
      absl::MutexLock lock(&mutex);
      end = decide();
    }
    if (end.has_value()) End(*end);
  }

  Call call_;

 private:
  void OnIdle(bool writing) {
    idle_.store(true);
    // A write the client does not read holds the call until it is cancelled;
    // a pending read ends with the call.
    if (writing) {
      call_.context()->TryCancel();
    } else {
      End(BrokenStreamStatus());
    }
  }

  void WriteNext() {
    std::optional<grpc::ByteBuffer> next = next_message_();
    if (!next.has_value()) {
      Watch(Watching::kNone);
      return End(absl::OkStatus());
    }
    Send(*next);
  }

  Watching watching_ = Watching::kNone;
  std::optional<IdleWatchdog::Watch> watch_;
  std::atomic<bool> idle_{false};
  std::function<std::optional<grpc::ByteBuffer>()> next_message_;
  grpc::ByteBuffer out_;  // the message being written
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_CALL_REACTOR_H_

// The reactors of Count and Enumerate: a request, then a stream of
// responses that the search produces as it goes.
#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "server/rpc/call_reactor.h"
#include "server/rpc/message_codec.h"
#include "server/rpc/reactors.h"
#include "wire/convert.h"

namespace nqueens::server {
namespace {

// Enumerate sends at most this many boards in a message, and a worker
// searches no more than that at a time: between batches the call waits for
// the network without holding a worker.
constexpr size_t kBoardsPerMessage = 256;

class CountCall final : public CallReactor<grpc::ServerWriteReactor<grpc::ByteBuffer>> {
 public:
  CountCall(ServiceState& service, grpc::CallbackServerContext* context,
            const grpc::ByteBuffer& request)
      : CallReactor(service, context, "Count") {
    StartJob(request, PrepareCount, job_, WorkerPool::Size::kLarge, [this] { Run(); });
  }

  // A progress write can fail while the count runs on a worker: the call
  // then stops the count and Run() ends it, since ending it here would
  // delete the reactor under the worker.
  void OnWriteDone(bool ok) override {
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) -> std::optional<absl::Status> {
      writing_ = false;
      Written(ok);
      if (!ok) {
        broken_ = true;
        if (final_.has_value()) return BrokenStreamStatus();
        call_.Cancel();
        return std::nullopt;
      }
      if (final_written_) return absl::OkStatus();
      if (final_.has_value()) return SendFinalLocked();
      return std::nullopt;
    });
  }

 private:
  // On a worker.
  void Run() {
    absl::StatusOr<CountResult> result = RunGuarded<CountResult>(
        [this] { return job_.run([this](const CountProgress& p) { SendProgress(p); }); });
    job_.run = nullptr;
    Final final;
    if (result.ok()) {
      v1::CountResponse response;
      *response.mutable_result() = wire::CountResultToProto(job_.n, *result);
      final.has_message = true;
      final.message = SerializeMessage(response);
    } else {
      final.status = call_.Explain(result.status());
    }
    EndAfter(mutex_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) -> std::optional<absl::Status> {
      final_ = std::move(final);
      if (broken_) return BrokenStreamStatus();
      if (!writing_) return SendFinalLocked();
      return std::nullopt;
    });
  }

  // Progress is dropped while an earlier message is still on its way, and
  // once the stream broke.
  void SendProgress(const CountProgress& progress) {
    v1::CountResponse response;
    *response.mutable_progress() = wire::CountProgressToProto(progress);
    absl::MutexLock lock(&mutex_);
    if (writing_ || broken_) return;
    StartWriteLocked(SerializeMessage(response));
  }

  // The result's message, or the status to end with at once.
  std::optional<absl::Status> SendFinalLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (!final_->has_message) return final_->status;
    final_written_ = true;
    StartWriteLocked(final_->message);
    return std::nullopt;
  }

  void StartWriteLocked(const grpc::ByteBuffer& message) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    writing_ = true;
    Send(message);
  }

  // The result's message, or the status to end with.
  struct Final {
    bool has_message = false;
    grpc::ByteBuffer message;
    absl::Status status;
  };

  CountJob job_;
  absl::Mutex mutex_;
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool final_written_ ABSL_GUARDED_BY(mutex_) = false;
  bool broken_ ABSL_GUARDED_BY(mutex_) = false;  // a write failed
  std::optional<Final> final_ ABSL_GUARDED_BY(mutex_);
};

class EnumerateCall final : public CallReactor<grpc::ServerWriteReactor<grpc::ByteBuffer>> {
 public:
  EnumerateCall(ServiceState& service, grpc::CallbackServerContext* context,
                const grpc::ByteBuffer& request)
      : CallReactor(service, context, "Enumerate") {
    StartJob(request, PrepareEnumerate, job_, WorkerPool::Size::kLarge, BatchJob());
  }

  void OnWriteDone(bool ok) override {
    Written(ok);
    if (!ok) return End(BrokenStreamStatus());
    if (last_) return End(absl::OkStatus());
    EndUnlessOk(call_.Schedule(WorkerPool::Size::kLarge, BatchJob()));
  }

 private:
  // The job that sends the next batch of boards.
  std::function<void()> BatchJob() {
    return [this] {
      if (std::optional<absl::Status> end = SendBatch(); end.has_value()) End(*end);
    };
  }

  // On a worker: the next boards, then their message on its way (nullopt),
  // or the status to end the call with.
  std::optional<absl::Status> SendBatch() {
    size_t wanted = kBoardsPerMessage;
    if (job_.limit != 0) wanted = std::min<uint64_t>(wanted, job_.limit - sent_);
    absl::StatusOr<std::vector<Columns>> boards =
        RunGuarded<std::vector<Columns>>([&]() -> absl::StatusOr<std::vector<Columns>> {
          if (!enumerator_.has_value()) {
            absl::StatusOr<SolutionEnumerator> made = job_.make();
            if (!made.ok()) return made.status();
            enumerator_.emplace(*std::move(made));
          }
          return enumerator_->Next(wanted, call_.Stop());
        });
    if (!boards.ok()) return call_.Explain(boards.status());
    if (boards->empty()) return absl::OkStatus();  // none left
    sent_ += boards->size();
    last_ = enumerator_->done() || (job_.limit != 0 && sent_ >= job_.limit);
    v1::EnumerateResponse response;
    for (const Columns& board : *boards) {
      response.add_boards()->mutable_columns()->Assign(board.begin(), board.end());
    }
    Send(SerializeMessage(response));
    return std::nullopt;
  }

  EnumerateJob job_;
  std::optional<SolutionEnumerator> enumerator_;
  uint64_t sent_ = 0;
  bool last_ = false;
};

}  // namespace

grpc::ServerWriteReactor<grpc::ByteBuffer>* StartCountCall(ServiceState& service,
                                                           grpc::CallbackServerContext* context,
                                                           const grpc::ByteBuffer* request) {
  return new CountCall(service, context, *request);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* StartEnumerateCall(ServiceState& service,
                                                               grpc::CallbackServerContext* context,
                                                               const grpc::ByteBuffer* request) {
  return new EnumerateCall(service, context, *request);
}

}  // namespace nqueens::server

// The calls that upload a board as a stream of chunks: ValidateStream
// answers with one message, CompleteStream with a stream of chunks.
#include <optional>
#include <utility>

#include "server/rpc/call_reactor.h"
#include "server/rpc/reactors.h"
#include "server/rpc/stream_io.h"

namespace nqueens::server {
namespace {

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
    this->Watch(Watching::kRead);
    this->StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return OnClientDone();
    if (this->EndUnlessOk(reader_.Add(in_))) return;
    this->Watch(Watching::kRead, reader_.progressed());
    this->StartRead(&in_);
  }

 protected:
  using Header = typename RequestStreamReader<Request>::Header;
  using Watching = typename CallReactor<Base>::Watching;
  virtual void OnBoard(const Header& header, Columns board) = 0;
  // A completion's board's queens, placed as it arrived (stream_io.h).
  std::optional<IncomingComposition> TakeIncoming() { return reader_.TakeIncoming(); }

 private:
  // The client sent its last message, or the call ended.
  void OnClientDone() {
    this->Watch(Watching::kNone);
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
      : RequestStreamCall(service, context, "ValidateStream", kValidationWork),
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
      : RequestStreamCall(service, context, "CompleteStream", kCompletionWork) {}

  void OnWriteDone(bool ok) override { AfterResultWrite(ok); }

 private:
  void OnBoard(const Header& header, Columns board) override {
    job_ = CompleteStreamJob(call_, header, std::move(board), TakeIncoming());
    EndUnlessOk(call_.Schedule(call_.SizeOf(job_.n),
                               [this] { StreamResult<v1::CompleteStreamResponse>(job_); }));
  }

  ResultJob job_;
};

}  // namespace

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

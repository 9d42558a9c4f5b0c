// The calls that take one request message: Solve, Complete and Validate
// answer with one message, SolveStream with a stream of the board's chunks.
#include <optional>

#include "server/rpc/call_reactor.h"
#include "server/rpc/reactors.h"

namespace nqueens::server {
namespace {

class UnaryCall final : public CallReactor<grpc::ServerUnaryReactor> {
 public:
  UnaryCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
            const grpc::ByteBuffer& request, grpc::ByteBuffer* response, PrepareResponse prepare)
      : CallReactor(service, context, method), response_(response) {
    StartJob(request, prepare, job_, std::nullopt, [this] { FinishWithResponse(job_, response_); });
  }

  // gRPC then runs OnCancel and OnDone on the thread that saw the call end,
  // instead of handing them to its executor: a thread switch less per call
  // (docs/constants.md, UnaryCall::InternalInlineable). Both are short and
  // never wait on the client: OnCancel withdraws a queued job, OnDone logs
  // the call. gRPC marks this hook internal; its own unary reactors use it
  // to the same end.
  bool InternalInlineable() override { return true; }

 private:
  grpc::ByteBuffer* const response_;
  ResponseJob job_;
};

class ResultStreamCall final : public CallReactor<grpc::ServerWriteReactor<grpc::ByteBuffer>> {
 public:
  ResultStreamCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
                   const grpc::ByteBuffer& request, PrepareResult prepare)
      : CallReactor(service, context, method) {
    StartJob(request, prepare, job_, std::nullopt,
             [this] { StreamResult<v1::SolveStreamResponse>(job_); });
  }

  void OnWriteDone(bool ok) override { AfterResultWrite(ok); }

 private:
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

}  // namespace nqueens::server

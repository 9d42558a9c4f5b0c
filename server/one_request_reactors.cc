// The calls that take one request message: Solve, Complete and Validate
// answer with one message, SolveStream with a stream of the board's chunks.
#include <optional>

#include "server/call_reactor.h"
#include "server/reactors.h"

namespace nqueens::server {
namespace {

class UnaryCall final : public CallReactor<grpc::ServerUnaryReactor> {
 public:
  UnaryCall(ServiceState& service, grpc::CallbackServerContext* context, const char* method,
            const grpc::ByteBuffer& request, grpc::ByteBuffer* response, PrepareResponse prepare)
      : CallReactor(service, context, method), response_(response) {
    StartJob(request, prepare, job_, std::nullopt, [this] { FinishWithResponse(job_, response_); });
  }

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

// The calls that take one request message: Solve, Complete and Validate
// answer with one message, SolveStream with a stream of the board's chunks.
#include <utility>

#include "call_reactor.h"
#include "reactors.h"

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

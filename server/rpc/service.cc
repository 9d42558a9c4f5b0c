#include "server/rpc/service.h"

#include "server/rpc/handlers.h"
#include "server/rpc/reactors.h"

namespace nqueens::server {

grpc::ServerUnaryReactor* NQueensService::Solve(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) {
  return StartUnaryCall(state_, context, "Solve", request, response, PrepareSolve);
}

grpc::ServerUnaryReactor* NQueensService::Complete(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  return StartUnaryCall(state_, context, "Complete", request, response, PrepareComplete);
}

grpc::ServerUnaryReactor* NQueensService::Validate(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  return StartUnaryCall(state_, context, "Validate", request, response, PrepareValidate);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* NQueensService::SolveStream(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request) {
  return StartResultStreamCall(state_, context, "SolveStream", request, PrepareSolveStream);
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* NQueensService::CompleteStream(
    grpc::CallbackServerContext* context) {
  return StartCompleteStreamCall(state_, context);
}

grpc::ServerReadReactor<grpc::ByteBuffer>* NQueensService::ValidateStream(
    grpc::CallbackServerContext* context, grpc::ByteBuffer* response) {
  return StartValidateStreamCall(state_, context, response);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* NQueensService::Count(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request) {
  return StartCountCall(state_, context, request);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* NQueensService::Enumerate(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request) {
  return StartEnumerateCall(state_, context, request);
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* NQueensService::CompleteBatch(
    grpc::CallbackServerContext* context) {
  return StartCompleteBatchCall(state_, context);
}

}  // namespace nqueens::server

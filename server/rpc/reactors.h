// The callback reactors of the call shapes, a file each. They move messages on
// gRPC's threads without blocking, hand the work to the worker pool, and
// finish the call exactly once: with the work's answer, or at once when the
// call is refused, or when it is cancelled while still queued. Each reactor
// deletes itself when gRPC is done with the call (OnDone), which logs it.
//
// Requests and responses travel as raw bytes (grpc::ByteBuffer) and are
// parsed here, so that the memory budget can refuse a request by its size
// before it is parsed, and an unparseable one gets INVALID_ARGUMENT.
#ifndef NQUEENS_SERVER_RPC_REACTORS_H_
#define NQUEENS_SERVER_RPC_REACTORS_H_

#include <grpcpp/grpcpp.h>

#include "server/rpc/call.h"
#include "server/rpc/handlers.h"

namespace nqueens::server {

using PrepareResponse = absl::StatusOr<ResponseJob> (*)(Call&, grpc::ByteBuffer&);
using PrepareResult = absl::StatusOr<ResultJob> (*)(Call&, grpc::ByteBuffer&);

// Solve, Complete, Validate (one_request_reactors.cc).
grpc::ServerUnaryReactor* StartUnaryCall(ServiceState& service,
                                         grpc::CallbackServerContext* context, const char* method,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response, PrepareResponse prepare);
// SolveStream (one_request_reactors.cc).
grpc::ServerWriteReactor<grpc::ByteBuffer>* StartResultStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context, const char* method,
    const grpc::ByteBuffer* request, PrepareResult prepare);
// ValidateStream (upload_reactors.cc).
grpc::ServerReadReactor<grpc::ByteBuffer>* StartValidateStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context, grpc::ByteBuffer* response);
// Count and Enumerate (counting_reactors.cc).
grpc::ServerWriteReactor<grpc::ByteBuffer>* StartCountCall(ServiceState& service,
                                                           grpc::CallbackServerContext* context,
                                                           const grpc::ByteBuffer* request);
grpc::ServerWriteReactor<grpc::ByteBuffer>* StartEnumerateCall(ServiceState& service,
                                                               grpc::CallbackServerContext* context,
                                                               const grpc::ByteBuffer* request);
// CompleteStream (upload_reactors.cc).
grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StartCompleteStreamCall(
    ServiceState& service, grpc::CallbackServerContext* context);
// CompleteBatch (batch_reactor.cc).
grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StartCompleteBatchCall(
    ServiceState& service, grpc::CallbackServerContext* context);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_REACTORS_H_

// The nqueens.v1.NQueensService service on gRPC's callback API: each method starts
// a reactor (reactors.h) for its call shape with its handler (handlers.h).
// Every method is registered raw (requests and responses as bytes) so that
// the server parses them itself: see reactors.h.
#ifndef NQUEENS_SERVER_RPC_SERVICE_H_
#define NQUEENS_SERVER_RPC_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <algorithm>

#include "absl/time/time.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/rpc/call.h"
#include "server/rpc/service_options.h"

namespace nqueens::server {

using RawNQueensService = v1::NQueensService::WithRawCallbackMethod_Solve<
    v1::NQueensService::WithRawCallbackMethod_Complete<
        v1::NQueensService::WithRawCallbackMethod_Validate<
            v1::NQueensService::WithRawCallbackMethod_SolveStream<
                v1::NQueensService::WithRawCallbackMethod_CompleteStream<
                    v1::NQueensService::WithRawCallbackMethod_ValidateStream<
                        v1::NQueensService::WithRawCallbackMethod_Count<
                            v1::NQueensService::WithRawCallbackMethod_Enumerate<
                                v1::NQueensService::WithRawCallbackMethod_CompleteBatch<
                                    v1::NQueensService::Service>>>>>>>>>;

class NQueensService final : public RawNQueensService {
 public:
  NQueensService(const ServiceOptions& options, BearerTokens* tokens) : state_(options, tokens) {}

  grpc::ServerUnaryReactor* Solve(grpc::CallbackServerContext* context,
                                  const grpc::ByteBuffer* request,
                                  grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Complete(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Validate(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>* SolveStream(grpc::CallbackServerContext* context,
                                                          const grpc::ByteBuffer* request) override;
  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* CompleteStream(
      grpc::CallbackServerContext* context) override;
  grpc::ServerReadReactor<grpc::ByteBuffer>* ValidateStream(grpc::CallbackServerContext* context,
                                                            grpc::ByteBuffer* response) override;

  grpc::ServerWriteReactor<grpc::ByteBuffer>* Count(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>* Enumerate(grpc::CallbackServerContext* context,
                                                        const grpc::ByteBuffer* request) override;
  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* CompleteBatch(
      grpc::CallbackServerContext* context) override;

  // Refuses new calls (UNAVAILABLE) and waits until the running and queued
  // ones ended or the deadline passed, then until none ended or was refused
  // for kShutdownQuiet, kShutdownQuietAtMost at most (see
  // limits/in_flight_calls.h). Past the deadline, the calls' jobs are stopped and
  // the calls get kStopAtMost to end with the shutdown's reason. True when
  // no call is left.
  bool Drain(absl::Time deadline) {
    if (!state_.in_flight.CloseAndWait(deadline)) {
      state_.in_flight.EndGrace();
      return state_.in_flight.AwaitIdle(absl::Now() + kStopAtMost);
    }
    state_.in_flight.AwaitQuiet(kShutdownQuiet,
                                std::min(deadline, absl::Now() + kShutdownQuietAtMost));
    return true;
  }

  const ServiceState& state() const { return state_; }
  ServiceState& state() { return state_; }

  static constexpr absl::Duration kShutdownQuiet = absl::Milliseconds(100);
  // Clients that keep calling (they learn of the shutdown only from gRPC's
  // GOAWAY, which comes after this) are refused for no longer than this.
  static constexpr absl::Duration kShutdownQuietAtMost = absl::Milliseconds(500);
  // A stopped job notices within milliseconds (the core polls its stop
  // condition); a call waiting on its client does not, and gRPC cancels it.
  static constexpr absl::Duration kStopAtMost = absl::Milliseconds(500);

 private:
  ServiceState state_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_SERVICE_H_

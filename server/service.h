// The nqueens.v1.NQueens service: converts requests, calls the core, converts
// results and statuses back. Calls run concurrently; the only shared state is
// the count of running calls, for draining at shutdown.
#ifndef NQUEENS_SERVER_SERVICE_H_
#define NQUEENS_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>

#include "absl/time/time.h"
#include "in_flight_calls.h"
#include "nqueens/v1/nqueens.grpc.pb.h"

namespace nqueens::server {

struct ServiceOptions {
  // Larger boards are refused with RESOURCE_EXHAUSTED before any allocation.
  uint64_t max_n = 100'000'000;
};

class NQueensService final : public v1::NQueens::Service {
 public:
  explicit NQueensService(const ServiceOptions& options);

  grpc::Status Solve(grpc::ServerContext* context, const v1::SolveRequest* request,
                     v1::SolveResponse* response) override;
  grpc::Status Complete(grpc::ServerContext* context, const v1::CompleteRequest* request,
                        v1::CompleteResponse* response) override;
  grpc::Status Validate(grpc::ServerContext* context, const v1::ValidateRequest* request,
                        v1::ValidateResponse* response) override;
  grpc::Status SolveStream(grpc::ServerContext* context, const v1::SolveRequest* request,
                           grpc::ServerWriter<v1::SolveStreamResponse>* writer) override;
  grpc::Status CompleteStream(grpc::ServerContext* context,
                              grpc::ServerReaderWriter<v1::CompleteStreamResponse,
                                                       v1::CompleteStreamRequest>* stream) override;
  grpc::Status ValidateStream(grpc::ServerContext* context,
                              grpc::ServerReader<v1::ValidateStreamRequest>* reader,
                              v1::ValidateResponse* response) override;

  // Refuses new calls (UNAVAILABLE) and waits until the running ones ended
  // or the deadline passed. True when none is left.
  bool Drain(absl::Time deadline) { return in_flight_.CloseAndWait(deadline); }

 private:
  const ServiceOptions options_;
  InFlightCalls in_flight_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SERVICE_H_

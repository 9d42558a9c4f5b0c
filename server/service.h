// The nqueens.v1.NQueens service: converts requests, calls the core, converts
// results and statuses back. Calls run concurrently; they share the count of
// running calls (for draining at shutdown), the memory budget and the idle
// watchdog of the request and response streams.
#ifndef NQUEENS_SERVER_SERVICE_H_
#define NQUEENS_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "idle_watchdog.h"
#include "in_flight_calls.h"
#include "memory_budget.h"
#include "memory_estimate.h"
#include "nqueens/v1/nqueens.grpc.pb.h"

namespace nqueens::server {

struct ServiceOptions {
  // Larger boards are refused with RESOURCE_EXHAUSTED before any allocation.
  uint64_t max_n = 100'000'000;
  // Bytes all calls share; each reserves its estimated peak before it
  // allocates anything O(n) and is refused (RESOURCE_EXHAUSTED) when that
  // does not fit. 0: DefaultMemoryBudget().
  uint64_t memory_budget = 0;
  // A stream on which no message moves for this long while the server waits
  // on the client is cancelled. absl::InfiniteDuration(): never.
  absl::Duration stream_idle_timeout = absl::Seconds(30);
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

  const MemoryBudget& memory_budget() const { return memory_budget_; }

 private:
  // Lets a call on a board of n rows in: INVALID_ARGUMENT for n = 0,
  // RESOURCE_EXHAUSTED above max_n or when its peak memory does not fit in
  // the budget; otherwise the reservation, to hold until the call ends.
  absl::StatusOr<MemoryBudget::Reservation> Admit(uint64_t n, Work work,
                                                  const RequestBoard& request,
                                                  ResponseBoard response);

  const ServiceOptions options_;
  InFlightCalls in_flight_;
  MemoryBudget memory_budget_;
  IdleWatchdog idle_watchdog_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SERVICE_H_

// nqueens health [SERVICE]: the standard gRPC health check of --server
// (grpc.health.v1.Health/Check), as Kubernetes' and Docker's probes ask it;
// the server image's HEALTHCHECK. SERVICE: "" (the server as a whole, the
// default) or nqueens.v1.NQueensService.
#ifndef NQUEENS_CLIENT_BACKENDS_HEALTH_H_
#define NQUEENS_CLIENT_BACKENDS_HEALTH_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace nqueens::client {

// The status the server reports for `service`: "SERVING", "NOT_SERVING",
// "SERVICE_UNKNOWN" or "UNKNOWN"; an error when the call fails (NOT_FOUND
// for a service the server does not know).
absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                                        const std::string& service, absl::Duration deadline);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_HEALTH_H_

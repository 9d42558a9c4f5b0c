// --health-listen: a plaintext port for probes. Kubernetes' gRPC probes speak
// no TLS, so a server with TLS needs one; it is one more listening port of
// the same server, so that it reports the server's own health status, and
// it is kept to health checks: on a server with TLS, a call that arrived in
// plaintext came through this port, and anything but grpc.health.v1.Health
// ends UNIMPLEMENTED there. NQueens calls are refused as they enter the
// service (Call::Enter, with CheckNotHealthPort), so that each is logged and
// counted once, with the status the client saw; the other services' calls
// (reflection) by HealthPortInterceptors. Without TLS the main port serves
// probes, and the flag is refused.
#ifndef NQUEENS_SERVER_SECURITY_HEALTH_PORT_H_
#define NQUEENS_SERVER_SECURITY_HEALTH_PORT_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>

#include <memory>

#include "absl/status/status.h"

namespace nqueens::server {

// On a server with a health port: UNIMPLEMENTED, saying so, when the call
// came through it; else OK.
absl::Status CheckNotHealthPort(grpc::ServerContextBase& context);

// Refuses, with CheckNotHealthPort, the calls of services other than
// grpc.health.v1.Health and nqueens.v1.NQueensService.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> HealthPortInterceptors();

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SECURITY_HEALTH_PORT_H_

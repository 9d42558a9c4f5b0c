// --health-listen: a plaintext port for probes. Kubernetes' gRPC probes speak
// no TLS, so a server with TLS needs one; it is one more listening port of
// the same server, so that it reports the server's own health status, and
// HealthPortInterceptors keeps it to health checks: on a server with TLS, a
// call that arrived in plaintext came through this port, and anything but
// grpc.health.v1.Health ends UNIMPLEMENTED there. Without TLS the main port
// serves probes, and the flag is refused.
#ifndef NQUEENS_SERVER_HEALTH_PORT_H_
#define NQUEENS_SERVER_HEALTH_PORT_H_

#include <grpcpp/support/server_interceptor.h>

#include <memory>

namespace nqueens::server {

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> HealthPortInterceptors();

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_HEALTH_PORT_H_

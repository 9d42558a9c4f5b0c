// Server interceptors that refuse a call before any handler sees it, for the
// calls whose handlers are not ours (reflection, the health service): the
// bearer-token check on reflection (auth.h) and the health port's limit to
// health checks (health_port.h). NQueens calls are checked where they enter
// the service instead (rpc/call.h).
#ifndef NQUEENS_SERVER_SECURITY_CALL_GATE_H_
#define NQUEENS_SERVER_SECURITY_CALL_GATE_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>

#include <functional>
#include <map>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace nqueens::server {

using ClientMetadata = std::multimap<grpc::string_ref, grpc::string_ref>;

// Whether a call is the gate's business at all, by its method.
using GatedMethod = std::function<bool(absl::string_view method)>;
// OK to let the call through; otherwise the status it ends with (logged).
using GateCheck =
    std::function<absl::Status(grpc::ServerContextBase& context, const ClientMetadata& metadata)>;

// Runs `check` on every call of a method that `gated` picks, once its
// metadata is in (the call's transport and peer are known by then), unless
// an earlier gate refused it. A refused call ends with the refusal's status,
// which the interceptors after the gate see too.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> CallGate(GatedMethod gated,
                                                                                GateCheck check);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SECURITY_CALL_GATE_H_

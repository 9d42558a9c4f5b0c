// Where a call comes from: a gRPC client on one of the ports, or an HTTP
// client whose request the gateway (server/http/gateway.h) forwards over
// the server's in-process channel. The gateway names the HTTP client in
// the call's metadata, with a secret that this process draws at start and
// that never leaves it: a gRPC client sending the same metadata stays
// itself. (gRPC names an in-process call's peer "unknown", as it does a
// network call's once it is cancelled, so the peer cannot tell.)
#ifndef NQUEENS_SERVER_SECURITY_CALL_ORIGIN_H_
#define NQUEENS_SERVER_SECURITY_CALL_ORIGIN_H_

#include <grpcpp/server_context.h>

#include <map>
#include <string>

#include "absl/strings/string_view.h"

namespace nqueens::server {

inline constexpr char kForwardedForKey[] = "x-nqueens-forwarded-for";

struct CallOrigin {
  const char* transport = "grpc";  // or "http"
  std::string peer;                // "ipv4:127.0.0.1:40123", the HTTP client's for "http"
};

CallOrigin OriginOf(const grpc::ServerContextBase& context);
// Its transport alone, from the call's metadata (for interceptors, which
// see the metadata before the context has it).
const char* TransportOf(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata);

// The value of kForwardedForKey for a call made for the HTTP client at
// `client_address` ("ipv4:10.0.0.7:51234").
std::string ForwardedFor(absl::string_view client_address);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SECURITY_CALL_ORIGIN_H_

#include "server/security/health_port.h"

#include <grpc/grpc_security_constants.h>
#include <grpcpp/grpcpp.h>

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "server/security/call_gate.h"
#include "server/security/call_origin.h"

namespace nqueens::server {
namespace {

// gRPC names the transport "insecure" for plaintext, "tls" (TlsServerCredentials)
// or "ssl" for TLS; a call it does not name is taken for plaintext. The
// HTTP face's calls come over the in-process channel, which names none: the
// HTTP port has its own TLS.
bool ArrivedInPlaintext(grpc::ServerContextBase& context) {
  if (TransportOf(context.client_metadata()) == absl::string_view("http")) return false;
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr) return true;
  const std::vector<grpc::string_ref> types =
      auth->FindPropertyValues(GRPC_TRANSPORT_SECURITY_TYPE_PROPERTY_NAME);
  return types.empty() || types.front() == "insecure";
}

}  // namespace

absl::Status CheckNotHealthPort(grpc::ServerContextBase& context) {
  if (!ArrivedInPlaintext(context)) return absl::OkStatus();
  return absl::UnimplementedError(
      "this is the plaintext health port (--health-listen): it serves "
      "grpc.health.v1.Health only; call the TLS port");
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> HealthPortInterceptors() {
  return CallGate(
      [](absl::string_view method) {
        return !absl::StartsWith(method, "/grpc.health.v1.Health/") &&
               !absl::StartsWith(method, "/nqueens.v1.NQueensService/");
      },
      [](grpc::ServerContextBase& context, const ClientMetadata&) {
        return CheckNotHealthPort(context);
      });
}

}  // namespace nqueens::server

// The CLI's side of the server's security: TLS (--tls, --tls-ca,
// --tls-cert, --tls-key, --tls-server-name), the bearer token
// (--auth-token-file or NQUEENS_AUTH_TOKEN), and failures they cause (or a
// server that cannot be reached at all) told in one line saying which.
#ifndef NQUEENS_CLIENT_BACKENDS_SECURITY_H_
#define NQUEENS_CLIENT_BACKENDS_SECURITY_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace nqueens::client {

// The flags as given; empty strings are unset.
struct SecurityFlags {
  bool tls = false;
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
  std::string server_name;
  std::string token_file;
};

// How the channel is secured and what each call carries. The default is
// plaintext without a token.
struct ClientSecurity {
  bool tls = false;
  grpc::SslCredentialsOptions ssl;  // PEM contents; no roots: the system's
  std::string server_name;          // checked instead of the address's host
  std::optional<std::string> token;
};

// Reads the files the flags name; any TLS file flag implies --tls. The
// token comes from --auth-token-file (its first non-blank line) or else
// from `token_variable`, the value of NQUEENS_AUTH_TOKEN (null: unset).
// INVALID_ARGUMENT naming the flag and file when a file cannot be read or
// holds no token, or --tls-cert and --tls-key do not come together.
absl::StatusOr<ClientSecurity> LoadClientSecurity(const SecurityFlags& flags,
                                                  const char* token_variable);

std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsFor(const ClientSecurity& security);
void AddChannelArguments(const ClientSecurity& security, grpc::ChannelArguments& arguments);

// When TLS, the token or the connection made a call to `address` fail, what
// went wrong in one line: UNAUTHENTICATED when the token was missing or
// refused, and UNAVAILABLE when the TLS handshake failed: a certificate not
// trusted, one for another host name, a server without TLS. A server that
// closes the connection while it is set up is told apart by what the call
// sent: TLS 1.3 servers refuse a missing or unknown client certificate, and
// gRPC's plaintext clients, so, without saying why. A refused connection
// (nothing listens) is UNAVAILABLE saying to start nqueens-server or use
// --local. nullopt for any other failure.
std::optional<absl::Status> ConnectionFailure(const grpc::Status& status,
                                              const ClientSecurity& security,
                                              const std::string& address);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_SECURITY_H_

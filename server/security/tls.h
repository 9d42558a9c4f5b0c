// The credentials the server's ports use: TLS from --tls-cert and --tls-key
// (and mutual TLS with --tls-client-ca), or plaintext without them.
//
// The files go to gRPC's file-watcher certificate provider, which reads them
// again every `refresh_interval` and serves what it read to new handshakes:
// a renewed certificate (cert-manager, a Kubernetes Secret update) takes
// effect without a restart. Replace the certificate and the key together,
// e.g. by renaming new files over the old, as a Secret volume update does.
#ifndef NQUEENS_SERVER_SECURITY_TLS_H_
#define NQUEENS_SERVER_SECURITY_TLS_H_

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nqueens::server {

struct TlsOptions {
  std::string cert_file;       // --tls-cert: PEM certificate chain, the server's first
  std::string key_file;        // --tls-key: PEM private key of that certificate
  std::string client_ca_file;  // --tls-client-ca: PEM CAs that sign client certificates
  // --tls-refresh-interval: how often the files are read again, 1 s to 24 h,
  // by gRPC's provider (in whole seconds) and by the HTTP port
  // (server/http/certificate_reloader.h).
  absl::Duration refresh_interval = absl::Seconds(60);

  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

// Plaintext when `options` names no file. INVALID_ARGUMENT naming the flag
// and the file when a flag lacks its partner (--tls-key without --tls-cert,
// --tls-client-ca without both), a file cannot be read, is larger than
// command_line::kMaxFlagFileBytes or holds no PEM certificate or key, the key
// is not the certificate's, or the certificate is not valid now (the message
// gives its dates). Logs a warning when it expires within 7 days.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(
    const TlsOptions& options);

// When `grpc_message`, one of gRPC's log messages, reports a client's failed
// TLS handshake ("Handshake failed with fatal error SSL_ERROR_SSL: ...", at
// error, with gRPC's source path): the one line to log instead, at warn, e.g.
// "TLS handshake with a client failed: fatal error SSL_ERROR_SSL:
// error:0A000418:SSL routines::tlsv1 alert unknown ca". A client that
// speaks plaintext or distrusts our certificate causes it, not the server.
std::optional<std::string> ClientHandshakeFailure(absl::string_view grpc_message);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SECURITY_TLS_H_

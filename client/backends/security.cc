#include "client/backends/security.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "command_line/flag_file.h"

namespace nqueens::client {
namespace {

// An unset flag reads as empty.
absl::Status ReadInto(const char* flag, const std::string& path, std::string& content) {
  if (path.empty()) return absl::OkStatus();
  absl::StatusOr<std::string> read = command_line::ReadFlagFile(flag, path);
  if (!read.ok()) return read.status();
  content = *std::move(read);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> LoadToken(const std::string& token_file,
                                                     const char* token_variable) {
  if (token_file.empty()) {
    const absl::string_view token =
        absl::StripAsciiWhitespace(token_variable != nullptr ? token_variable : "");
    if (token.empty()) return std::nullopt;
    return std::string(token);
  }
  absl::StatusOr<std::string> content = command_line::ReadFlagFile("--auth-token-file", token_file);
  if (!content.ok()) return content.status();
  for (absl::string_view line : absl::StrSplit(*content, '\n')) {
    const absl::string_view token = absl::StripAsciiWhitespace(line);
    if (!token.empty()) return std::string(token);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--auth-token-file ", token_file, " holds no token"));
}

// What gRPC's handshake failures say (OpenSSL's reasons, and gRPC's own
// host name check), in our words. The needles are in lower case with
// spaces, as NormalizedMessage() leaves them (OpenSSL writes its reasons
// both as CERTIFICATE_VERIFY_FAILED and as "certificate verify failed").
// gRPC 1.51 with OpenSSL 3 says, after "connections to all backends failing;
// last error: UNKNOWN: ipv4:127.0.0.1:PORT: Ssl handshake failed:
// SSL_ERROR_SSL: error:0A000086:SSL routines::", "certificate verify
// failed" and "wrong version number"; and "Peer name localhost is not in
// peer certificate". tests/client/cli_security_test.cc checks them.
struct HandshakeFailure {
  const char* needle;
  const char* explanation;
};
constexpr HandshakeFailure kHandshakeFailures[] = {
    {"certificate verify failed",
     "its certificate is not trusted (not signed by a CA of --tls-ca, or of the system's roots)"},
    {"is not in peer certificate",
     "its certificate is not for that host name (--tls-server-name sets the name to check)"},
    {"wrong version number", "it does not speak TLS (try without --tls)"},
};

// gRPC's "connections to all backends failing; last error: ..."
// (round_robin, client/backends/channel.cc; with pick_first: "failed to
// connect to all addresses; ..."): no connection was made. It ends with "UNAVAILABLE:
// ipv4:127.0.0.1:PORT: Socket closed" when the server hung up while the
// connection was set up, and with "UNKNOWN: ipv4:127.0.0.1:PORT: Failed to
// connect to remote host: Connection refused" when nothing listens there.
bool NotConnected(const std::string& normalized_message) {
  return absl::StrContains(normalized_message, "failed to connect") ||
         absl::StrContains(normalized_message, "connections to all backends failing");
}

// Why a server would hang up, from what this client sent.
std::string ClosedConnectionStatus(const ClientSecurity& security, const std::string& address) {
  if (!security.tls) {
    return absl::StrCat("cannot reach server ", address,
                        ": it closed the connection at once; if it serves TLS, use --tls or "
                        "--tls-ca");
  }
  const absl::string_view guess = security.ssl.pem_cert_chain.empty()
                                      ? "it may require a client certificate (--tls-cert and "
                                        "--tls-key)"
                                      : "it may not accept the client certificate (--tls-cert)";
  return absl::StrCat("TLS failed with server ", address,
                      ": it closed the connection during the handshake; ", guess);
}

// The usual cause is a server not started yet, or a user who meant to run
// in this process.
std::string RefusedConnectionStatus(const std::string& address) {
  return absl::StrCat("cannot reach server ", address,
                      ": connection refused, no server listens there; start nqueens-server "
                      "(it listens on port 50051 by default) or use --local to run in this "
                      "process");
}

std::string NormalizedMessage(const grpc::Status& status) {
  std::string message = absl::AsciiStrToLower(status.error_message());
  std::replace(message.begin(), message.end(), '_', ' ');
  return message;
}

// Whether `pem` holds a PEM block whose label ends with `label`
// ("PRIVATE KEY" also finds "RSA PRIVATE KEY" and "EC PRIVATE KEY").
bool HoldsPemBlock(absl::string_view pem, absl::string_view label) {
  constexpr absl::string_view kBegin = "-----BEGIN ";
  for (size_t at = pem.find(kBegin); at != absl::string_view::npos; at = pem.find(kBegin, at + 1)) {
    const size_t start = at + kBegin.size();
    const size_t end = pem.find("-----", start);
    if (end != absl::string_view::npos && absl::EndsWith(pem.substr(start, end - start), label)) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<ClientSecurity> LoadClientSecurity(const SecurityFlags& flags,
                                                  const char* token_variable) {
  if (flags.cert_file.empty() != flags.key_file.empty()) {
    return absl::InvalidArgumentError(flags.cert_file.empty()
                                          ? "--tls-key needs --tls-cert (the key's certificate)"
                                          : "--tls-cert needs --tls-key (the certificate's key)");
  }
  ClientSecurity security;
  security.tls =
      flags.tls || !flags.ca_file.empty() || !flags.cert_file.empty() || !flags.server_name.empty();
  security.server_name = flags.server_name;
  for (const auto& [flag, path, content, label] :
       {std::tuple{"--tls-ca", flags.ca_file, &security.ssl.pem_root_certs, "CERTIFICATE"},
        std::tuple{"--tls-cert", flags.cert_file, &security.ssl.pem_cert_chain, "CERTIFICATE"},
        std::tuple{"--tls-key", flags.key_file, &security.ssl.pem_private_key, "PRIVATE KEY"}}) {
    if (absl::Status read = ReadInto(flag, path, *content); !read.ok()) return read;
    // gRPC would find out only when it connects, and say "empty address list".
    if (!path.empty() && !HoldsPemBlock(*content, label)) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " ", path, ": holds no PEM ", absl::AsciiStrToLower(label)));
    }
  }
  absl::StatusOr<std::optional<std::string>> token = LoadToken(flags.token_file, token_variable);
  if (!token.ok()) return token.status();
  security.token = *std::move(token);
  return security;
}

std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsFor(const ClientSecurity& security) {
  if (!security.tls) return grpc::InsecureChannelCredentials();
  return grpc::SslCredentials(security.ssl);
}

void AddChannelArguments(const ClientSecurity& security, grpc::ChannelArguments& arguments) {
  if (!security.server_name.empty()) {
    arguments.SetSslTargetNameOverride(security.server_name);
  }
}

std::optional<absl::Status> ConnectionFailure(const grpc::Status& status,
                                              const ClientSecurity& security,
                                              const std::string& address) {
  if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
    return absl::UnauthenticatedError(
        security.token.has_value()
            ? absl::StrCat("authentication failed: server ", address, " refused the token")
            : absl::StrCat("authentication failed: server ", address,
                           " requires a token (--auth-token-file or NQUEENS_AUTH_TOKEN)"));
  }
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE) return std::nullopt;
  const std::string message = NormalizedMessage(status);
  for (const HandshakeFailure& failure : kHandshakeFailures) {
    if (absl::StrContains(message, failure.needle)) {
      return absl::UnavailableError(
          absl::StrCat("TLS failed with server ", address, ": ", failure.explanation));
    }
  }
  if (!NotConnected(message)) return std::nullopt;
  if (absl::StrContains(message, "socket closed")) {
    return absl::UnavailableError(ClosedConnectionStatus(security, address));
  }
  if (absl::StrContains(message, "connection refused")) {
    return absl::UnavailableError(RefusedConnectionStatus(address));
  }
  return std::nullopt;
}

}  // namespace nqueens::client

// A running nqueens gRPC server: the NQueens service plus the standard health
// and reflection services, on one or more listening addresses. Used by
// main.cc and by the tests, which listen on port 0 and read back the bound
// port.
#ifndef NQUEENS_SERVER_SERVER_H_
#define NQUEENS_SERVER_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/http/gateway.h"
#include "server/limits/memory_budget.h"
#include "server/observability/call_counters.h"
#include "server/observability/metrics_endpoint.h"
#include "server/rpc/service.h"
#include "server/rpc/service_options.h"
#include "server/security/auth.h"
#include "server/security/tls.h"

namespace nqueens::server {

// What one connection may hold or do: limits against clients that keep
// resources (gRPC's channel arguments). The server's flags take their
// defaults from this struct and the others below.
struct ConnectionLimits {
  // Calls at once on one connection; a client's further calls wait.
  int max_concurrent_streams = 256;
  // A client that pings more often than this while sending no data gets a
  // strike, and after max_ping_strikes a GOAWAY (0 strikes: no limit).
  absl::Duration min_ping_interval = absl::Seconds(10);
  int max_ping_strikes = 2;
  // A connection without calls for max_idle is closed; any connection is
  // told to go (GOAWAY) after max_age, so that clients resolve the name
  // again and spread over new servers, and its calls then have
  // max_age_grace to finish. absl::InfiniteDuration(): never.
  absl::Duration max_idle = absl::Minutes(5);
  absl::Duration max_age = absl::Minutes(5);
  absl::Duration max_age_grace = absl::Minutes(5);
};

struct ServerOptions {
  // HOST:PORT each; port 0 picks a free port (see Server::addresses()).
  std::vector<std::string> listen_addresses = {"0.0.0.0:50051"};
  // HOST:PORT of the Prometheus metrics endpoint (HOST an IPv4 address; port 0
  // picks a free port, see Server::metrics_port()); empty: none.
  std::string metrics_listen;
  // How long Shutdown() lets in-flight calls finish before cancelling them.
  absl::Duration grace = absl::Seconds(10);
  // No files: plaintext.
  TlsOptions tls;
  // Plaintext ports for health checks only (security/health_port.h); needs TLS.
  std::vector<std::string> health_listen_addresses;
  // Empty: no token needed (see security/auth.h).
  std::string auth_token_file;
  // HOST:PORT of the JSON-over-HTTP face and the playground page
  // (http/gateway.h); empty: none. It takes the TLS files and tokens above.
  std::string http_listen;
  uint64_t http_max_request_bytes = uint64_t{4} << 20;
  // The origin whose pages may call the HTTP routes (http/gateway.h).
  std::string http_cors_origin;
  ConnectionLimits connections;
  ServiceOptions service;
};

// INVALID_ARGUMENT naming the flag of the first option out of its range
// ("--max-n must be at least 1"). Server::Start checks this first, so that
// embedders and tests get the checks the binary's flags get.
absl::Status CheckServerOptions(const ServerOptions& options);

class Server {
 public:
  // UNAVAILABLE, naming the address, when one cannot be bound (taken, or not
  // an address of this machine), the metrics' one included; INVALID_ARGUMENT
  // for options CheckServerOptions refuses, when the memory budget is too
  // small for the workers, or naming the flag
  // and the file when a TLS or token file is missing or unusable.
  static absl::StatusOr<std::unique_ptr<Server>> Start(const ServerOptions& options);
  ~Server();  // Shutdown()

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The listening addresses with the ports actually bound, e.g.
  // "0.0.0.0:40123", in the order given.
  const std::vector<std::string>& addresses() const { return addresses_; }
  // The same for health_listen_addresses.
  const std::vector<std::string>& health_addresses() const { return health_addresses_; }
  const std::string& address() const { return addresses_.front(); }
  int port() const { return ports_.front(); }
  // The metrics endpoint's address with the port actually bound, and that
  // port; "" and 0 without one.
  const std::string& metrics_address() const { return metrics_address_; }
  int metrics_port() const { return metrics_port_; }
  // The same for the HTTP face.
  const std::string& http_address() const { return http_address_; }

  // What the running calls have reserved, out of what capacity.
  const MemoryBudget& memory_budget() const { return service_->state().memory_budget; }
  const CallCounters& counters() const { return service_->state().counters; }
  const WorkerPool& pool() const { return service_->state().pool; }
  const InFlightCalls& in_flight() const { return service_->state().in_flight; }
  int workers() const { return pool().workers(); }

  // Turns health to NOT_SERVING, refuses new calls (UNAVAILABLE), lets
  // in-flight calls run for up to the grace period, cancels the rest and
  // returns once all have ended and the connections are closed. Idempotent.
  void Shutdown();

 private:
  Server(std::unique_ptr<BearerTokens> tokens, std::unique_ptr<NQueensService> service,
         absl::Duration grace);
  // Once gRPC serves: the HTTP face, which calls it in-process.
  absl::Status StartHttp(const ServerOptions& options);

  // Declared before grpc_server_: the server must go first.
  std::unique_ptr<BearerTokens> tokens_;  // null: no token needed
  std::unique_ptr<NQueensService> service_;
  std::unique_ptr<grpc::Service> reflection_v1_;
  std::unique_ptr<grpc::Server> grpc_server_;
  // Declared after grpc_server_: its calls go over the server's in-process
  // channel, so it stops first.
  std::unique_ptr<http::Gateway> http_;
  std::string http_address_;
  // Declared after service_: it stops before the state it reads goes.
  std::unique_ptr<MetricsEndpoint> metrics_;
  std::string metrics_address_;
  int metrics_port_ = 0;
  absl::Duration grace_;
  std::vector<int> ports_;
  std::vector<std::string> addresses_;
  std::vector<std::string> health_addresses_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SERVER_H_

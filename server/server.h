// A running nqueens gRPC server: the NQueens service plus the standard health
// and reflection services, on one listening address. Used by main.cc and by
// the tests, which listen on port 0 and read back the bound port.
#ifndef NQUEENS_SERVER_SERVER_H_
#define NQUEENS_SERVER_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "memory_budget.h"
#include "service.h"

namespace nqueens::server {

struct ServerOptions {
  // HOST:PORT; port 0 picks a free port (see Server::address()).
  std::string listen_address = "0.0.0.0:50051";
  uint64_t max_n = 100'000'000;
  // Calls served at once; more get RESOURCE_EXHAUSTED. 0 = hardware concurrency.
  int threads = 0;
  // How long Shutdown() lets in-flight calls finish before cancelling them.
  absl::Duration grace = absl::Seconds(10);
  // Bytes all calls share (see memory_budget.h). 0: DefaultMemoryBudget().
  uint64_t memory_budget = 0;
  // Streams idle this long are cut (see idle_watchdog.h); infinite: never.
  absl::Duration stream_idle_timeout = absl::Seconds(30);
};

class Server {
 public:
  // UNAVAILABLE when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<Server>> Start(const ServerOptions& options);
  ~Server();  // Shutdown()

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The listening address with the port actually bound, e.g. "0.0.0.0:40123".
  const std::string& address() const { return address_; }
  int port() const { return port_; }

  // What the running calls have reserved, out of what capacity.
  const MemoryBudget& memory_budget() const { return service_->memory_budget(); }

  // Turns health to NOT_SERVING, refuses new calls (UNAVAILABLE), lets
  // in-flight calls run for up to the grace period, cancels the rest and
  // returns once all have ended and the connections are closed. Idempotent.
  void Shutdown();

 private:
  Server(std::unique_ptr<NQueensService> service, absl::Duration grace);

  // Declared before grpc_server_: the server must go first.
  std::unique_ptr<NQueensService> service_;
  std::unique_ptr<grpc::Server> grpc_server_;
  absl::Duration grace_;
  int port_ = 0;
  std::string address_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SERVER_H_

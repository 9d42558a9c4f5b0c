// The HTTP endpoint Prometheus scrapes (--metrics-listen): GET /metrics in
// the text format, served by civetweb (the web server prometheus-cpp embeds)
// on threads and a port of its own, apart from gRPC's. Not prometheus-cpp's
// Exposer: it adds a summary of its own whose quantiles read "Nan" between
// scrapes, which stock dashboards and alerts stumble on.
#ifndef NQUEENS_SERVER_OBSERVABILITY_METRICS_ENDPOINT_H_
#define NQUEENS_SERVER_OBSERVABILITY_METRICS_ENDPOINT_H_

#include <prometheus/collectable.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

class CivetServer;

namespace nqueens::server {

// The web server (civetweb) gives each connection a thread of its own from
// its request's first byte to the end of the answer, and by default waits
// 30 s for a request: two connections that sent half a request took both of
// prometheus-cpp's default 2 threads, and scrapes waited. With this many
// threads, a few slow or idle connections leave room for scrapes, and none
// holds a thread longer than the request timeout. (A client that opens more
// than this many connections every few seconds still delays scrapes: keep
// the port reachable by Prometheus alone, as deploy/networkpolicy.yaml does.)
inline constexpr int kMetricsThreads = 32;
inline constexpr absl::Duration kMetricsRequestTimeout = absl::Seconds(5);

class MetricsEndpoint {
 public:
  // Serves `collectables` on `address` (HOST:PORT, HOST an IPv4 address; port
  // 0 picks a free port). INVALID_ARGUMENT when `address` is not HOST:PORT;
  // UNAVAILABLE when it cannot be served, in one line that names the address
  // and why: "cannot serve metrics on 127.0.0.1:9100 (--metrics-listen):
  // Address already in use".
  static absl::StatusOr<std::unique_ptr<MetricsEndpoint>> Start(
      const std::string& address,
      std::vector<std::shared_ptr<prometheus::Collectable>> collectables);

  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  // The port actually bound.
  int port() const { return port_; }

 private:
  class Page;  // GET /metrics

  MetricsEndpoint(std::unique_ptr<Page> page, std::unique_ptr<CivetServer> server);

  // Declared before the web server, which serves them: they go after it has
  // stopped.
  const std::unique_ptr<Page> page_;
  const std::unique_ptr<CivetServer> server_;
  const int port_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_METRICS_ENDPOINT_H_

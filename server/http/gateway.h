// The HTTP face of the server (--http-listen): the unary calls as JSON
// routes (routes.h), GET /healthz, the OpenAPI document at GET
// /openapi.json and the playground page at GET /, on a port of its own,
// served by libmicrohttpd with a thread per connection.
//
// A request's call goes over the server's in-process channel
// (forwarded_call.h), so that it is checked, queued, limited, logged and
// counted as a gRPC call is. What the gateway itself holds (the body, the
// answer) comes out of the memory budget before it reads the body.
#ifndef NQUEENS_SERVER_HTTP_GATEWAY_H_
#define NQUEENS_SERVER_HTTP_GATEWAY_H_

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "server/limits/memory_budget.h"
#include "server/security/tls.h"

struct MHD_Daemon;
struct MHD_Connection;

namespace nqueens::server::http {

class CertificateReloader;  // certificate_reloader.h

struct GatewayOptions {
  // HOST:PORT (IPv4, [IPv6] or a name); port 0 picks a free one.
  std::string listen;
  // Larger request bodies get 413.
  uint64_t max_request_bytes = uint64_t{4} << 20;
  // With a certificate, the port speaks HTTPS only (and wants a client
  // certificate signed by client_ca_file when that is set).
  TlsOptions tls;
  // The origin ("https://app.example.com") whose pages may call the /v1/
  // routes from a browser (CORS); empty: none, and preflights get 405.
  std::string cors_origin;
  // Called with the HTTP status of each request refused before any call
  // (the calls have their own metrics); may be empty.
  std::function<void(int http_status)> count_refusal;
};

// INVALID_ARGUMENT unless `origin` is empty or one origin as a browser sends
// it: http or https, a host and maybe a port, in lower case, nothing more.
absl::Status CheckCorsOrigin(absl::string_view origin);

// Connections at once; each holds a thread. More wait in the kernel's
// accept queue.
inline constexpr unsigned kMaxConnections = 256;
// A connection that sends nothing for this long is closed.
inline constexpr unsigned kIdleSeconds = 30;
inline constexpr absl::Duration kStopAtMost = absl::Seconds(1);

class Gateway {
 public:
  // `channel`: the server's in-process channel; `budget`: the server's
  // memory budget; `serving`: what GET /healthz reports. INVALID_ARGUMENT
  // for a malformed address or unusable TLS files, UNAVAILABLE naming the
  // address when it cannot be served.
  static absl::StatusOr<std::unique_ptr<Gateway>> Start(const GatewayOptions& options,
                                                        std::shared_ptr<grpc::Channel> channel,
                                                        MemoryBudget& budget,
                                                        std::function<bool()> serving);
  // Accepts no more connections, lets the requests in progress send their
  // answers for up to kStopAtMost (the server drained their calls first),
  // then closes the connections and waits for their threads; calls still
  // going are cancelled.
  ~Gateway();

  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;

  int port() const { return port_; }

  class Exchange;  // one request, from its headers to its answer

 private:
  Gateway(const GatewayOptions& options, std::shared_ptr<grpc::Channel> channel,
          MemoryBudget& budget, std::function<bool()> serving);

  const GatewayOptions options_;
  const std::shared_ptr<grpc::Channel> channel_;
  grpc::GenericStub stub_;
  MemoryBudget& budget_;
  const std::function<bool()> serving_;
  // With TLS: the files, read again for new connections while the daemon runs.
  std::unique_ptr<CertificateReloader> certificates_;
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
  // Requests between their first byte and the end of their answer.
  absl::Mutex mutex_;
  int exchanges_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_GATEWAY_H_

#include "server/observability/metrics_endpoint.h"

#include <CivetServer.h>
#include <arpa/inet.h>
#include <prometheus/text_serializer.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "server/base/listen_probe.h"

namespace nqueens::server {

// The page: every collectable's families in Prometheus' text format, read
// afresh for each scrape.
class MetricsEndpoint::Page : public CivetHandler {
 public:
  explicit Page(std::vector<std::shared_ptr<prometheus::Collectable>> collectables)
      : collectables_(std::move(collectables)) {}

  bool handleGet(CivetServer* /*server*/, mg_connection* connection) override {
    std::vector<prometheus::MetricFamily> families;
    for (const std::shared_ptr<prometheus::Collectable>& collectable : collectables_) {
      std::vector<prometheus::MetricFamily> collected = collectable->Collect();
      families.insert(families.end(), std::make_move_iterator(collected.begin()),
                      std::make_move_iterator(collected.end()));
    }
    const std::string body = prometheus::TextSerializer().Serialize(families);
    mg_printf(connection,
              "HTTP/1.1 200 OK\r\n"
              "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
              "Content-Length: %zu\r\n\r\n",
              body.size());
    mg_write(connection, body.data(), body.size());
    return true;
  }

 private:
  const std::vector<std::shared_ptr<prometheus::Collectable>> collectables_;
};

absl::StatusOr<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::Start(
    const std::string& address,
    std::vector<std::shared_ptr<prometheus::Collectable>> collectables) {
  // The web server would also take a port alone, or a list; Debian's is
  // built without IPv6.
  const size_t colon = address.rfind(':');
  in_addr ipv4{};
  if (colon == std::string::npos || address.find(',') != std::string::npos ||
      inet_pton(AF_INET, address.substr(0, colon).c_str(), &ipv4) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics-listen ", address, " is not one IPV4-ADDRESS:PORT"));
  }
  if (const std::optional<std::string> why = WhyCannotListen(address)) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", address, " (--metrics-listen): ", *why));
  }
  auto page = std::make_unique<Page>(std::move(collectables));
  std::unique_ptr<CivetServer> server;
  try {
    server = std::make_unique<CivetServer>(std::vector<std::string>{
        "listening_ports", address, "num_threads", std::to_string(kMetricsThreads),
        "request_timeout_ms", std::to_string(absl::ToInt64Milliseconds(kMetricsRequestTimeout))});
  } catch (const CivetException&) {  // taken between the probe and now
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", address, " (--metrics-listen)"));
  }
  server->addHandler("/metrics", *page);
  return std::unique_ptr<MetricsEndpoint>(new MetricsEndpoint(std::move(page), std::move(server)));
}

MetricsEndpoint::MetricsEndpoint(std::unique_ptr<Page> page, std::unique_ptr<CivetServer> server)
    : page_(std::move(page)),
      server_(std::move(server)),
      port_(server_->getListeningPorts().front()) {}

MetricsEndpoint::~MetricsEndpoint() = default;

}  // namespace nqueens::server

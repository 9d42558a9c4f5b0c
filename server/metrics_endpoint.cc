#include "server/metrics_endpoint.h"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace nqueens::server {

absl::StatusOr<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::Start(
    const std::string& address,
    std::vector<std::shared_ptr<prometheus::Collectable>> collectables) {
  // The web server would also take a port alone, or a list.
  if (address.rfind(':') == std::string::npos || address.find(',') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics-listen ", address, " is not one HOST:PORT"));
  }
  std::unique_ptr<prometheus::Exposer> exposer;
  try {
    // The web server throws when it cannot listen.
    exposer = std::make_unique<prometheus::Exposer>(std::vector<std::string>{
        "listening_ports", address, "num_threads", std::to_string(kMetricsThreads),
        "request_timeout_ms", std::to_string(absl::ToInt64Milliseconds(kMetricsRequestTimeout))});
  } catch (const std::exception& error) {
    return absl::UnavailableError(
        absl::StrCat("could not serve metrics on ", address,
                     " (--metrics-listen: the address is taken, or not an IPv4 address and port of "
                     "this machine's): ",
                     error.what()));
  }
  for (const std::shared_ptr<prometheus::Collectable>& collectable : collectables) {
    exposer->RegisterCollectable(collectable);
  }
  return std::unique_ptr<MetricsEndpoint>(
      new MetricsEndpoint(std::move(collectables), std::move(exposer)));
}

MetricsEndpoint::MetricsEndpoint(std::vector<std::shared_ptr<prometheus::Collectable>> collectables,
                                 std::unique_ptr<prometheus::Exposer> exposer)
    : collectables_(std::move(collectables)),
      exposer_(std::move(exposer)),
      port_(exposer_->GetListeningPorts().front()) {}

}  // namespace nqueens::server

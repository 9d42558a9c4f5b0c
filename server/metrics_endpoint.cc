#include "server/metrics_endpoint.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace nqueens::server {
namespace {

// Why `address` (HOST:PORT) cannot be listened on, found by binding it as
// the web server would: its own error names none of this.
std::string WhyNotServed(const std::string& address) {
  const size_t colon = address.rfind(':');
  const std::string host = address.substr(0, colon);
  int port = 0;
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  if (!absl::SimpleAtoi(address.substr(colon + 1), &port) || port < 0 || port > 65535) {
    return "not a port number";
  }
  socket_address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &socket_address.sin_addr) != 1) {
    return "not an IPv4 address";
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::strerror(errno);
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  const int bound =
      bind(fd, reinterpret_cast<const sockaddr*>(&socket_address), sizeof(socket_address));
  const int error = bound == 0 ? 0 : errno;
  close(fd);
  switch (error) {
    case 0:
      return "the web server could not listen";
    case EADDRINUSE:
      return "address in use";
    case EADDRNOTAVAIL:
      return "not an address of this machine";
    case EACCES:
      return "permission denied";
    default:
      return std::strerror(error);
  }
}

}  // namespace

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
  } catch (const std::exception&) {
    return absl::UnavailableError(absl::StrCat("cannot serve metrics on ", address,
                                               " (--metrics-listen): ", WhyNotServed(address)));
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

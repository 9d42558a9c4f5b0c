#include "server/base/listen_probe.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/strings/strip.h"

namespace nqueens::server {
namespace {

// errno of binding one resolved address (0: it could be bound).
int BindError(const addrinfo& address) {
  const int fd = socket(address.ai_family, address.ai_socktype | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  // As gRPC's listener sets it: a port in TIME_WAIT only is free.
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  const int error = bind(fd, address.ai_addr, address.ai_addrlen) == 0 ? 0 : errno;
  close(fd);
  return error;
}

}  // namespace

std::optional<std::string> WhyCannotListen(const std::string& address) {
  const size_t colon = address.rfind(':');
  const std::string port = address.substr(colon + 1);
  absl::string_view host(address.data(), colon);
  if (absl::ConsumePrefix(&host, "[")) absl::ConsumeSuffix(&host, "]");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* resolved = nullptr;
  const int lookup = getaddrinfo(std::string(host).c_str(), port.c_str(), &hints, &resolved);
  if (lookup != 0) return gai_strerror(lookup);
  const std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned(resolved, freeaddrinfo);
  int first_error = 0;
  for (const addrinfo* entry = resolved; entry != nullptr; entry = entry->ai_next) {
    const int error = BindError(*entry);
    if (error == 0) return std::nullopt;
    if (first_error == 0) first_error = error;
  }
  return std::strerror(first_error);
}

}  // namespace nqueens::server

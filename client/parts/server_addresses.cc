#include "client/parts/server_addresses.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace nqueens::client {
namespace {

struct HostPort {
  std::string host;  // without an IPv6 address's brackets
  std::string port;  // empty when absent
};

// "HOST:PORT", "HOST", "[IPV6]:PORT" or "[IPV6]"; nullopt for "[::1" and
// the like.
std::optional<HostPort> SplitHostPort(absl::string_view address) {
  if (absl::ConsumePrefix(&address, "[")) {
    const size_t close = address.find(']');
    if (close == absl::string_view::npos) return std::nullopt;
    absl::string_view rest = address.substr(close + 1);
    if (!rest.empty() && !absl::ConsumePrefix(&rest, ":")) return std::nullopt;
    return HostPort{std::string(address.substr(0, close)), std::string(rest)};
  }
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return HostPort{std::string(address), ""};
  return HostPort{std::string(address.substr(0, colon)), std::string(address.substr(colon + 1))};
}

// The address as ipv4: or ipv6: names it; nullopt when `host` is no IP
// address of `family` (AF_UNSPEC: either).
std::optional<ServerAddress> LiteralAddress(const HostPort& address, int family) {
  std::array<unsigned char, sizeof(in6_addr)> bytes{};
  if ((family == AF_UNSPEC || family == AF_INET) &&
      inet_pton(AF_INET, address.host.c_str(), bytes.data()) == 1) {
    const std::string name = absl::StrCat(address.host, ":", address.port);
    return ServerAddress{absl::StrCat("ipv4:", name), name, "", ""};
  }
  if ((family == AF_UNSPEC || family == AF_INET6) &&
      inet_pton(AF_INET6, address.host.c_str(), bytes.data()) == 1) {
    const std::string name = absl::StrCat("[", address.host, "]:", address.port);
    return ServerAddress{absl::StrCat("ipv6:", name), name, "", ""};
  }
  return std::nullopt;
}

// ipv4:A:P,B:Q or ipv6:[A]:P,[B]:Q, whose `list` follows the scheme.
absl::StatusOr<std::vector<ServerAddress>> AddressList(absl::string_view target,
                                                       absl::string_view list, int family) {
  std::vector<ServerAddress> servers;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    const std::optional<HostPort> split = SplitHostPort(item);
    std::optional<ServerAddress> address;
    if (split.has_value() && !split->port.empty()) address = LiteralAddress(*split, family);
    if (!address.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--server ", target, ": \"", item, "\" is no ",
                       family == AF_INET ? "IPV4:PORT" : "[IPV6]:PORT", " address"));
    }
    servers.push_back(*std::move(address));
  }
  return servers;
}

// Every address `host` resolves to, with `port`.
absl::StatusOr<std::vector<ServerAddress>> Lookup(const HostPort& address) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int error = getaddrinfo(address.host.c_str(), address.port.c_str(), &hints, &found);
  if (error != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot resolve ", address.host, ": ", gai_strerror(error)));
  }
  std::vector<ServerAddress> servers;
  for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
    std::array<char, INET6_ADDRSTRLEN> text{};
    const void* bytes =
        entry->ai_family == AF_INET
            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(entry->ai_addr)->sin_addr)
            : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(entry->ai_addr)->sin6_addr);
    if ((entry->ai_family != AF_INET && entry->ai_family != AF_INET6) ||
        inet_ntop(entry->ai_family, bytes, text.data(), text.size()) == nullptr) {
      continue;
    }
    std::optional<ServerAddress> server =
        LiteralAddress(HostPort{text.data(), address.port}, entry->ai_family);
    if (!server.has_value()) continue;
    server->host_name = address.host;
    server->authority = absl::StrCat(address.host, ":", address.port);
    servers.push_back(*std::move(server));
  }
  freeaddrinfo(found);
  if (servers.empty()) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", address.host, ": no address"));
  }
  return servers;
}

// HOST:PORT: an IP address as it is, a name as every address it has.
absl::StatusOr<std::vector<ServerAddress>> HostAddresses(absl::string_view target,
                                                         absl::string_view address,
                                                         absl::string_view default_port) {
  std::optional<HostPort> split = SplitHostPort(address);
  if (!split.has_value() || split->host.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--server ", target, ": expected HOST:PORT or [IPV6]:PORT"));
  }
  if (split->port.empty()) split->port = std::string(default_port);
  if (std::optional<ServerAddress> literal = LiteralAddress(*split, AF_UNSPEC)) {
    return std::vector<ServerAddress>{*std::move(literal)};
  }
  return Lookup(*split);
}

// The servers in their first order, each once.
std::vector<ServerAddress> WithoutRepeats(std::vector<ServerAddress> servers) {
  std::vector<ServerAddress> kept;
  for (ServerAddress& server : servers) {
    const bool seen = std::any_of(kept.begin(), kept.end(), [&](const ServerAddress& other) {
      return other.target == server.target;
    });
    if (!seen) kept.push_back(std::move(server));
  }
  return kept;
}

}  // namespace

absl::StatusOr<std::vector<ServerAddress>> ResolveServers(const std::string& target) {
  absl::string_view rest = target;
  absl::StatusOr<std::vector<ServerAddress>> servers;
  if (absl::ConsumePrefix(&rest, "ipv4:")) {
    servers = AddressList(target, rest, AF_INET);
  } else if (absl::ConsumePrefix(&rest, "ipv6:")) {
    servers = AddressList(target, rest, AF_INET6);
  } else if (absl::ConsumePrefix(&rest, "dns:")) {
    // dns:HOST:PORT, dns:///HOST:PORT or dns://AUTHORITY/HOST:PORT; the
    // system's resolver stands in for AUTHORITY's.
    if (absl::ConsumePrefix(&rest, "//")) {
      const size_t slash = rest.find('/');
      rest = slash == absl::string_view::npos ? absl::string_view() : rest.substr(slash + 1);
    }
    servers = HostAddresses(target, rest, "443");
  } else if (absl::StrContains(target, "://") || absl::StartsWith(target, "unix:")) {
    servers = std::vector<ServerAddress>{{target, target, "", ""}};
  } else {
    servers = HostAddresses(target, target, "");
  }
  if (!servers.ok()) return servers.status();
  return WithoutRepeats(*std::move(servers));
}

}  // namespace nqueens::client

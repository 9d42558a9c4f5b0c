#include "client/parts/server_addresses.h"

#include <arpa/inet.h>
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
#include "client/parts/dns_lookup.h"

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

// Every address of `address.host` (at `dns_server`, LookUpHost), with
// `address.port` and the name kept for TLS and the calls' authority.
absl::StatusOr<std::vector<ServerAddress>> NameAddresses(const HostPort& address,
                                                         absl::string_view dns_server) {
  absl::StatusOr<std::vector<std::string>> found = LookUpHost(address.host, dns_server);
  if (!found.ok()) return found.status();
  std::vector<ServerAddress> servers;
  for (const std::string& text : *found) {
    std::optional<ServerAddress> server = LiteralAddress(HostPort{text, address.port}, AF_UNSPEC);
    if (!server.has_value()) continue;
    server->host_name = address.host;
    server->authority = absl::StrCat(address.host, ":", address.port);
    servers.push_back(*std::move(server));
  }
  return servers;
}

// A target that names its servers by a host, as HOST:PORT (the port may be
// missing) to be looked up.
struct NamedHost {
  absl::string_view address;
  absl::string_view dns_server;    // dns://AUTHORITY/'s; empty: the system's resolver
  absl::string_view default_port;  // for a missing port
};

// dns:HOST:PORT, dns:///HOST:PORT, dns://AUTHORITY/HOST:PORT and HOST:PORT
// taken apart; nullopt for the targets of other schemes.
std::optional<NamedHost> NamedHostOf(absl::string_view target) {
  if (absl::ConsumePrefix(&target, "dns:")) {
    NamedHost named{target, "", "443"};  // gRPC's default port for dns:
    if (absl::ConsumePrefix(&named.address, "//")) {
      const size_t slash = named.address.find('/');
      named.dns_server = named.address.substr(0, slash);
      named.address = slash == absl::string_view::npos ? "" : named.address.substr(slash + 1);
    }
    return named;
  }
  if (absl::StartsWith(target, "ipv4:") || absl::StartsWith(target, "ipv6:") ||
      absl::StartsWith(target, "unix:") || absl::StrContains(target, "://")) {
    return std::nullopt;
  }
  return NamedHost{target, "", ""};
}

// `named` split into host and port, the port defaulted; nullopt when
// malformed.
std::optional<HostPort> HostAndPort(const NamedHost& named) {
  std::optional<HostPort> split = SplitHostPort(named.address);
  if (!split.has_value() || split->host.empty()) return std::nullopt;
  if (split->port.empty()) split->port = std::string(named.default_port);
  return split;
}

// The servers of `named`: an IP address as it is, a name as every address
// it has.
absl::StatusOr<std::vector<ServerAddress>> HostAddresses(absl::string_view target,
                                                         const NamedHost& named) {
  const std::optional<HostPort> split = HostAndPort(named);
  if (!split.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--server ", target, ": expected HOST:PORT or [IPV6]:PORT"));
  }
  if (std::optional<ServerAddress> literal = LiteralAddress(*split, AF_UNSPEC)) {
    return std::vector<ServerAddress>{*std::move(literal)};
  }
  absl::StatusOr<std::vector<ServerAddress>> servers = NameAddresses(*split, named.dns_server);
  if (servers.status().code() == absl::StatusCode::kInvalidArgument) {
    return absl::InvalidArgumentError(
        absl::StrCat("--server ", target, ": ", servers.status().message()));
  }
  return servers;
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
  } else if (const std::optional<NamedHost> named = NamedHostOf(target)) {
    servers = HostAddresses(target, *named);
  } else {
    servers = std::vector<ServerAddress>{{target, target, "", ""}};
  }
  if (!servers.ok()) return servers.status();
  return WithoutRepeats(*std::move(servers));
}

bool NamesServersByName(const std::string& target) {
  const std::optional<NamedHost> named = NamedHostOf(target);
  if (!named.has_value()) return false;
  const std::optional<HostPort> split = HostAndPort(*named);
  return split.has_value() && !LiteralAddress(*split, AF_UNSPEC).has_value();
}

}  // namespace nqueens::client

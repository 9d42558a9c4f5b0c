// The servers behind one --server target, each to be reached on a channel of
// its own: a job cut into parts keeps a window of parts on every server,
// which one round_robin channel over them all cannot do.
#ifndef NQUEENS_CLIENT_PARTS_SERVER_ADDRESSES_H_
#define NQUEENS_CLIENT_PARTS_SERVER_ADDRESSES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace nqueens::client {

struct ServerAddress {
  // A gRPC target naming this server alone: "ipv4:10.0.0.1:50051",
  // "ipv6:[::1]:50051", or a target the CLI does not look into, as given.
  std::string target;
  // How messages name it: "10.0.0.1:50051".
  std::string name;
  // The DNS name the address was resolved from, which a TLS certificate is
  // checked against; empty when the address was given as such.
  std::string host_name;
  // "HOST:PORT" as given, for the :authority of the calls; empty with
  // host_name.
  std::string authority;
};

// Every server that `target` (--server) names, in its order, without
// repeats:
//   ipv4:A:P,B:Q and ipv6:[A]:P,[B]:Q   each address listed;
//   dns:///HOST:PORT and HOST:PORT   every address HOST resolves to now
//     (getaddrinfo; a headless Service's name gives every ready pod);
//   dns://AUTHORITY/HOST:PORT   the same as the DNS server AUTHORITY
//     (IPV4 or IPV4:PORT) answers, as gRPC asks it (dns_lookup.h);
//     the port defaults to 443 for dns:, as gRPC's;
//   [IPV6]:PORT, IPV4:PORT   that one;
//   any other scheme (unix:, ...)   one server, the target as is.
// UNAVAILABLE naming HOST when it does not resolve; INVALID_ARGUMENT for a
// malformed list or AUTHORITY.
absl::StatusOr<std::vector<ServerAddress>> ResolveServers(const std::string& target);

// Whether `target` names its servers by a host name (dns:, HOST:PORT), whose
// addresses may change while a job runs, rather than by addresses.
bool NamesServersByName(const std::string& target);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_SERVER_ADDRESSES_H_

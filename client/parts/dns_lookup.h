// A host name's addresses, looked up as a gRPC target asks: by the system's
// resolver for dns:///HOST:PORT and HOST:PORT, and by the DNS server that
// AUTHORITY names for dns://AUTHORITY/HOST:PORT.
#ifndef NQUEENS_CLIENT_PARTS_DNS_LOOKUP_H_
#define NQUEENS_CLIENT_PARTS_DNS_LOOKUP_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::client {

// Every address of `host` as text ("10.0.0.1", "fd00::1"), each once, in
// the order of the answer. `dns_server` empty: the system's resolver
// (getaddrinfo, with /etc/hosts and the search domains). Else the DNS server
// at `dns_server`, "IPV4" or "IPV4:PORT" (port 53 unless given), is asked
// for the A and AAAA records of `host` as given (glibc's res_nquery: no
// search domains, the retries and timeouts of /etc/resolv.conf).
// UNAVAILABLE naming `host` (and the DNS server) when it has no address or
// the server does not answer; INVALID_ARGUMENT when `dns_server` is no
// IPv4 address with an optional port.
absl::StatusOr<std::vector<std::string>> LookUpHost(const std::string& host,
                                                    absl::string_view dns_server);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_DNS_LOOKUP_H_

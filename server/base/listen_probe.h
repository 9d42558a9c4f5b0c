// Whether an address can be listened on, asked of the kernel before gRPC or
// the metrics' web server binds it: gRPC's own failure is a 900-character log
// line that says neither which address nor why ("No address added out of
// total 1 resolved"), the web server's names its internals.
#ifndef NQUEENS_SERVER_BASE_LISTEN_PROBE_H_
#define NQUEENS_SERVER_BASE_LISTEN_PROBE_H_

#include <optional>
#include <string>

namespace nqueens::server {

// Binds a socket to each address that HOST:PORT (or [IPV6]:PORT) resolves
// to, then closes it. nullopt when one of them could be bound, as gRPC
// needs; else the reason the kernel or the resolver gave ("Address already
// in use", "Cannot assign requested address", "Name or service not known").
// Port 0 asks whether any port of the host could be bound.
std::optional<std::string> WhyCannotListen(const std::string& address);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_BASE_LISTEN_PROBE_H_

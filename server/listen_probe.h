// Whether an address can be listened on, asked of the kernel before gRPC
// binds it: gRPC's own failure is a 900-character log line that says neither
// which address nor why ("No address added out of total 1 resolved").
#ifndef NQUEENS_SERVER_LISTEN_PROBE_H_
#define NQUEENS_SERVER_LISTEN_PROBE_H_

#include <string>

#include "absl/status/status.h"

namespace nqueens::server {

// Binds a socket to each address that HOST:PORT (or [IPV6]:PORT) resolves
// to, then closes it. OK when one of them could be bound, as gRPC needs; else
// UNAVAILABLE "cannot listen on ADDRESS: REASON", the reason the kernel or
// the resolver gave ("Address already in use", "Cannot assign requested
// address", "Name or service not known"). Port 0 is always free.
absl::Status ProbeListenAddress(const std::string& address);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LISTEN_PROBE_H_

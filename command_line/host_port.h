// Addresses as the flags take them (--listen, --health-listen, the CLI's
// --server): HOST:PORT, or [IPV6]:PORT. gRPC itself takes a missing port as
// 443 and a port above 65535 modulo 65536 (99999 became 34463), so both
// binaries check the form before gRPC sees it.
#ifndef NQUEENS_COMMAND_LINE_HOST_PORT_H_
#define NQUEENS_COMMAND_LINE_HOST_PORT_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace nqueens::command_line {

enum class PortZero { kAllowed, kRefused };  // 0: "pick a free port", for listening

// OK when `address` is HOST:PORT or [IPV6]:PORT with a host and a port of
// 1..65535 (0 too when `zero` allows it); else INVALID_ARGUMENT naming
// `flag`, the address and what is wrong with it.
absl::Status CheckHostPort(absl::string_view flag, absl::string_view address,
                           PortZero zero = PortZero::kRefused);

}  // namespace nqueens::command_line

#endif  // NQUEENS_COMMAND_LINE_HOST_PORT_H_

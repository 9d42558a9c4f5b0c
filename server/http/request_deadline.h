// An HTTP request's deadline, which becomes its call's: a `grpc-timeout`
// header in gRPC's own form (1 to 8 digits and a unit: H, M, S, m for
// milliseconds, u, n; "500m", "2S"), or a `timeout` query parameter as
// Go and Abseil write durations ("1.5s", "250ms", "1m30s").
#ifndef NQUEENS_SERVER_HTTP_REQUEST_DEADLINE_H_
#define NQUEENS_SERVER_HTTP_REQUEST_DEADLINE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nqueens::server::http {

// How long the request may take from `now`: absl::InfiniteDuration() when
// neither is given (empty), the header when both are. INVALID_ARGUMENT
// naming the header or the parameter when it is malformed or not positive.
absl::StatusOr<absl::Duration> RequestTimeout(absl::string_view grpc_timeout_header,
                                              absl::string_view timeout_parameter);

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_REQUEST_DEADLINE_H_

// How the HTTP face answers a gRPC status: the HTTP status grpc-gateway
// gives each code (runtime.HTTPStatusFromCode), and the JSON body of an
// error, {"code": 3, "status": "INVALID_ARGUMENT", "message": "...",
// "requestId": "..."}, where `code` is gRPC's number and `status` its name.
#ifndef NQUEENS_SERVER_HTTP_HTTP_STATUS_H_
#define NQUEENS_SERVER_HTTP_HTTP_STATUS_H_

#include <grpcpp/support/status.h>

#include <string>

#include "absl/strings/string_view.h"

namespace nqueens::server::http {

// 499 for CANCELLED (the client closed the request), 500 for codes out of
// gRPC's range.
int HttpStatusOf(grpc::StatusCode code);

// "INVALID_ARGUMENT" for code 3.
const char* StatusName(grpc::StatusCode code);

// The error body; `request_id` empty for errors before any call began (an
// unknown path, a body too large).
std::string ErrorBody(grpc::StatusCode code, absl::string_view message,
                      absl::string_view request_id);

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_HTTP_STATUS_H_

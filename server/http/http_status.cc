#include "server/http/http_status.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "server/observability/logging.h"

namespace nqueens::server::http {
namespace {

struct CodeMapping {
  const char* name;
  int http_status;
};

// Indexed by gRPC code, OK (0) to UNAUTHENTICATED (16).
constexpr std::array<CodeMapping, 17> kCodes = {{
    {"OK", 200},
    {"CANCELLED", 499},
    {"UNKNOWN", 500},
    {"INVALID_ARGUMENT", 400},
    {"DEADLINE_EXCEEDED", 504},
    {"NOT_FOUND", 404},
    {"ALREADY_EXISTS", 409},
    {"PERMISSION_DENIED", 403},
    {"RESOURCE_EXHAUSTED", 429},
    {"FAILED_PRECONDITION", 400},
    {"ABORTED", 409},
    {"OUT_OF_RANGE", 400},
    {"UNIMPLEMENTED", 501},
    {"INTERNAL", 500},
    {"UNAVAILABLE", 503},
    {"DATA_LOSS", 500},
    {"UNAUTHENTICATED", 401},
}};

const CodeMapping& MappingOf(grpc::StatusCode code) {
  const int index = static_cast<int>(code);
  return index >= 0 && index < static_cast<int>(kCodes.size()) ? kCodes[index]
                                                               : kCodes[grpc::StatusCode::UNKNOWN];
}

}  // namespace

int HttpStatusOf(grpc::StatusCode code) { return MappingOf(code).http_status; }

const char* StatusName(grpc::StatusCode code) { return MappingOf(code).name; }

std::string ErrorBody(grpc::StatusCode code, absl::string_view message,
                      absl::string_view request_id) {
  return absl::StrCat(
      "{\"code\":", static_cast<int>(code), ",\"status\":", JsonString(StatusName(code)),
      ",\"message\":", JsonString(message), ",\"requestId\":", JsonString(request_id), "}");
}

}  // namespace nqueens::server::http

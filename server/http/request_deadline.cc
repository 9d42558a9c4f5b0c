#include "server/http/request_deadline.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace nqueens::server::http {
namespace {

absl::StatusOr<absl::Duration> GrpcTimeout(absl::string_view text) {
  const auto malformed = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("the grpc-timeout header \"", text,
                     "\" is not 1 to 8 digits and a unit (H, M, S, m, u or n), e.g. 500m or 2S"));
  };
  if (text.size() < 2 || text.size() > 9) return malformed();
  const absl::string_view digits = text.substr(0, text.size() - 1);
  int64_t amount = 0;
  for (const char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return malformed();
  }
  if (!absl::SimpleAtoi(digits, &amount)) return malformed();
  absl::Duration timeout;
  switch (text.back()) {
    case 'H':
      timeout = absl::Hours(amount);
      break;
    case 'M':
      timeout = absl::Minutes(amount);
      break;
    case 'S':
      timeout = absl::Seconds(amount);
      break;
    case 'm':
      timeout = absl::Milliseconds(amount);
      break;
    case 'u':
      timeout = absl::Microseconds(amount);
      break;
    case 'n':
      timeout = absl::Nanoseconds(amount);
      break;
    default:
      return malformed();
  }
  if (timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("the grpc-timeout header must be positive");
  }
  return timeout;
}

absl::StatusOr<absl::Duration> TimeoutParameter(absl::string_view text) {
  absl::Duration timeout;
  if (!absl::ParseDuration(text, &timeout) || timeout <= absl::ZeroDuration() ||
      timeout == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the timeout parameter \"", text,
                     "\" is not a positive duration such as 1.5s, 250ms or 1m30s"));
  }
  return timeout;
}

}  // namespace

absl::StatusOr<absl::Duration> RequestTimeout(absl::string_view grpc_timeout_header,
                                              absl::string_view timeout_parameter) {
  if (!grpc_timeout_header.empty()) return GrpcTimeout(grpc_timeout_header);
  if (!timeout_parameter.empty()) return TimeoutParameter(timeout_parameter);
  return absl::InfiniteDuration();
}

}  // namespace nqueens::server::http

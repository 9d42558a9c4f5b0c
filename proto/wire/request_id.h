// A call's request id (x-request-id metadata). A client may send one; the
// server keeps a usable one or makes its own, logs it with the call and
// echoes it in the response's initial metadata, so that an error a client
// reports can be found in the server's log.
#ifndef NQUEENS_WIRE_REQUEST_ID_H_
#define NQUEENS_WIRE_REQUEST_ID_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace nqueens::wire {

inline constexpr char kRequestIdKey[] = "x-request-id";
inline constexpr size_t kMaxRequestIdLength = 128;

// 1 to kMaxRequestIdLength visible ASCII characters ('!' to '~'): no
// spaces or control characters to garble a log line, and bounded.
bool IsUsableRequestId(absl::string_view id);

// 128 random bits as 32 lowercase hex digits.
std::string NewRequestId();

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_REQUEST_ID_H_

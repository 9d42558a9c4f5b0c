// A response message carrying a whole board (SolveResponse,
// CompleteResponse), serialized without copying the board into the message:
// the rest of the message is serialized by protobuf, the board appended as
// its packed field by hand (a message's fields may come in any order). On
// huge boards the copy and protobuf's serialization left the call unable to
// stop for long (docs/constants.md, kRowsBetweenChecks); this one looks at
// the call every kRowsBetweenChecks.
#ifndef NQUEENS_SERVER_RPC_BOARD_MESSAGE_H_
#define NQUEENS_SERVER_RPC_BOARD_MESSAGE_H_

#include <google/protobuf/message_lite.h>
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace nqueens::server {

inline constexpr size_t kRowsBetweenChecks = size_t{1} << 20;

// `head` with `columns` as its packed repeated uint32 field `field_number`
// (which `head` must leave empty), serialized; or the first error
// `still_going` returns (it is asked every kRowsBetweenChecks rows).
absl::StatusOr<grpc::ByteBuffer> SerializeWithBoard(
    const google::protobuf::MessageLite& head, int field_number, absl::Span<const uint32_t> columns,
    const std::function<absl::Status()>& still_going);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_BOARD_MESSAGE_H_

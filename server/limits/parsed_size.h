// How much memory a request message takes once parsed, bounded from its
// bytes on the wire before it is parsed, so that the call can reserve it
// from the memory budget first. A parsed message can take far more than its
// bytes: a Queen of 2 bytes on the wire is an object, a pointer to it and a
// malloc header; a CompleteBatchRequest item of 2 bytes is a whole
// CompleteRequest. The bound walks the wire format once with the message's
// descriptor, counting what the parser will make of each field.
#ifndef NQUEENS_SERVER_LIMITS_PARSED_SIZE_H_
#define NQUEENS_SERVER_LIMITS_PARSED_SIZE_H_

#include <google/protobuf/descriptor.h>
#include <grpcpp/grpcpp.h>

#include <cstdint>

#include "absl/status/statusor.h"

namespace nqueens::server {

// At least what parsing `bytes` as a `type` message allocates, the top
// message object included (not the bytes themselves). INVALID_ARGUMENT when
// the bytes are not a message of the wire format (the parser would refuse
// them too), naming `what`.
absl::StatusOr<uint64_t> ParsedBytesBound(const grpc::ByteBuffer& bytes,
                                          const google::protobuf::Descriptor& type,
                                          const std::string& what);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_PARSED_SIZE_H_

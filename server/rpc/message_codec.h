// A proto message to and from the grpc::ByteBuffer in which the reactors
// receive and send it (reactors.h says why as bytes): a parse error names
// the message, and what a message takes in memory parsed is known before it
// is parsed, to be reserved first. Apart from the stream I/O (stream_io.h),
// which uses it, so that what needs the codec alone (the handlers, the
// reactors of Count, Enumerate and CompleteBatch) includes it alone.
#ifndef NQUEENS_SERVER_RPC_MESSAGE_CODEC_H_
#define NQUEENS_SERVER_RPC_MESSAGE_CODEC_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/proto_utils.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "server/limits/parsed_size.h"

namespace nqueens::server {

// Parses `bytes` as a `Message`: INVALID_ARGUMENT naming `what` otherwise.
template <typename Message>
absl::Status ParseMessage(grpc::ByteBuffer& bytes, const std::string& what, Message* message) {
  if (grpc::SerializationTraits<Message>::Deserialize(&bytes, message).ok()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(what, " could not be parsed as a ",
                                                 Message::descriptor()->full_name(), " message"));
}

// What a request message holds in memory while it is parsed and after: its
// bytes as received and what parsing them makes (see limits/parsed_size.h), to be
// reserved before it is parsed. INVALID_ARGUMENT, naming `what`, for bytes
// the parser would refuse.
template <typename Message>
absl::StatusOr<uint64_t> ParsingBytes(const grpc::ByteBuffer& bytes, const std::string& what) {
  absl::StatusOr<uint64_t> parsed = ParsedBytesBound(bytes, *Message::descriptor(), what);
  if (!parsed.ok()) return parsed.status();
  return bytes.Length() + *parsed;
}

template <typename Message>
grpc::ByteBuffer SerializeMessage(const Message& message) {
  grpc::ByteBuffer bytes;
  bool own_buffer = false;
  grpc::SerializationTraits<Message>::Serialize(message, &bytes, &own_buffer);
  return bytes;
}

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_MESSAGE_CODEC_H_

// The streams' chunk messages in their serialized form, written and read by
// hand: a board of 10^8 rows crosses the wire in 1,526 of them, and
// protobuf's generic code (sizing, then encoding; parsing into a repeated
// field, then copying) cost more than the transport itself. The bytes are
// exactly what protobuf writes for such a message, so either side may use
// protobuf instead.
#ifndef NQUEENS_WIRE_CHUNK_MESSAGE_H_
#define NQUEENS_WIRE_CHUNK_MESSAGE_H_

#include <grpcpp/support/byte_buffer.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::wire {

// Every stream message holds its chunk in this field (checked at compile
// time in chunk_message.cc).
inline constexpr int kChunkField = v1::CompleteStreamRequest::kChunkFieldNumber;

// A stream message whose only part is the chunk holding `columns` at rows
// offset + 1 onwards, serialized.
grpc::ByteBuffer SerializeChunkMessage(uint64_t offset, absl::Span<const uint32_t> columns);

// The chunk of a serialized stream message that is nothing but a chunk, in
// the form protobuf writes (offset, then the packed columns, each left out
// when zero or empty; no other field), read where it lies in the message's
// slices.
class SerializedChunk {
 public:
  // nullopt when `message` is not of that form (a header, an unknown field,
  // unpacked columns, a truncated value): the caller parses it with
  // protobuf, which accepts or refuses it.
  static std::optional<SerializedChunk> Find(const grpc::ByteBuffer& message);

  uint64_t offset() const { return offset_; }
  // The values it holds.
  uint64_t size() const { return size_; }

  enum class Decoded { kOk, kMalformed, kAboveMax };
  // Writes the size() values to `out`: kAboveMax at the first one above
  // `max`, kMalformed at one of more than 10 bytes (which protobuf refuses
  // too), with the value's index in `*bad`.
  Decoded Decode(uint32_t* out, uint32_t max, uint64_t* bad) const;

 private:
  std::vector<grpc::Slice> slices_;  // keep the bytes alive
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
  std::vector<absl::string_view> packed_;  // the values' bytes, slice by slice
};

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_CHUNK_MESSAGE_H_

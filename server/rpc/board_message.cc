#include "server/rpc/board_message.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace nqueens::server {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

// The bytes of `columns` as varints; the first error of `still_going`.
absl::StatusOr<size_t> PackedBytes(absl::Span<const uint32_t> columns,
                                   const std::function<absl::Status()>& still_going) {
  size_t bytes = 0;
  for (size_t start = 0; start < columns.size(); start += kRowsBetweenChecks) {
    if (absl::Status going = still_going(); !going.ok()) return going;
    const size_t end = std::min(columns.size(), start + kRowsBetweenChecks);
    for (size_t row = start; row < end; ++row) {
      bytes += CodedOutputStream::VarintSize32(columns[row]);
    }
  }
  return bytes;
}

}  // namespace

absl::StatusOr<grpc::ByteBuffer> SerializeWithBoard(
    const google::protobuf::MessageLite& head, int field_number, absl::Span<const uint32_t> columns,
    const std::function<absl::Status()>& still_going) {
  absl::StatusOr<size_t> packed = PackedBytes(columns, still_going);
  if (!packed.ok()) return packed.status();
  const size_t head_bytes = head.ByteSizeLong();
  const uint32_t tag =
      WireFormatLite::MakeTag(field_number, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  // An empty packed field is left out, as protobuf leaves it out.
  const size_t field_bytes = columns.empty()
                                 ? 0
                                 : CodedOutputStream::VarintSize32(tag) +
                                       CodedOutputStream::VarintSize64(*packed) + *packed;
  const size_t total = head_bytes + field_bytes;
  auto* buffer = static_cast<uint8_t*>(std::malloc(std::max<size_t>(total, 1)));
  if (buffer == nullptr) throw std::bad_alloc();
  grpc::Slice slice(buffer, total, [](void* memory) { std::free(memory); });  // owns it now
  uint8_t* out = head.SerializeWithCachedSizesToArray(buffer);
  if (!columns.empty()) {
    out = CodedOutputStream::WriteVarint32ToArray(tag, out);
    out = CodedOutputStream::WriteVarint64ToArray(*packed, out);
    for (size_t start = 0; start < columns.size(); start += kRowsBetweenChecks) {
      if (absl::Status going = still_going(); !going.ok()) return going;
      const size_t end = std::min(columns.size(), start + kRowsBetweenChecks);
      for (size_t row = start; row < end; ++row) {
        out = CodedOutputStream::WriteVarint32ToArray(columns[row], out);
      }
    }
  }
  return grpc::ByteBuffer(&slice, 1);
}

}  // namespace nqueens::server

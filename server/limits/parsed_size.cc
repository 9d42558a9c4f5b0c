#include "server/limits/parsed_size.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/message.h>
#include <google/protobuf/wire_format.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"

namespace nqueens::server {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::internal::WireFormat;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// What malloc adds to each block it hands out, at least.
constexpr uint64_t kMallocHeader = 16;
// A repeated field grows by doubling, and holds the buffer it replaces until
// the new one is filled: three times its elements at the peak.
constexpr uint64_t kGrowth = 3;
// A std::string on the heap, or an unknown field kept with its bytes.
constexpr uint64_t kStringObject = 32 + kMallocHeader;
constexpr uint64_t kUnknownField = 16 + kStringObject;
// Deeper messages are refused, as the parser refuses them.
constexpr int kMaxDepth = 100;

class Walker {
 public:
  explicit Walker(CodedInputStream& in) : in_(in) {}

  // The parsed size of the fields up to the stream's current limit; false
  // on malformed bytes.
  bool Fields(const Descriptor& type, int depth, uint64_t& bytes) {
    if (depth > kMaxDepth) return false;
    while (const uint32_t tag = in_.ReadTag()) {
      const FieldDescriptor* field =
          type.FindFieldByNumber(static_cast<int>(WireFormatLite::GetTagFieldNumber(tag)));
      const WireFormatLite::WireType wire_type = WireFormatLite::GetTagWireType(tag);
      if (field != nullptr && field->is_packable() &&
          wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        if (!Packed(*field, bytes)) return false;
      } else if (field != nullptr && wire_type == WireFormat::WireTypeForFieldType(field->type())) {
        if (!Known(*field, depth, bytes)) return false;
      } else if (!Unknown(tag, bytes)) {
        return false;
      }
    }
    // A tag of 0 ends a message only at its limit (or the stream's end).
    return in_.ConsumedEntireMessage();
  }

  // A message object of `type`, empty. Measured once per type and thread:
  // reflection's SpaceUsedLong costs more than walking a small request.
  static uint64_t ObjectBytes(const Descriptor& type) {
    thread_local absl::flat_hash_map<const Descriptor*, uint64_t> object_bytes;
    auto [it, added] = object_bytes.try_emplace(&type, 0);
    if (added) {
      const google::protobuf::Message* prototype =
          google::protobuf::MessageFactory::generated_factory()->GetPrototype(&type);
      it->second = (prototype != nullptr ? prototype->SpaceUsedLong() : 0) + kMallocHeader;
    }
    return it->second;
  }

 private:
  // A repeated element's slot: the value itself, or a pointer to it.
  static uint64_t SlotBytes(const FieldDescriptor& field) {
    switch (field.cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
      case FieldDescriptor::CPPTYPE_UINT32:
      case FieldDescriptor::CPPTYPE_FLOAT:
      case FieldDescriptor::CPPTYPE_ENUM:
        return 4;
      case FieldDescriptor::CPPTYPE_BOOL:
        return 1;
      default:
        return 8;
    }
  }

  bool Known(const FieldDescriptor& field, int depth, uint64_t& bytes) {
    if (field.is_repeated()) bytes += kGrowth * SlotBytes(field);
    switch (field.type()) {
      case FieldDescriptor::TYPE_MESSAGE: {
        uint32_t length = 0;
        if (!in_.ReadVarint32(&length)) return false;
        const CodedInputStream::Limit limit = in_.PushLimit(static_cast<int>(length));
        bytes += ObjectBytes(*field.message_type());
        // At the stream's end short of the limit, the message was cut.
        if (!Fields(*field.message_type(), depth + 1, bytes) || in_.BytesUntilLimit() != 0) {
          return false;
        }
        in_.PopLimit(limit);
        return true;
      }
      case FieldDescriptor::TYPE_STRING:
      case FieldDescriptor::TYPE_BYTES: {
        uint32_t length = 0;
        if (!in_.ReadVarint32(&length) || !in_.Skip(static_cast<int>(length))) return false;
        bytes += kStringObject + length;
        return true;
      }
      case FieldDescriptor::TYPE_GROUP:
        return false;  // proto3 has none
      default:
        return WireFormatLite::SkipField(
            &in_, WireFormatLite::MakeTag(field.number(),
                                          WireFormat::WireTypeForFieldType(field.type())));
    }
  }

  // A packed repeated scalar: its elements, counted.
  bool Packed(const FieldDescriptor& field, uint64_t& bytes) {
    uint32_t length = 0;
    if (!in_.ReadVarint32(&length)) return false;
    uint64_t elements = 0;
    switch (WireFormat::WireTypeForFieldType(field.type())) {
      case WireFormatLite::WIRETYPE_FIXED32:
        elements = length / 4;
        if (length % 4 != 0 || !in_.Skip(static_cast<int>(length))) return false;
        break;
      case WireFormatLite::WIRETYPE_FIXED64:
        elements = length / 8;
        if (length % 8 != 0 || !in_.Skip(static_cast<int>(length))) return false;
        break;
      default:
        if (!CountVarints(length, elements)) return false;
    }
    bytes += kGrowth * elements * SlotBytes(field);
    return true;
  }

  // The varints in the next `length` bytes: the bytes that end one. The
  // last byte must end one.
  bool CountVarints(uint32_t length, uint64_t& count) {
    unsigned char last = 0;
    while (length > 0) {
      const void* data = nullptr;
      int size = 0;
      if (!in_.GetDirectBufferPointer(&data, &size)) return false;
      const uint32_t take = std::min<uint32_t>(length, static_cast<uint32_t>(size));
      const auto* bytes = static_cast<const unsigned char*>(data);
      count += CountEnds(bytes, take);
      last = bytes[take - 1];
      in_.Skip(static_cast<int>(take));
      length -= take;
    }
    return (last & 0x80) == 0;
  }

  static uint64_t CountEnds(const unsigned char* bytes, size_t size) {
    constexpr uint64_t kHighBits = 0x8080808080808080u;
    uint64_t count = 0;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      count += static_cast<uint64_t>(absl::popcount(~word & kHighBits));
    }
    for (; i < size; ++i) count += (bytes[i] & 0x80) == 0;
    return count;
  }

  // A field the message does not have (or with another wire type): kept
  // with its bytes among the unknown fields.
  bool Unknown(uint32_t tag, uint64_t& bytes) {
    const int start = in_.CurrentPosition();
    if (!WireFormatLite::SkipField(&in_, tag)) return false;
    bytes += kUnknownField + static_cast<uint64_t>(in_.CurrentPosition() - start);
    return true;
  }

  CodedInputStream& in_;
};

}  // namespace

absl::StatusOr<uint64_t> ParsedBytesBound(const grpc::ByteBuffer& bytes, const Descriptor& type,
                                          const std::string& what) {
  grpc::ByteBuffer copy(bytes);  // shares the slices
  grpc::ProtoBufferReader reader(&copy);
  CodedInputStream in(&reader);
  Walker walker(in);
  uint64_t parsed = Walker::ObjectBytes(type);
  if (!reader.status().ok() || !walker.Fields(type, 0, parsed)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " could not be parsed as a ", type.full_name(), " message"));
  }
  return parsed;
}

}  // namespace nqueens::server

#include "wire/chunk_message.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace nqueens::wire {
namespace {

static_assert(v1::CompleteStreamRequest::kChunkFieldNumber == kChunkField &&
              v1::ValidateStreamRequest::kChunkFieldNumber == kChunkField &&
              v1::CompleteStreamResponse::kChunkFieldNumber == kChunkField &&
              v1::SolveStreamResponse::kChunkFieldNumber == kChunkField);

// Protobuf's wire format: a field's key is its number and wire type.
constexpr uint8_t kVarintType = 0;
constexpr uint8_t kLengthType = 2;
constexpr uint8_t Key(int field, uint8_t type) { return static_cast<uint8_t>(field << 3 | type); }
constexpr uint8_t kChunkKey = Key(kChunkField, kLengthType);
constexpr uint8_t kOffsetKey = Key(v1::BoardChunk::kOffsetFieldNumber, kVarintType);
constexpr uint8_t kColumnsKey = Key(v1::BoardChunk::kColumnsFieldNumber, kLengthType);
constexpr size_t kMaxVarintBytes = 10;

size_t VarintSize(uint64_t value) {
  size_t bytes = 1;
  for (; value >= 0x80; value >>= 7) ++bytes;
  return bytes;
}

uint8_t* WriteVarint(uint64_t value, uint8_t* out) {
  for (; value >= 0x80; value >>= 7) *out++ = static_cast<uint8_t>(value | 0x80);
  *out++ = static_cast<uint8_t>(value);
  return out;
}

// Reads a varint of at most 10 bytes from [*in, end); false when there is
// none.
bool ReadVarint(const uint8_t** in, const uint8_t* end, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 70 && *in < end; shift += 7) {
    const uint8_t byte = *(*in)++;
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

// ReadVarint where 10 bytes are known to follow: no bounds to check.
inline bool ReadLongVarint(const uint8_t** in, uint64_t* value) {
  const uint8_t* p = *in;
  uint64_t result = *p++;
  if (result >= 0x80) {
    result &= 0x7f;
    for (int shift = 7;; shift += 7) {
      if (shift == 70) return false;
      const uint64_t byte = *p++;
      result |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
  }
  *in = p;
  *value = result;
  return true;
}

}  // namespace

grpc::ByteBuffer SerializeChunkMessage(uint64_t offset, absl::Span<const uint32_t> columns) {
  // The values go first, behind room for the keys and lengths, which depend
  // on their size; then those are written just in front of them.
  constexpr size_t kRoom = 4 + 3 * kMaxVarintBytes;
  const size_t capacity = kRoom + 5 * columns.size();
  auto* buffer = static_cast<uint8_t*>(std::malloc(capacity));
  if (buffer == nullptr) throw std::bad_alloc();
  uint8_t* const packed = buffer + kRoom;
  uint8_t* end = packed;
  for (const uint32_t column : columns) end = WriteVarint(column, end);
  const auto packed_bytes = static_cast<uint64_t>(end - packed);

  uint64_t chunk_bytes = 0;
  if (offset != 0) chunk_bytes += 1 + VarintSize(offset);
  if (packed_bytes != 0) chunk_bytes += 1 + VarintSize(packed_bytes) + packed_bytes;
  // Everything but the values.
  const size_t head_bytes = 1 + VarintSize(chunk_bytes) + chunk_bytes - packed_bytes;
  uint8_t* const start = packed - head_bytes;
  uint8_t* out = start;
  *out++ = kChunkKey;
  out = WriteVarint(chunk_bytes, out);
  if (offset != 0) {
    *out++ = kOffsetKey;
    out = WriteVarint(offset, out);
  }
  if (packed_bytes != 0) {
    *out++ = kColumnsKey;
    out = WriteVarint(packed_bytes, out);
  }
  grpc::Slice slice(start, static_cast<size_t>(end - start), std::free, buffer);
  return grpc::ByteBuffer(&slice, 1);
}

std::optional<SerializedChunk> SerializedChunk::Find(const grpc::ByteBuffer& message) {
  SerializedChunk chunk;
  if (!message.Dump(&chunk.slices_).ok()) return std::nullopt;
  // The keys and lengths, in front of the values: at most 33 bytes, which
  // may straddle slices.
  uint8_t head[4 + 3 * kMaxVarintBytes];
  size_t head_size = 0;
  for (const grpc::Slice& slice : chunk.slices_) {
    const size_t take = std::min(sizeof(head) - head_size, slice.size());
    std::memcpy(head + head_size, slice.begin(), take);
    head_size += take;
  }
  const uint64_t total = message.Length();
  const uint8_t* in = head;
  const uint8_t* const head_end = head + head_size;
  // The chunk, and nothing after it.
  uint64_t length = 0;
  if (in == head_end || *in++ != kChunkKey || !ReadVarint(&in, head_end, &length) ||
      length != total - static_cast<uint64_t>(in - head)) {
    return std::nullopt;
  }
  if (in < head_end && *in == kOffsetKey) {
    ++in;
    if (!ReadVarint(&in, head_end, &chunk.offset_)) return std::nullopt;
  }
  if (static_cast<uint64_t>(in - head) == total) return chunk;  // no values
  if (in == head_end || *in++ != kColumnsKey || !ReadVarint(&in, head_end, &length) ||
      length == 0 || length != total - static_cast<uint64_t>(in - head)) {
    return std::nullopt;
  }
  // The values' bytes, slice by slice.
  uint64_t skip = static_cast<uint64_t>(in - head);
  uint8_t last = 0;
  for (const grpc::Slice& slice : chunk.slices_) {
    const size_t size = slice.size();
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const uint8_t* const bytes = slice.begin() + skip;
    const size_t in_slice = size - skip;
    skip = 0;
    chunk.packed_.emplace_back(reinterpret_cast<const char*>(bytes), in_slice);
    // Every value ends with a byte below 0x80. (Counted in a local: the
    // bytes may alias a member, which keeps the loop from being vectorized.)
    uint64_t ends = 0;
    for (size_t i = 0; i < in_slice; ++i) ends += bytes[i] < 0x80 ? 1 : 0;
    chunk.size_ += ends;
    last = bytes[in_slice - 1];
  }
  if (last >= 0x80) return std::nullopt;  // the last value is cut short
  return chunk;
}

SerializedChunk::Decoded SerializedChunk::Decode(uint32_t* out, uint32_t max, uint64_t* bad) const {
  uint64_t done = 0;
  // A value that straddles two slices: its bytes gathered.
  uint8_t straddling[kMaxVarintBytes + 1];
  size_t straddling_size = 0;
  // Decodes [in, end), which holds whole values only.
  const auto decode_whole = [&](const uint8_t* in, const uint8_t* end) {
    while (in < end) {
      uint64_t value = 0;
      if (end - in >= static_cast<ptrdiff_t>(kMaxVarintBytes)) {
        if (!ReadLongVarint(&in, &value)) return Decoded::kMalformed;
      } else if (!ReadVarint(&in, end, &value)) {
        return Decoded::kMalformed;
      }
      // As protobuf reads a uint32 field: the low 32 bits.
      out[done] = static_cast<uint32_t>(value);
      if (out[done] > max) return Decoded::kAboveMax;
      ++done;
    }
    return Decoded::kOk;
  };
  for (const absl::string_view part : packed_) {
    const auto* in = reinterpret_cast<const uint8_t*>(part.data());
    const uint8_t* const end = in + part.size();
    if (straddling_size > 0) {
      // The rest of the value the last slice began.
      while (in < end && straddling_size < sizeof(straddling)) {
        const uint8_t byte = *in++;
        straddling[straddling_size++] = byte;
        if (byte < 0x80) break;
      }
      if (straddling[straddling_size - 1] < 0x80) {
        if (const Decoded decoded = decode_whole(straddling, straddling + straddling_size);
            decoded != Decoded::kOk) {
          *bad = done;
          return decoded;
        }
        straddling_size = 0;
      } else if (straddling_size == sizeof(straddling)) {
        *bad = done;
        return Decoded::kMalformed;
      }
    }
    // The bytes after the last value that ends in this slice begin the next.
    const uint8_t* whole_end = end;
    while (whole_end > in && whole_end[-1] >= 0x80) --whole_end;
    if (const Decoded decoded = decode_whole(in, whole_end); decoded != Decoded::kOk) {
      *bad = done;
      return decoded;
    }
    for (const uint8_t* byte = whole_end; byte < end; ++byte) {
      if (straddling_size == sizeof(straddling)) {
        *bad = done;
        return Decoded::kMalformed;
      }
      straddling[straddling_size++] = *byte;
    }
  }
  return Decoded::kOk;
}

}  // namespace nqueens::wire

#include "wire/chunk_message.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "absl/base/config.h"
#include "absl/numeric/bits.h"

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

// Decode reads the values block by block: the ends of all values in a block
// are found at once, and each value is read from one 8-byte load, without a
// branch on its length (which varies from value to value, 1 byte for an
// empty row, up to 5 for a column, and keeps a byte-by-byte loop
// mispredicting); a block of 4-byte values only, four values at a time
// where SSE2 is at hand (every x86-64).
constexpr size_t kBlockBytes = 64;
// The longest value read from one load: 35 bits, all of a uint32.
constexpr size_t kLoadedVarintBytes = 5;

// The 8 bytes at `bytes` as a little-endian number.
inline uint64_t Load64(const uint8_t* bytes) {
  uint64_t word = 0;
  std::memcpy(&word, bytes, sizeof(word));
#ifdef ABSL_IS_BIG_ENDIAN
  word = __builtin_bswap64(word);
#endif
  return word;
}

// Bit i set when byte i of the block ends a value (is below 0x80).
inline uint64_t ValueEnds(const uint8_t* block) {
  uint64_t ends = 0;
  for (size_t word = 0; word < kBlockBytes / 8; ++word) {
    // Byte j's flag in bit 8j, then, by the multiplication, in bit 56 + j.
    const uint64_t flags = (~Load64(block + 8 * word) >> 7) & 0x0101010101010101;
    ends |= ((flags * 0x0102040810204080) >> 56) << (8 * word);
  }
  return ends;
}

#ifdef __SSE2__
// `bits` in each of the four 32-bit lanes.
inline __m128i Splat(uint32_t bits) { return _mm_set1_epi32(static_cast<int32_t>(bits)); }

// The ends of a block of 16 values of 4 bytes each, as most blocks of a
// solution are from 2^21 to 2^28 rows: DecodeFourByteBlock decodes them
// four at a time.
constexpr uint64_t kFourByteEnds = 0x8888888888888888;
constexpr uint32_t kFourByteMin = uint32_t{1} << 21;
constexpr uint32_t kFourByteMax = (uint32_t{1} << 28) - 1;

// The 16 values of a block with kFourByteEnds into `out`; false, leaving
// the block to the general path, when one is above `max`.
inline bool DecodeFourByteBlock(const uint8_t* block, uint32_t* out, uint32_t max) {
  // Below 2^31, so compared as signed 32-bit numbers.
  const auto limit = static_cast<int32_t>(std::min(max, kFourByteMax));
  __m128i above = _mm_setzero_si128();
  for (size_t part = 0; part < kBlockBytes / 16; ++part) {
    const __m128i words = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * part));
    __m128i values = _mm_and_si128(words, Splat(0x7f));
    values = _mm_or_si128(values, _mm_and_si128(_mm_srli_epi32(words, 1), Splat(0x7f << 7)));
    values = _mm_or_si128(values, _mm_and_si128(_mm_srli_epi32(words, 2), Splat(0x7f << 14)));
    values = _mm_or_si128(values, _mm_and_si128(_mm_srli_epi32(words, 3), Splat(0x7f << 21)));
    above = _mm_or_si128(above, _mm_cmpgt_epi32(values, _mm_set1_epi32(limit)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4 * part), values);
  }
  return _mm_movemask_epi8(above) == 0;
}

// Writes the four values at `values` as 16 bytes at `out`, when all four
// take 4 bytes as varints; false, writing nothing, when one does not.
inline bool WriteFourByteValues(const uint32_t* values, uint8_t* out) {
  const __m128i words = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values));
  // In range when value - kFourByteMin, unsigned, is at most the range's
  // width: SSE2 compares signed numbers, so both sides have their sign bit
  // flipped.
  const __m128i offset =
      _mm_xor_si128(_mm_sub_epi32(words, Splat(kFourByteMin)), Splat(uint32_t{1} << 31));
  const __m128i outside =
      _mm_cmpgt_epi32(offset, Splat((kFourByteMax - kFourByteMin) ^ (uint32_t{1} << 31)));
  if (_mm_movemask_epi8(outside) != 0) return false;
  // Each 7 bits to a byte of their own, the first three bytes marked as
  // followed by more.
  __m128i bytes = _mm_or_si128(_mm_and_si128(words, Splat(0x7f)), Splat(0x808080));
  bytes = _mm_or_si128(bytes, _mm_and_si128(_mm_slli_epi32(words, 1), Splat(0x7f << 8)));
  bytes = _mm_or_si128(bytes, _mm_and_si128(_mm_slli_epi32(words, 2), Splat(0x7f << 16)));
  bytes = _mm_or_si128(bytes, _mm_and_si128(_mm_slli_epi32(words, 3), Splat(0x7fu << 24)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
  return true;
}

// Whether the four-byte path pays for `columns`, judged by their first
// values: a solution's rows from 2^21 to 2^28 nearly all take 4 bytes, and
// go twice as fast through it; a composition's empty rows take 1 byte, and
// trying them four at a time only costs (docs/constants.md, MostlyFourByte).
bool MostlyFourByte(absl::Span<const uint32_t> columns) {
  constexpr size_t kSample = 64;
  constexpr size_t kEnough = 60;
  const absl::Span<const uint32_t> sample = columns.first(std::min(kSample, columns.size()));
  const auto four_byte = std::count_if(sample.begin(), sample.end(), [](uint32_t value) {
    return value >= kFourByteMin && value <= kFourByteMax;
  });
  return sample.size() == kSample && static_cast<size_t>(four_byte) >= kEnough;
}

#endif  // __SSE2__

// Writes `columns` as varints at `out`; returns the end of what it wrote.
uint8_t* WriteVarints(absl::Span<const uint32_t> columns, uint8_t* out) {
  size_t i = 0;
#ifdef __SSE2__
  if (MostlyFourByte(columns)) {
    for (; i + 4 <= columns.size(); i += 4) {
      if (WriteFourByteValues(&columns[i], out)) {
        out += 16;
        continue;
      }
      for (size_t j = i; j < i + 4; ++j) out = WriteVarint(columns[j], out);
    }
  }
#endif
  for (; i < columns.size(); ++i) out = WriteVarint(columns[i], out);
  return out;
}

// The varint of `length` bytes at `in`, 10 readable bytes there; false for
// one longer than 10 bytes.
inline bool ReadVarintOfLength(const uint8_t* in, size_t length, uint64_t* value) {
  if (length > kLoadedVarintBytes) return ReadLongVarint(&in, value);
  const uint64_t word = Load64(in);
  // Byte j's 7 bits moved to bits 7j .. 7j + 6, then the bytes after the
  // value's cut off.
  const uint64_t bits = (word & 0x7f) | (word >> 1 & 0x7f << 7) | (word >> 2 & 0x7f << 14) |
                        (word >> 3 & 0x7f << 21) | (word >> 4 & uint64_t{0x7f} << 28);
  *value = bits & ((uint64_t{1} << (7 * length)) - 1);
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
  uint8_t* const end = WriteVarints(columns, packed);
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
  if (in == head_end || *in != kChunkKey) return std::nullopt;
  ++in;
  if (!ReadVarint(&in, head_end, &length) || length != total - static_cast<uint64_t>(in - head)) {
    return std::nullopt;
  }
  if (in < head_end && *in == kOffsetKey) {
    ++in;
    if (!ReadVarint(&in, head_end, &chunk.offset_)) return std::nullopt;
  }
  if (static_cast<uint64_t>(in - head) == total) return chunk;  // no values
  if (in == head_end || *in != kColumnsKey) return std::nullopt;
  ++in;
  if (!ReadVarint(&in, head_end, &length) || length == 0 ||
      length != total - static_cast<uint64_t>(in - head)) {
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
    while (end - in >= static_cast<ptrdiff_t>(kBlockBytes + kMaxVarintBytes)) {
      uint64_t ends = ValueEnds(in);
#ifdef __SSE2__
      if (ends == kFourByteEnds && DecodeFourByteBlock(in, out + done, max)) {
        done += kBlockBytes / 4;
        in += kBlockBytes;
        continue;
      }
#endif
      // A value begins at `in`: one that does not end in 64 bytes is too long.
      if (ends == 0) return Decoded::kMalformed;
      const uint8_t* start = in;
      for (; ends != 0; ends &= ends - 1) {
        const uint8_t* const next = in + absl::countr_zero(ends) + 1;
        uint64_t value = 0;
        if (!ReadVarintOfLength(start, static_cast<size_t>(next - start), &value)) {
          return Decoded::kMalformed;
        }
        out[done] = static_cast<uint32_t>(value);
        if (out[done] > max) return Decoded::kAboveMax;
        ++done;
        start = next;
      }
      in = start;  // the bytes after the block's last end begin the next value
    }
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

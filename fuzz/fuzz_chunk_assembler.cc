// proto/wire/chunks.h's ChunkAssembler fed the BoardChunks of a stream as a
// client could send them, with a model of the API's ordering rules written
// here, independently, to say what each Add must answer.
//
// Input (so that seeds can be written by hand, fuzz/make_seeds.py):
//   byte 0       flags: bit 0 bounds n to 0..kMaxN, bit 1 calls
//                ReserveAllRows (only when n <= kMaxN)
//   bytes 1-8    n, little-endian
//   then records, until the bytes run out:
//     byte       kind: even = a serialized CompleteStreamRequest (what the
//                server decodes off the wire; a request that is not a chunk
//                is skipped), odd = a chunk built from the payload
//     bytes 2    payload length L, little-endian
//     L bytes    payload. A built chunk: byte 0 is a signed shift of its
//                offset from the expected one, byte 1 a repeat count (the
//                columns are repeated 1 + count times, so that chunks can
//                exceed kMaxChunkSize), then 2-byte little-endian columns,
//                each taken modulo n + 2 (so that n + 1 occurs).
//
// Invariants: every Add answers OK exactly when the model says the chunk
// fits (INVALID_ARGUMENT otherwise); Finish() is OK exactly when the chunks
// covered all n rows, and then returns n rows equal to those sent, each
// <= n. Memory stays bounded: n may be 2^64 - 1, but nothing is reserved for
// it unless it is at most kMaxN.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "fuzz_check.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/chunks.h"

namespace {

constexpr uint64_t kMaxN = uint64_t{1} << 20;

// Reads the input front to back; past the end every read gives zeros.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool done() const { return position_ >= size_; }
  uint8_t Byte() { return position_ < size_ ? data_[position_++] : 0; }
  uint64_t LittleEndian(int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= uint64_t{Byte()} << (8 * i);
    return value;
  }
  std::string Bytes(size_t count) {
    const size_t available = position_ < size_ ? size_ - position_ : 0;
    if (count > available) count = available;
    std::string bytes(reinterpret_cast<const char*>(data_ + position_), count);
    position_ += count;
    return bytes;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

nqueens::v1::BoardChunk BuiltChunk(const std::string& payload, uint64_t n,
                                   uint64_t expected_offset) {
  nqueens::v1::BoardChunk chunk;
  const int8_t shift = payload.empty() ? 0 : static_cast<int8_t>(payload[0]);
  chunk.set_offset(expected_offset + static_cast<uint64_t>(int64_t{shift}));
  const int repeats = 1 + (payload.size() > 1 ? static_cast<uint8_t>(payload[1]) : 0);
  std::vector<uint32_t> columns;
  for (size_t i = 2; i + 1 < payload.size(); i += 2) {
    const uint64_t raw =
        static_cast<uint8_t>(payload[i]) | (uint64_t{static_cast<uint8_t>(payload[i + 1])} << 8);
    // Modulo n + 2 only where that is below 2^16: otherwise every raw value
    // is already at most n + 1 (and n + 2 may wrap around to 0).
    columns.push_back(static_cast<uint32_t>(n < 0xFFFF ? raw % (n + 2) : raw));
  }
  for (int r = 0; r < repeats; ++r) {
    chunk.mutable_columns()->Add(columns.begin(), columns.end());
  }
  return chunk;
}

// The API's rules for the next chunk (nqueens.proto, README "Errors").
bool ModelAccepts(const nqueens::v1::BoardChunk& chunk, uint64_t n, uint64_t next_offset) {
  const uint64_t size = static_cast<uint64_t>(chunk.columns_size());
  if (chunk.offset() != next_offset) return false;
  if (size > nqueens::wire::kMaxChunkSize) return false;
  if (next_offset + size > n) return false;  // next_offset <= n, size < 2^17
  for (uint32_t column : chunk.columns()) {
    if (column > n) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in(data, size);
  const uint8_t flags = in.Byte();
  uint64_t n = in.LittleEndian(8);
  if (flags & 1) n %= kMaxN + 1;

  nqueens::wire::ChunkAssembler assembler(n);
  if ((flags & 2) && n <= kMaxN) assembler.ReserveAllRows();
  std::vector<uint32_t> sent;  // the model's board so far
  while (!in.done()) {
    const uint8_t kind = in.Byte();
    const std::string payload = in.Bytes(in.LittleEndian(2));
    nqueens::v1::BoardChunk chunk;
    if (kind % 2 == 0) {
      nqueens::v1::CompleteStreamRequest request;
      if (!request.ParseFromString(payload) || !request.has_chunk()) continue;
      chunk = request.chunk();
    } else {
      chunk = BuiltChunk(payload, n, sent.size());
    }
    const bool accepts = ModelAccepts(chunk, n, sent.size());
    const absl::Status status = assembler.Add(chunk);
    FUZZ_CHECK(status.ok() == accepts, "chunk at offset %llu of %d values, n = %llu: %s",
               static_cast<unsigned long long>(chunk.offset()), chunk.columns_size(),
               static_cast<unsigned long long>(n), status.ToString().c_str());
    FUZZ_CHECK(accepts || status.code() == absl::StatusCode::kInvalidArgument,
               "unexpected error %s", status.ToString().c_str());
    FUZZ_CHECK(assembler.received_any() ==
                   (accepts ? sent.size() + chunk.columns_size() > 0 : !sent.empty()),
               "received_any() wrong");
    // A stream ends at its first bad chunk: the server answers with the error.
    if (!accepts) return 0;
    sent.insert(sent.end(), chunk.columns().begin(), chunk.columns().end());
  }

  absl::StatusOr<nqueens::Columns> board = std::move(assembler).Finish();
  FUZZ_CHECK(board.ok() == (sent.size() == n), "Finish() after %zu of %llu rows: %s", sent.size(),
             static_cast<unsigned long long>(n), board.status().ToString().c_str());
  if (!board.ok()) {
    FUZZ_CHECK(board.status().code() == absl::StatusCode::kInvalidArgument, "unexpected error %s",
               board.status().ToString().c_str());
    return 0;
  }
  FUZZ_CHECK(board->size() == n, "Finish() returned %zu rows", board->size());
  for (uint32_t column : *board) FUZZ_CHECK(column <= n, "column %u above n", column);
  FUZZ_CHECK(*board == sent, "Finish() returned other rows than were sent");
  return 0;
}

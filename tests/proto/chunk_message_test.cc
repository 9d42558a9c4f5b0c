// The hand-written chunk messages against protobuf: the bytes written are
// protobuf's, and what protobuf writes is read back, from one slice or many.
#include "wire/chunk_message.h"

#include <grpcpp/support/byte_buffer.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/chunks.h"

namespace nqueens::wire {
namespace {

using ::testing::HasSubstr;

// Columns of every varint length, 1 to 5 bytes.
std::vector<uint32_t> MixedColumns() {
  std::vector<uint32_t> columns;
  for (uint32_t i = 0; i < 1000; ++i) columns.push_back((i * 2654435761u) >> (i % 32));
  columns.push_back(UINT32_MAX);
  columns.push_back(0);
  return columns;
}

std::string Bytes(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(buffer.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return bytes;
}

// `bytes` cut into slices of `slice_size`.
grpc::ByteBuffer Sliced(const std::string& bytes, size_t slice_size) {
  std::vector<grpc::Slice> slices;
  for (size_t at = 0; at < bytes.size(); at += slice_size) {
    slices.emplace_back(bytes.substr(at, slice_size));
  }
  return grpc::ByteBuffer(slices.data(), slices.size());
}

std::string ProtobufChunk(uint64_t offset, const std::vector<uint32_t>& columns) {
  v1::CompleteStreamResponse message;
  message.mutable_chunk()->set_offset(offset);
  message.mutable_chunk()->mutable_columns()->Assign(columns.begin(), columns.end());
  return message.SerializeAsString();
}

// Decodes every value of `chunk` that is at most `max`.
std::vector<uint32_t> Decoded(const SerializedChunk& chunk, uint32_t max = UINT32_MAX) {
  std::vector<uint32_t> columns(chunk.size());
  uint64_t bad = 0;
  EXPECT_EQ(chunk.Decode(columns.data(), max, &bad), SerializedChunk::Decoded::kOk);
  return columns;
}

TEST(SerializeChunkMessageTest, WritesWhatProtobufWrites) {
  const std::vector<uint32_t> columns = MixedColumns();
  for (const uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{1} << 40}) {
    EXPECT_EQ(Bytes(SerializeChunkMessage(offset, columns)), ProtobufChunk(offset, columns));
    EXPECT_EQ(Bytes(SerializeChunkMessage(offset, {})), ProtobufChunk(offset, {}));
  }
}

// A solution's rows from 2^21 to 2^28 take 4 bytes each, which
// SerializeChunkMessage writes four at a time; among them, every varint
// length, the edges of the 4-byte range included.
TEST(SerializeChunkMessageTest, WritesWhatProtobufWritesForFourByteColumns) {
  std::vector<uint32_t> columns;
  for (uint32_t i = 0; i < 4000; ++i) columns.push_back((1u << 21) + i * 67103u % (254u << 20));
  const uint32_t others[] = {0, 1, (1u << 21) - 1, 1u << 21, (1u << 28) - 1, 1u << 28, UINT32_MAX};
  for (size_t i = 0; i < std::size(others); ++i) columns[100 + 501 * i] = others[i];
  for (const size_t size : {size_t{64}, size_t{67}, columns.size()}) {
    const std::vector<uint32_t> part(columns.begin(), columns.begin() + size);
    EXPECT_EQ(Bytes(SerializeChunkMessage(7, part)), ProtobufChunk(7, part)) << size;
  }
}

TEST(SerializedChunkTest, ReadsProtobufsBytesFromAnySlices) {
  const std::vector<uint32_t> columns = MixedColumns();
  const std::string bytes = ProtobufChunk(12345, columns);
  for (const size_t slice_size : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, bytes.size()}) {
    SCOPED_TRACE(slice_size);
    const std::optional<SerializedChunk> chunk = SerializedChunk::Find(Sliced(bytes, slice_size));
    ASSERT_TRUE(chunk.has_value());
    EXPECT_EQ(chunk->offset(), 12345u);
    EXPECT_EQ(Decoded(*chunk), columns);
  }
}

TEST(SerializedChunkTest, ReadsAnEmptyChunk) {
  const std::optional<SerializedChunk> chunk =
      SerializedChunk::Find(Sliced(ProtobufChunk(0, {}), 1));
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->offset(), 0u);
  EXPECT_EQ(chunk->size(), 0u);
}

TEST(SerializedChunkTest, LeavesOtherMessagesToProtobuf) {
  v1::CompleteStreamRequest header;
  header.mutable_header()->set_n(10);
  EXPECT_FALSE(SerializedChunk::Find(Sliced(header.SerializeAsString(), 4)).has_value());
  EXPECT_FALSE(SerializedChunk::Find(grpc::ByteBuffer()).has_value());
  const std::string chunk = ProtobufChunk(3, {1, 2, 3});
  // An unknown field after the chunk; unpacked columns; a cut value.
  EXPECT_FALSE(SerializedChunk::Find(Sliced(chunk + "\x18\x01", 4)).has_value());
  const std::string unpacked("\x12\x06\x08\x03\x10\x01\x10\x02", 8);
  EXPECT_FALSE(SerializedChunk::Find(Sliced(unpacked, 4)).has_value());
  const std::string cut("\x12\x04\x12\x02\x01\x81", 6);
  EXPECT_FALSE(SerializedChunk::Find(Sliced(cut, 4)).has_value());
}

TEST(SerializedChunkTest, RefusesAValueAboveTheMaximum) {
  const std::optional<SerializedChunk> chunk =
      SerializedChunk::Find(Sliced(ProtobufChunk(0, {1, 5, 300, 2}), 3));
  ASSERT_TRUE(chunk.has_value());
  std::vector<uint32_t> columns(chunk->size());
  uint64_t bad = 0;
  EXPECT_EQ(chunk->Decode(columns.data(), 299, &bad), SerializedChunk::Decoded::kAboveMax);
  EXPECT_EQ(bad, 2u);
  EXPECT_EQ(columns[bad], 300u);
}

// A message whose only part is a chunk of the packed values `packed`.
std::string ChunkOfPacked(const std::string& packed) {
  const auto length = [](size_t size) {
    std::string varint;
    for (; size >= 0x80; size >>= 7) varint += static_cast<char>(size | 0x80);
    return varint + static_cast<char>(size);
  };
  const std::string chunk = "\x12" + length(packed.size()) + packed;
  return "\x12" + length(chunk.size()) + chunk;
}

// `message`, cut into slices of `slice_size`, is refused as malformed at
// value `index`, as protobuf refuses it.
void ExpectMalformedAt(const std::string& message, size_t slice_size, uint64_t index) {
  const std::optional<SerializedChunk> found = SerializedChunk::Find(Sliced(message, slice_size));
  ASSERT_TRUE(found.has_value());
  std::vector<uint32_t> columns(found->size());
  uint64_t bad = 0;
  EXPECT_EQ(found->Decode(columns.data(), UINT32_MAX, &bad), SerializedChunk::Decoded::kMalformed);
  EXPECT_EQ(bad, index);
  v1::CompleteStreamResponse parsed;
  EXPECT_FALSE(parsed.ParseFromString(message));
}

TEST(SerializedChunkTest, RefusesAValueOfMoreThanTenBytes) {
  // Packed columns 1, then 11 bytes of one value, then 2.
  const std::string message = ChunkOfPacked("\x01" + std::string(10, '\x80') + "\x01\x02");
  for (const size_t slice_size : {size_t{1}, size_t{5}, message.size()}) {
    ExpectMalformedAt(message, slice_size, 1);
  }
}

// `value` as a varint of `bytes` bytes: padded with continuation bytes of
// zero bits, as protobuf reads it (a uint32 field takes the low 32 bits).
std::string PaddedVarint(uint64_t value, size_t bytes) {
  std::string varint;
  for (size_t i = 0; i + 1 < bytes; ++i, value >>= 7) {
    varint += static_cast<char>((value & 0x7f) | 0x80);
  }
  return varint + static_cast<char>(value & 0x7f);
}

// Long messages are read many values at a time: values of every length
// protobuf accepts, 1 to 10 bytes, in runs long enough for that.
TEST(SerializedChunkTest, ReadsLongMessagesAsProtobufDoes) {
  std::string packed;
  uint64_t state = 1;
  for (int i = 0; i < 3000; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const size_t bytes = 1 + (state >> 60) % 10;
    packed += PaddedVarint(state >> (64 - 7 * std::min<size_t>(bytes, 9)), bytes);
  }
  const std::string message = ChunkOfPacked(packed);
  v1::CompleteStreamResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(message));
  const std::vector<uint32_t> expected(parsed.chunk().columns().begin(),
                                       parsed.chunk().columns().end());
  ASSERT_EQ(expected.size(), 3000u);
  for (const size_t slice_size : {size_t{13}, size_t{100}, message.size()}) {
    SCOPED_TRACE(slice_size);
    const std::optional<SerializedChunk> chunk = SerializedChunk::Find(Sliced(message, slice_size));
    ASSERT_TRUE(chunk.has_value());
    EXPECT_EQ(Decoded(*chunk), expected);
  }
}

// A value of more than 10 bytes, 11 to 70, deep in a long message: refused
// at its index, as protobuf refuses the message.
TEST(SerializedChunkTest, RefusesALongValueDeepInAMessage) {
  for (const size_t long_bytes : {11, 63, 64, 70}) {
    SCOPED_TRACE(long_bytes);
    const std::string packed = std::string(150, '\x05') + std::string(long_bytes - 1, '\x80') +
                               '\x01' + std::string(150, '\x06');
    ExpectMalformedAt(ChunkOfPacked(packed), 1000, 150);
  }
}

TEST(SerializedChunkTest, RefusesAValueAboveTheMaximumDeepInAMessage) {
  std::vector<uint32_t> columns(500, 7);
  columns[321] = 1000;
  const std::optional<SerializedChunk> chunk =
      SerializedChunk::Find(SerializeChunkMessage(0, columns));
  ASSERT_TRUE(chunk.has_value());
  std::vector<uint32_t> decoded(chunk->size());
  uint64_t bad = 0;
  EXPECT_EQ(chunk->Decode(decoded.data(), 999, &bad), SerializedChunk::Decoded::kAboveMax);
  EXPECT_EQ(bad, 321u);
}

TEST(SerializedChunkTest, AssemblesUnderTheSameRules) {
  ChunkAssembler assembler(10);
  const auto add = [&](uint64_t offset, const std::vector<uint32_t>& columns) {
    return assembler.Add(*SerializedChunk::Find(SerializeChunkMessage(offset, columns)));
  };
  ASSERT_TRUE(add(0, {1, 0, 3}).ok());
  EXPECT_THAT(std::string(add(4, {1}).message()), HasSubstr("expected offset 3"));
  EXPECT_THAT(std::string(add(3, {4, 11}).message()), HasSubstr("row 5 has column 11"));
  EXPECT_THAT(std::string(add(3, std::vector<uint32_t>(8, 1)).message()),
              HasSubstr("runs past row n = 10"));
  ASSERT_TRUE(add(3, {4, 5, 6, 7, 8, 9, 10}).ok());
  absl::StatusOr<Columns> board = std::move(assembler).Finish();
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_EQ(*board, Columns({1, 0, 3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(ChunkAssemblerTest, BuildsTheBoardInTheStoragesMemory) {
  Columns storage(4, 9);
  const uint32_t* memory = storage.data();
  ChunkAssembler assembler(4, std::move(storage));
  assembler.ReserveAllRows();
  ASSERT_TRUE(assembler.Add(*SerializedChunk::Find(SerializeChunkMessage(0, {2, 4, 1, 3}))).ok());
  absl::StatusOr<Columns> board = std::move(assembler).Finish();
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_EQ(*board, Columns({2, 4, 1, 3}));
  EXPECT_EQ(board->data(), memory);
}

}  // namespace
}  // namespace nqueens::wire

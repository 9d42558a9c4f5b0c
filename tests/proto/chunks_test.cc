// The wire helpers: chunking a board and reassembling it under the API's
// ordering rules, and the status conversion.
#include "wire/chunks.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "wire/status.h"

namespace nqueens::wire {
namespace {

using ::testing::HasSubstr;

// A board whose columns are all distinct and in range: rows 1..n hold
// columns n, n-1, ..., 1.
Columns Reversed(uint32_t n) {
  Columns columns(n);
  std::iota(columns.rbegin(), columns.rend(), 1u);
  return columns;
}

std::vector<v1::BoardChunk> Split(const Columns& columns, uint32_t chunk_size) {
  std::vector<v1::BoardChunk> chunks;
  ForEachChunk(columns, chunk_size, [&](const v1::BoardChunk& chunk) {
    chunks.push_back(chunk);
    return true;
  });
  return chunks;
}

v1::BoardChunk BoardChunkAt(uint64_t offset, std::vector<uint32_t> columns) {
  v1::BoardChunk chunk;
  chunk.set_offset(offset);
  chunk.mutable_columns()->Assign(columns.begin(), columns.end());
  return chunk;
}

TEST(EffectiveChunkSizeTest, ZeroAndOversizeMeanTheMaximum) {
  EXPECT_EQ(EffectiveChunkSize(0), kMaxChunkSize);
  EXPECT_EQ(EffectiveChunkSize(7), 7u);
  EXPECT_EQ(EffectiveChunkSize(kMaxChunkSize), kMaxChunkSize);
  EXPECT_EQ(EffectiveChunkSize(kMaxChunkSize + 1), kMaxChunkSize);
}

TEST(ForEachChunkTest, CoversTheBoardInOrder) {
  const Columns board = Reversed(100);
  const std::vector<v1::BoardChunk> chunks = Split(board, 7);
  ASSERT_EQ(chunks.size(), 15u);  // 14 chunks of 7, then 2
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].offset(), 7 * i);
    EXPECT_EQ(chunks[i].columns_size(), i + 1 < chunks.size() ? 7 : 2);
  }
  EXPECT_EQ(chunks.back().columns(1), board.back());
}

TEST(ForEachChunkTest, ZeroMeansMaximalChunks) {
  const std::vector<v1::BoardChunk> chunks = Split(Reversed(kMaxChunkSize + 1), 0);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].columns_size(), static_cast<int>(kMaxChunkSize));
  EXPECT_EQ(chunks[1].offset(), kMaxChunkSize);
}

TEST(ForEachChunkTest, StopsWhenEmitFails) {
  int calls = 0;
  EXPECT_FALSE(ForEachChunk(Reversed(100), 10, [&](const v1::BoardChunk&) {
    ++calls;
    return calls < 3;
  }));
  EXPECT_EQ(calls, 3);
}

TEST(ForEachChunkTest, EmptyBoardHasNoChunks) { EXPECT_TRUE(Split({}, 7).empty()); }

TEST(ChunkAssemblerTest, RoundTrip) {
  for (uint32_t chunk_size : {1u, 7u, 99u, 100u, 0u}) {
    const Columns board = Reversed(100);
    ChunkAssembler assembler(board.size());
    EXPECT_FALSE(assembler.received_any());
    for (const v1::BoardChunk& chunk : Split(board, chunk_size)) {
      ASSERT_TRUE(assembler.Add(chunk).ok()) << "chunk_size " << chunk_size;
    }
    EXPECT_TRUE(assembler.received_any());
    absl::StatusOr<Columns> rebuilt = std::move(assembler).Finish();
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    EXPECT_EQ(*rebuilt, board) << "chunk_size " << chunk_size;
  }
}

TEST(ChunkAssemblerTest, EmptyRowsAreAllowed) {
  ChunkAssembler assembler(3);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {0, 3, 0})).ok());
  absl::StatusOr<Columns> board = std::move(assembler).Finish();
  ASSERT_TRUE(board.ok());
  EXPECT_EQ(*board, (Columns{0, 3, 0}));
}

void ExpectInvalid(const absl::Status& status, const std::string& needle) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(needle));
}

TEST(ChunkAssemblerTest, GapIsRejected) {
  ChunkAssembler assembler(20);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {1, 2, 3})).ok());
  ExpectInvalid(assembler.Add(BoardChunkAt(5, {4})),
                "chunk at offset 5: expected offset 3 (chunks must be in row order without "
                "gaps or overlaps)");
}

TEST(ChunkAssemblerTest, OverlapIsRejected) {
  ChunkAssembler assembler(20);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {1, 2, 3})).ok());
  ExpectInvalid(assembler.Add(BoardChunkAt(2, {4})), "chunk at offset 2: expected offset 3");
}

TEST(ChunkAssemblerTest, FirstChunkMustStartAtZero) {
  ChunkAssembler assembler(20);
  ExpectInvalid(assembler.Add(BoardChunkAt(1, {4})), "chunk at offset 1: expected offset 0");
}

TEST(ChunkAssemblerTest, OversizeChunkIsRejected) {
  const uint32_t n = kMaxChunkSize + 10;
  ChunkAssembler assembler(n);
  ExpectInvalid(assembler.Add(BoardChunkAt(0, std::vector<uint32_t>(kMaxChunkSize + 1, 1))),
                "at most 65536");
}

TEST(ChunkAssemblerTest, ChunkPastRowNIsRejected) {
  ChunkAssembler assembler(4);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {1, 2})).ok());
  ExpectInvalid(assembler.Add(BoardChunkAt(2, {3, 4, 1})), "runs past row n = 4");
}

TEST(ChunkAssemblerTest, ColumnAboveNNamesTheRow) {
  ChunkAssembler assembler(10);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {1, 2, 3})).ok());
  ExpectInvalid(assembler.Add(BoardChunkAt(3, {4, 11})), "row 5 has column 11");
}

TEST(ChunkAssemblerTest, MissingRowsAreNamedByFinish) {
  ChunkAssembler assembler(10);
  ASSERT_TRUE(assembler.Add(BoardChunkAt(0, {1, 2, 3})).ok());
  ExpectInvalid(std::move(assembler).Finish().status(), "ended after row 3 of n = 10");
}

TEST(WireStatusTest, CodesAndMessagesRoundTrip) {
  for (const absl::Status& status :
       {absl::OkStatus(), absl::InvalidArgumentError("row 3 has column 9"),
        absl::ResourceExhaustedError("too big"), absl::DeadlineExceededError("late"),
        absl::CancelledError("gone")}) {
    const grpc::Status converted = ToGrpcStatus(status);
    EXPECT_EQ(static_cast<int>(converted.error_code()), static_cast<int>(status.code()));
    EXPECT_EQ(converted.error_message(), status.message());
    EXPECT_EQ(FromGrpcStatus(converted), status);
  }
}

}  // namespace
}  // namespace nqueens::wire

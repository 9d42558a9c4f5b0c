// SolveStream, CompleteStream and ValidateStream through a real server, with
// small chunks so that several flow each way, and every ordering error.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "test_server.h"
#include "wire/chunks.h"
#include "wire/limits.h"

namespace nqueens::testing {
namespace {

using v1::CompleteStreamRequest;
using v1::ValidateStreamRequest;

constexpr uint32_t kChunkSize = 7;

// A response stream as received: the header, the board rebuilt from the
// chunks (their order checked by ChunkAssembler), and the final status.
struct StreamedResult {
  grpc::Status status;
  bool has_header = false;
  v1::ResultHeader header;
  int chunks = 0;
  Columns columns;
};

template <typename Response, typename Reader>
StreamedResult ReadResultStream(Reader& reader, uint32_t chunk_size) {
  StreamedResult result;
  Response message;
  if (reader.Read(&message) && message.has_header()) {
    result.has_header = true;
    result.header = message.header();
    wire::ChunkAssembler assembler(result.header.n());
    while (reader.Read(&message)) {
      EXPECT_TRUE(message.has_chunk());
      EXPECT_LE(message.chunk().columns_size(), static_cast<int>(chunk_size));
      const absl::Status added = assembler.Add(message.chunk());
      EXPECT_TRUE(added.ok()) << added;
      ++result.chunks;
    }
    if (assembler.received_any()) {
      absl::StatusOr<Columns> columns = std::move(assembler).Finish();
      EXPECT_TRUE(columns.ok()) << columns.status();
      if (columns.ok()) result.columns = *std::move(columns);
    }
  }
  result.status = reader.Finish();
  return result;
}

template <typename Request>
Request HeaderMessage(uint64_t n) {
  Request message;
  message.mutable_header()->set_n(n);
  return message;
}

template <typename Request>
Request ChunkMessage(uint64_t offset, const std::vector<uint32_t>& columns) {
  Request message;
  message.mutable_chunk()->set_offset(offset);
  message.mutable_chunk()->mutable_columns()->Assign(columns.begin(), columns.end());
  return message;
}

// The header, then `board` in chunks of `chunk_size`.
template <typename Request>
std::vector<Request> BoardMessages(Request header, const Columns& board,
                                   uint32_t chunk_size = kChunkSize) {
  std::vector<Request> messages = {std::move(header)};
  wire::ForEachChunk(board, chunk_size, [&](const v1::BoardChunk& chunk) {
    messages.emplace_back();
    *messages.back().mutable_chunk() = chunk;
    return true;
  });
  return messages;
}

void AddQueens(const Columns& board, google::protobuf::RepeatedPtrField<v1::Queen>* queens) {
  for (const Queen& queen : QueensFromDense(board)) {
    v1::Queen* added = queens->Add();
    added->set_row(queen.row);
    added->set_column(queen.column);
  }
}

Columns EverySecond(const Columns& solution) {
  Columns composition(solution.size(), kEmptyRow);
  for (size_t row = 0; row < solution.size(); row += 2) composition[row] = solution[row];
  return composition;
}

class StreamTest : public ServerTest {
 protected:
  StreamedResult SolveStream(uint64_t n, v1::Method method, uint32_t chunk_size) {
    v1::SolveStreamRequest request;
    request.set_n(n);
    request.set_method(method);
    request.set_chunk_size(chunk_size);
    grpc::ClientContext context;
    auto reader = stub().SolveStream(&context, request);
    return ReadResultStream<v1::SolveStreamResponse>(*reader, wire::EffectiveChunkSize(chunk_size));
  }

  StreamedResult CompleteStream(const std::vector<CompleteStreamRequest>& messages) {
    grpc::ClientContext context;
    auto stream = stub().CompleteStream(&context);
    for (const CompleteStreamRequest& message : messages) {
      if (!stream->Write(message)) break;
    }
    stream->WritesDone();
    const uint32_t chunk_size = messages.empty() ? kChunkSize : messages[0].header().chunk_size();
    return ReadResultStream<v1::CompleteStreamResponse>(*stream,
                                                        wire::EffectiveChunkSize(chunk_size));
  }

  grpc::Status ValidateStream(const std::vector<ValidateStreamRequest>& messages,
                              v1::ValidateStreamResponse* response) {
    grpc::ClientContext context;
    auto writer = stub().ValidateStream(&context, response);
    for (const ValidateStreamRequest& message : messages) {
      if (!writer->Write(message)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }

  static CompleteStreamRequest CompleteHeader(uint64_t n) {
    CompleteStreamRequest message = HeaderMessage<CompleteStreamRequest>(n);
    message.mutable_header()->set_chunk_size(kChunkSize);
    return message;
  }
};

TEST_F(StreamTest, SolveStreamSendsTheBoardInSmallChunks) {
  for (v1::Method method : {v1::METHOD_CONSTRUCTIVE, v1::METHOD_RANDOM}) {
    const StreamedResult result = SolveStream(100, method, kChunkSize);
    ASSERT_TRUE(result.status.ok()) << result.status.error_message();
    ASSERT_TRUE(result.has_header);
    EXPECT_EQ(result.header.outcome(), v1::OUTCOME_SOLVED);
    EXPECT_EQ(result.header.n(), 100u);
    EXPECT_EQ(result.chunks, 15);  // 14 x 7 + 2
    ExpectSolutionExtending(result.columns, Columns(100, kEmptyRow));
  }
}

TEST_F(StreamTest, SolveStreamChunkSizeZeroMeansTheMaximum) {
  const uint32_t n = wire::kMaxChunkSize + 100;
  const StreamedResult result = SolveStream(n, v1::METHOD_CONSTRUCTIVE, 0);
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  EXPECT_EQ(result.chunks, 2);
  ExpectSolutionExtending(result.columns, Columns(n, kEmptyRow));
}

TEST_F(StreamTest, SolveStreamOfUnsolvableBoardHasNoChunks) {
  const StreamedResult result = SolveStream(3, v1::METHOD_CONSTRUCTIVE, kChunkSize);
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  EXPECT_EQ(result.header.outcome(), v1::OUTCOME_UNSOLVABLE);
  EXPECT_EQ(result.chunks, 0);
}

TEST_F(StreamTest, SolveStreamChecksN) {
  EXPECT_EQ(SolveStream(0, v1::METHOD_RANDOM, kChunkSize).status.error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(SolveStream(kMaxN + 1, v1::METHOD_RANDOM, kChunkSize).status.error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(StreamTest, CompleteStreamExtendsAChunkedComposition) {
  const Columns composition = EverySecond(KnownSolution(100));
  const StreamedResult result = CompleteStream(BoardMessages(CompleteHeader(100), composition));
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.header.outcome(), v1::OUTCOME_SOLVED);
  EXPECT_EQ(result.header.stats().queens_given(), 50u);
  EXPECT_EQ(result.chunks, 15);
  ExpectSolutionExtending(result.columns, composition);
}

TEST_F(StreamTest, CompleteStreamExtendsSparseQueensInTheHeader) {
  const Columns composition = EverySecond(KnownSolution(100));
  CompleteStreamRequest header = CompleteHeader(100);
  AddQueens(composition, header.mutable_header()->mutable_queens());
  const StreamedResult result = CompleteStream({header});
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.header.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(result.columns, composition);
}

TEST_F(StreamTest, CompleteStreamOfAHeaderAloneSolvesTheEmptyBoard) {
  const StreamedResult result = CompleteStream({CompleteHeader(100)});
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.header.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(result.columns, Columns(100, kEmptyRow));
}

TEST_F(StreamTest, CompleteStreamRejectsAttackingQueens) {
  Columns board(100, kEmptyRow);
  board[9] = 4;   // (10, 4)
  board[59] = 4;  // (60, 4): same column
  const StreamedResult result = CompleteStream(BoardMessages(CompleteHeader(100), board));
  ExpectStatus(result.status, grpc::StatusCode::INVALID_ARGUMENT,
               "(row 10, column 4) and (row 60, column 4)");
}

// From 2^20 rows the server places a composition's queens as its chunks
// arrive; what it answers must not change.
constexpr uint32_t kPlacedWhileReading = (uint32_t{1} << 20) + 5;

TEST_F(StreamTest, CompleteStreamExtendsALargeCompositionPlacedAsItArrives) {
  const Columns composition = EverySecond(KnownSolution(kPlacedWhileReading));
  CompleteStreamRequest header = CompleteHeader(kPlacedWhileReading);
  header.mutable_header()->set_chunk_size(0);  // the most rows a message
  const StreamedResult result =
      CompleteStream(BoardMessages(header, composition, wire::kMaxChunkSize));
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.header.outcome(), v1::OUTCOME_SOLVED);
  EXPECT_EQ(result.header.stats().queens_given(), (kPlacedWhileReading + 1) / 2);
  ExpectSolutionExtending(result.columns, composition);
}

TEST_F(StreamTest, CompleteStreamNamesAttackingQueensOfALargeComposition) {
  Columns board(kPlacedWhileReading, kEmptyRow);
  board[99'999] = 7;   // (100000, 7), in the second chunk
  board[899'999] = 7;  // (900000, 7): same column, 12 chunks later
  CompleteStreamRequest header = CompleteHeader(kPlacedWhileReading);
  header.mutable_header()->set_chunk_size(0);
  const StreamedResult result = CompleteStream(BoardMessages(header, board, wire::kMaxChunkSize));
  ExpectStatus(result.status, grpc::StatusCode::INVALID_ARGUMENT,
               "(row 100000, column 7) and (row 900000, column 7)");
}

TEST_F(StreamTest, ValidateStreamChecksAChunkedBoard) {
  v1::ValidateStreamResponse solution;
  ASSERT_TRUE(
      ValidateStream(BoardMessages(HeaderMessage<ValidateStreamRequest>(100), KnownSolution(100)),
                     &solution)
          .ok());
  EXPECT_TRUE(solution.complete());
  EXPECT_EQ(solution.queen_count(), 100u);

  Columns attacking = KnownSolution(100);
  attacking[99] = attacking[0];  // rows 1 and 100 share a column
  v1::ValidateStreamResponse invalid;
  ASSERT_TRUE(
      ValidateStream(BoardMessages(HeaderMessage<ValidateStreamRequest>(100), attacking), &invalid)
          .ok());
  EXPECT_FALSE(invalid.valid());
  ASSERT_GE(invalid.conflicts_size(), 1);
  EXPECT_EQ(invalid.conflicts(0).second().row(), 100u);
}

TEST_F(StreamTest, ValidateStreamTakesSparseQueensInTheHeader) {
  ValidateStreamRequest header = HeaderMessage<ValidateStreamRequest>(10);
  AddQueens({0, 0, 3, 0, 0, 0, 0, 0, 0, 8}, header.mutable_header()->mutable_queens());
  v1::ValidateStreamResponse response;
  ASSERT_TRUE(ValidateStream({header}, &response).ok());
  EXPECT_TRUE(response.valid());
  EXPECT_EQ(response.queen_count(), 2u);
}

// --- Ordering errors, on both request streams. ---

template <typename Request>
class StreamErrorTest : public StreamTest {
 protected:
  grpc::Status Send(const std::vector<Request>& messages);
};

template <>
grpc::Status StreamErrorTest<CompleteStreamRequest>::Send(
    const std::vector<CompleteStreamRequest>& messages) {
  return CompleteStream(messages).status;
}

template <>
grpc::Status StreamErrorTest<ValidateStreamRequest>::Send(
    const std::vector<ValidateStreamRequest>& messages) {
  v1::ValidateStreamResponse response;
  return ValidateStream(messages, &response);
}

using RequestTypes = ::testing::Types<CompleteStreamRequest, ValidateStreamRequest>;
TYPED_TEST_SUITE(StreamErrorTest, RequestTypes);

constexpr auto kInvalid = grpc::StatusCode::INVALID_ARGUMENT;

TYPED_TEST(StreamErrorTest, MissingHeader) {
  ExpectStatus(this->Send({}), kInvalid, "the first message must be a header");
  ExpectStatus(this->Send({ChunkMessage<TypeParam>(0, {1, 3})}), kInvalid,
               "the first message must be a header");
}

TYPED_TEST(StreamErrorTest, SecondHeader) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(10), ChunkMessage<TypeParam>(0, {1, 3}),
                           HeaderMessage<TypeParam>(10)}),
               kInvalid, "a second header");
}

TYPED_TEST(StreamErrorTest, BadN) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(0)}), kInvalid, "n must be 1..2147483647");
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(ServerTest::kMaxN + 1)}),
               grpc::StatusCode::RESOURCE_EXHAUSTED, std::to_string(ServerTest::kMaxN + 1));
}

TYPED_TEST(StreamErrorTest, Gap) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(100),
                           ChunkMessage<TypeParam>(0, {1, 3, 5, 7, 9, 11, 13}),
                           ChunkMessage<TypeParam>(14, {2})}),
               kInvalid,
               "chunk at offset 14: expected offset 7 (chunks must be in row order without gaps "
               "or overlaps)");
}

TYPED_TEST(StreamErrorTest, Overlap) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(100),
                           ChunkMessage<TypeParam>(0, {1, 3, 5, 7, 9, 11, 13}),
                           ChunkMessage<TypeParam>(3, {2})}),
               kInvalid, "chunk at offset 3: expected offset 7");
}

TYPED_TEST(StreamErrorTest, PastRowN) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(4), ChunkMessage<TypeParam>(0, {2, 4, 1}),
                           ChunkMessage<TypeParam>(3, {3, 1})}),
               kInvalid, "runs past row n = 4");
}

TYPED_TEST(StreamErrorTest, OversizeChunk) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(100'000),
                           ChunkMessage<TypeParam>(0, std::vector<uint32_t>(65'537, 0))}),
               kInvalid, "at most 65536");
}

TYPED_TEST(StreamErrorTest, ColumnAboveNNamesTheRow) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(100),
                           ChunkMessage<TypeParam>(0, {1, 3, 5, 7, 9, 11, 13}),
                           ChunkMessage<TypeParam>(7, {0, 101})}),
               kInvalid, "row 9 has column 101");
}

TYPED_TEST(StreamErrorTest, EndedBeforeRowN) {
  ExpectStatus(this->Send({HeaderMessage<TypeParam>(100),
                           ChunkMessage<TypeParam>(0, {1, 3, 5, 7, 9, 11, 13})}),
               kInvalid, "the board ended after row 7 of n = 100");
}

TYPED_TEST(StreamErrorTest, ChunkAfterSparseHeader) {
  TypeParam header = HeaderMessage<TypeParam>(10);
  AddQueens({1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, header.mutable_header()->mutable_queens());
  ExpectStatus(this->Send({header, ChunkMessage<TypeParam>(0, {1})}), kInvalid,
               "chunk at offset 0: the header carried sparse queens");
}

TYPED_TEST(StreamErrorTest, BadSparseQueenInHeader) {
  TypeParam header = HeaderMessage<TypeParam>(10);
  v1::Queen* queen = header.mutable_header()->add_queens();
  queen->set_row(11);
  queen->set_column(2);
  ExpectStatus(this->Send({header}), kInvalid, "(row 11, column 2)");
}

}  // namespace
}  // namespace nqueens::testing

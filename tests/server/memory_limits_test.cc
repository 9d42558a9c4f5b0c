// The server's memory budget and stream hygiene through real servers and
// channels: calls that do not fit are refused at once, a stream holds only
// what it has received until its board is in, a cancelled or idle stream
// gives its memory back, and then the refused call fits; a certificate
// reserves its memory as it grows, and is left out where it does not fit.
//
// Synchronisation is on the budget itself: the tests wait (bounded, without
// sleeping) until the server has reserved or released what they expect.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "checker/certificate_check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/memory.h"
#include "nqueens/parts.h"
#include "server/base/byte_size.h"
#include "server/limits/memory_estimate.h"
#include "server/server.h"
#include "test_boards.h"
#include "test_constants.h"
#include "test_server.h"
#include "wire/chunks.h"

namespace nqueens::testing {
namespace {

using server::kCompletionWork;
using server::PeakCallBytes;
using server::ResponseBoard;

constexpr uint64_t kN = 200'000;
// How long a test waits for something it expects; failing tests end by it
// instead of hanging.

// What a CompleteStream on kN rows with the board in chunks reserves once
// the whole board is in.
const uint64_t kStreamNeed = PeakCallBytes(kCompletionWork, kN, {}, ResponseBoard::kNoneOrChunked);
// What a stream holds per row received before its board is complete.
constexpr uint64_t kBytesPerRowReceived = 4;
constexpr int kWorkers = 1;
// The fixed part held for the worker and the express lane.
constexpr uint64_t kWorkerBytes = (kWorkers + 1) * server::kFixedCallBytes;

v1::CompleteStreamRequest CompleteHeader(uint64_t n) {
  v1::CompleteStreamRequest message;
  message.mutable_header()->set_n(n);
  return message;
}

class MemoryLimitsTest : public ::testing::Test {
 protected:
  // `call_budget` is what the budget leaves for calls.
  void StartServer(uint64_t call_budget, absl::Duration stream_idle_timeout) {
    server::ServerOptions options;
    options.listen_addresses = {"127.0.0.1:0"};
    options.service.workers = kWorkers;
    options.grace = absl::Seconds(1);
    options.service.memory_budget = kWorkerBytes + call_budget;
    options.service.stream_idle_timeout = stream_idle_timeout;
    absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
    stub_ = v1::NQueensService::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }

  // Waits until the calls hold `bytes` of the budget.
  bool AwaitInUse(uint64_t bytes) {
    return server_->memory_budget().AwaitInUse(kWorkerBytes + bytes, absl::Now() + kPatience);
  }

  static void SetPatience(grpc::ClientContext& context) {
    context.set_deadline(absl::ToChronoTime(absl::Now() + kPatience));
  }

  // A sparse Complete of kN rows with one queen, the board sent back whole.
  grpc::Status CompleteOneQueen(v1::CompleteResponse* response) {
    v1::CompleteRequest request;
    request.set_n(kN);
    v1::Queen* queen = request.add_queens();
    queen->set_row(kN / 2);
    queen->set_column(kN / 3);
    grpc::ClientContext context;
    SetPatience(context);
    return stub_->Complete(&context, request, response);
  }

  static Columns OneQueenBoard() {
    Columns board(kN, kEmptyRow);
    board[kN / 2 - 1] = kN / 3;
    return board;
  }

  // A CompleteStream of kN rows that has sent its header; null when the
  // header could not be sent. `context` must outlive it.
  std::unique_ptr<grpc::ClientReaderWriter<v1::CompleteStreamRequest, v1::CompleteStreamResponse>>
  OpenCompleteStream(grpc::ClientContext& context) {
    SetPatience(context);
    auto stream = stub_->CompleteStream(&context);
    if (!stream->Write(CompleteHeader(kN))) return nullptr;
    return stream;
  }

  std::unique_ptr<server::Server> server_;
  std::unique_ptr<v1::NQueensService::Stub> stub_;
};

// Rows offset + 1 .. offset + size, all empty.
v1::CompleteStreamRequest EmptyChunk(uint64_t offset, uint32_t size) {
  v1::CompleteStreamRequest message;
  message.mutable_chunk()->set_offset(offset);
  message.mutable_chunk()->mutable_columns()->Resize(static_cast<int>(size), 0);
  return message;
}

TEST_F(MemoryLimitsTest, ACallAboveTheBudgetIsRefusedAtOnce) {
  StartServer(16 << 20, absl::Seconds(30));
  // GENETIC's population: 300 bytes a row.
  v1::SolveRequest solve;
  solve.set_n(200'000);
  solve.set_method(v1::METHOD_GENETIC);
  v1::SolveResponse solved;
  {
    grpc::ClientContext context;
    SetPatience(context);
    ExpectStatus(stub_->Solve(&context, solve, &solved), grpc::StatusCode::RESOURCE_EXHAUSTED,
                 absl::StrCat("more than the 16.0 MiB that this server's budget of ",
                              server::HumanBytes(kWorkerBytes + (16 << 20)), " leaves for calls"));
  }

  // A stream is refused after its header, without waiting for the board.
  grpc::ClientContext context;
  SetPatience(context);
  auto stream = stub_->CompleteStream(&context);
  ASSERT_TRUE(stream->Write(CompleteHeader(4'000'000)));
  v1::CompleteStreamResponse response;
  EXPECT_FALSE(stream->Read(&response));
  ExpectStatus(stream->Finish(), grpc::StatusCode::RESOURCE_EXHAUSTED, "n = 4000000 needs about");
  EXPECT_TRUE(AwaitInUse(0));

  // What fits still runs.
  solve.set_n(100);
  solve.set_method(v1::METHOD_RANDOM);
  grpc::ClientContext small_context;
  SetPatience(small_context);
  ASSERT_TRUE(stub_->Solve(&small_context, solve, &solved).ok());
  ASSERT_EQ(solved.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(ToColumns(solved.columns()), Columns(100, kEmptyRow));
}

TEST_F(MemoryLimitsTest, ACallThatDoesNotFitBesideAnotherFitsOnceThatOneIsCancelled) {
  // Room for one stream's whole board, not for a second call beside the
  // first stream's received rows.
  StartServer(kStreamNeed + kStreamNeed / 4, absl::Seconds(30));

  // The first call: a stream that has sent its header and all rows but one.
  grpc::ClientContext first_context;
  auto first = OpenCompleteStream(first_context);
  ASSERT_NE(first, nullptr);
  uint64_t sent = 0;
  while (sent < kN - 1) {
    const uint32_t size =
        static_cast<uint32_t>(std::min<uint64_t>(wire::kMaxChunkSize, kN - 1 - sent));
    ASSERT_TRUE(first->Write(EmptyChunk(sent, size)));
    sent += size;
  }
  ASSERT_TRUE(AwaitInUse(kBytesPerRowReceived * sent));

  v1::CompleteResponse response;
  ExpectStatus(CompleteOneQueen(&response), grpc::StatusCode::RESOURCE_EXHAUSTED,
               "budget is free now (--memory-budget); try again later");

  first_context.TryCancel();
  EXPECT_EQ(first->Finish().error_code(), grpc::StatusCode::CANCELLED);
  ASSERT_TRUE(AwaitInUse(0));

  const grpc::Status status = CompleteOneQueen(&response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(ToColumns(response.columns()), OneQueenBoard());
}

// Above 1,024 free rows the exact search reserves its memory when it starts:
// refused when the budget has no room left for it, run when it has, and
// given back after.
TEST_F(MemoryLimitsTest, TheExactSearchOnThousandsOfFreeRowsReservesItsMemory) {
  const Columns board = test_boards::RowOneBlocked(2400);
  const uint64_t free_rows = std::count(board.begin(), board.end(), kEmptyRow);
  ASSERT_GT(free_rows, kExactFreeRowsInEstimates);
  const uint64_t need =
      PeakCallBytes(kCompletionWork, board.size(), {board.size(), 0}, ResponseBoard::kOneMessage);
  const uint64_t search = ExactSearchBytesBeyondEstimate(free_rows);
  v1::CompleteRequest request;
  for (uint32_t column : board) request.add_columns(column);
  request.set_n(board.size());
  // The heuristic gives up at once.
  request.mutable_limits()->set_max_backtracks(10);
  v1::CompleteResponse response;

  StartServer(need + search / 2, absl::Seconds(30));
  {
    grpc::ClientContext context;
    SetPatience(context);
    ExpectStatus(stub_->Complete(&context, request, &response),
                 grpc::StatusCode::RESOURCE_EXHAUSTED,
                 "the exact search on more than 1024 free rows: ");
  }
  EXPECT_TRUE(AwaitInUse(0));

  StartServer(need + search, absl::Seconds(30));
  grpc::ClientContext context;
  SetPatience(context);
  const grpc::Status status = stub_->Complete(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE);
  EXPECT_TRUE(AwaitInUse(0));
}

// A certificate holds memory of the budget too, reserved a step (1 MiB at
// first) ahead as it grows. Where the budget leaves less, the call still
// answers UNSOLVABLE, without the certificate, saying that the budget is
// why; with room, the certificate comes and checks. Either way the memory
// comes back.
TEST_F(MemoryLimitsTest, ACertificateReservesItsMemoryOrIsMissingNamingTheBudget) {
  const Columns board = {1, 0, 0, 0, 2, 0, 0, 0, 0, 8};  // no completion
  const uint64_t need =
      PeakCallBytes(kCompletionWork, board.size(), {board.size(), 0}, ResponseBoard::kOneMessage);
  v1::CompleteRequest request;
  request.set_n(board.size());
  for (uint32_t column : board) request.add_columns(column);
  request.set_method(v1::COMPLETE_METHOD_EXACT);
  request.set_want_certificate(true);
  request.set_certificate_format(v1::CERTIFICATE_FORMAT_BINARY);
  constexpr uint64_t kMiB = uint64_t{1} << 20;

  // The answer of a server whose budget leaves `room` beside the call's
  // estimate.
  const auto answer_with_room = [&](uint64_t room) {
    StartServer(need + room, absl::Seconds(30));
    grpc::ClientContext context;
    SetPatience(context);
    v1::CompleteResponse response;
    const grpc::Status status = stub_->Complete(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE);
    return response;
  };

  const v1::CompleteResponse refused = answer_with_room(kMiB / 2);
  EXPECT_TRUE(refused.certificate().empty());
  EXPECT_THAT(refused.certificate_missing(),
              ::testing::StartsWith("the certificate did not fit in memory: "));
  EXPECT_THAT(refused.certificate_missing(), ::testing::EndsWith("(--memory-budget)"));
  EXPECT_TRUE(AwaitInUse(0));

  const v1::CompleteResponse fits = answer_with_room(2 * kMiB);
  EXPECT_EQ(fits.certificate_missing(), "");
  const absl::Status checked = checker::CheckCertificate(board, fits.certificate());
  EXPECT_TRUE(checked.ok()) << checked;
  EXPECT_TRUE(AwaitInUse(0));
}

// One part of a search cut into parts reserves its split's tree level by
// level: on 2,000 free rows cut into 65,536 parts, the second level's 4
// million nodes (112 MB) do not fit what the budget leaves, and the call
// says so before it makes them.
TEST_F(MemoryLimitsTest, APartsSplitReservesItsNodes) {
  constexpr uint32_t kFreeRows = 2000;
  const uint64_t need =
      PeakCallBytes(kCompletionWork, kFreeRows, {kFreeRows, 0}, ResponseBoard::kOneMessage);
  const uint64_t search = ExactSearchBytesBeyondEstimate(kFreeRows);
  v1::CompleteRequest request;
  for (uint32_t row = 0; row < kFreeRows; ++row) request.add_columns(0);
  request.set_n(kFreeRows);
  request.set_method(v1::COMPLETE_METHOD_EXACT);
  request.set_part_index(0);
  request.set_part_count(kMaxPartCount);
  StartServer(need + search + (uint64_t{16} << 20), absl::Seconds(30));
  grpc::ClientContext context;
  SetPatience(context);
  v1::CompleteResponse response;
  const grpc::Status status = stub_->Complete(&context, request, &response);
  ExpectStatus(status, grpc::StatusCode::RESOURCE_EXHAUSTED, "the split into parts (");
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("--memory-budget"));
  EXPECT_TRUE(AwaitInUse(0));
}

// A header for 10^8 rows alone reserves nothing: idle streams cannot lock
// up the budget.
TEST_F(MemoryLimitsTest, AStreamHoldsOnlyWhatItHasReceived) {
  StartServer(kStreamNeed, absl::Seconds(30));
  grpc::ClientContext context;
  auto stream = OpenCompleteStream(context);
  ASSERT_NE(stream, nullptr);
  ASSERT_TRUE(stream->Write(EmptyChunk(0, 1000)));
  ASSERT_TRUE(AwaitInUse(kBytesPerRowReceived * 1000));
  // The whole board: now the call holds its full estimate, then runs.
  for (uint64_t sent = 1000; sent < kN;) {
    const uint32_t size = static_cast<uint32_t>(std::min<uint64_t>(wire::kMaxChunkSize, kN - sent));
    ASSERT_TRUE(stream->Write(EmptyChunk(sent, size)));
    sent += size;
  }
  ASSERT_TRUE(stream->WritesDone());
  wire::ChunkAssembler assembler(kN);
  v1::CompleteStreamResponse response;
  ASSERT_TRUE(stream->Read(&response));
  ASSERT_EQ(response.header().outcome(), v1::OUTCOME_SOLVED);
  while (stream->Read(&response)) ASSERT_TRUE(assembler.Add(response.chunk()).ok());
  ASSERT_TRUE(stream->Finish().ok());
  absl::StatusOr<Columns> board = std::move(assembler).Finish();
  ASSERT_TRUE(board.ok()) << board.status();
  ExpectSolutionExtending(*board, Columns(kN, kEmptyRow));
  EXPECT_TRUE(AwaitInUse(0));
}

// The server ends an idle stream, saying why, and frees what it held.
TEST_F(MemoryLimitsTest, AnIdleStreamIsCutAndItsMemoryFreed) {
  StartServer(kStreamNeed, absl::Milliseconds(200));
  grpc::ClientContext context;
  auto stream = OpenCompleteStream(context);
  ASSERT_NE(stream, nullptr);
  ASSERT_TRUE(stream->Write(EmptyChunk(0, 1000)));
  ASSERT_TRUE(AwaitInUse(kBytesPerRowReceived * 1000));

  v1::CompleteStreamResponse response;
  EXPECT_FALSE(stream->Read(&response));
  ExpectStatus(stream->Finish(), grpc::StatusCode::CANCELLED, "--stream-idle-timeout");
  EXPECT_TRUE(AwaitInUse(0));
}

// Chunks without rows are no progress: a client trickling them is cut as if
// it sent nothing. Bounded: at most 150 of them, one every 20 ms, 15 times
// the idle timeout.
TEST_F(MemoryLimitsTest, EmptyChunksDoNotKeepAStreamAlive) {
  StartServer(kStreamNeed, absl::Milliseconds(200));
  grpc::ClientContext context;
  auto stream = OpenCompleteStream(context);
  ASSERT_NE(stream, nullptr);
  int sent = 0;
  const absl::Time give_up = absl::Now() + absl::Seconds(3);
  while (sent < 150 && absl::Now() < give_up && stream->Write(EmptyChunk(0, 0))) {
    ++sent;
    absl::SleepFor(absl::Milliseconds(20));  // the trickle itself, not a wait for the server
  }
  EXPECT_LT(sent, 150) << "the stream was not cut";
  ExpectStatus(stream->Finish(), grpc::StatusCode::CANCELLED, "--stream-idle-timeout");
  EXPECT_TRUE(AwaitInUse(0));
}

TEST_F(MemoryLimitsTest, AStreamWithoutAHeaderIsCutToo) {
  StartServer(kStreamNeed, absl::Milliseconds(200));
  grpc::ClientContext context;
  SetPatience(context);
  v1::ValidateStreamResponse response;
  auto stream = stub_->ValidateStream(&context, &response);
  ExpectStatus(stream->Finish(), grpc::StatusCode::CANCELLED, "--stream-idle-timeout");
  EXPECT_TRUE(AwaitInUse(0));
}

}  // namespace
}  // namespace nqueens::testing

// The server's memory budget and stream hygiene through real servers and
// channels: calls that do not fit are refused at once, a cancelled or idle
// stream gives its memory back, and then the refused call fits.
//
// Synchronisation is on the budget itself: the tests wait (bounded, without
// sleeping) until the server has reserved or released what they expect.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "memory_estimate.h"
#include "nqueens/board.h"
#include "server.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

using server::PeakCallBytes;
using server::ResponseBoard;
using server::Work;

constexpr uint64_t kN = 200'000;
// How long a test waits for something it expects; failing tests end by it
// instead of hanging.
constexpr absl::Duration kPatience = absl::Seconds(30);

// What a CompleteStream on kN rows with the board in chunks reserves.
const uint64_t kStreamNeed =
    PeakCallBytes(Work::kCompletion, kN, {}, ResponseBoard::kNoneOrChunked);

class MemoryLimitsTest : public ::testing::Test {
 protected:
  void StartServer(uint64_t memory_budget, absl::Duration stream_idle_timeout) {
    server::ServerOptions options;
    options.listen_address = "127.0.0.1:0";
    options.threads = 4;
    options.grace = absl::Seconds(1);
    options.memory_budget = memory_budget;
    options.stream_idle_timeout = stream_idle_timeout;
    absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
    stub_ = v1::NQueens::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }

  bool AwaitInUse(uint64_t bytes) {
    return server_->memory_budget().AwaitInUse(bytes, absl::Now() + kPatience);
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

  std::unique_ptr<server::Server> server_;
  std::unique_ptr<v1::NQueens::Stub> stub_;
};

v1::CompleteStreamRequest CompleteHeader(uint64_t n) {
  v1::CompleteStreamRequest message;
  message.mutable_header()->set_n(n);
  return message;
}

TEST_F(MemoryLimitsTest, ACallAboveTheBudgetIsRefusedAtOnce) {
  StartServer(16 << 20, absl::Seconds(30));
  v1::SolveRequest solve;
  solve.set_n(1'000'000);
  solve.set_method(v1::RANDOM);
  v1::SolveResponse solved;
  {
    grpc::ClientContext context;
    SetPatience(context);
    ExpectStatus(stub_->Solve(&context, solve, &solved), grpc::StatusCode::RESOURCE_EXHAUSTED,
                 "more than this server's whole budget of 16.0 MiB");
  }

  // A stream is refused after its header, without waiting for the board.
  grpc::ClientContext context;
  SetPatience(context);
  auto stream = stub_->CompleteStream(&context);
  ASSERT_TRUE(stream->Write(CompleteHeader(1'000'000)));
  v1::CompleteStreamResponse response;
  EXPECT_FALSE(stream->Read(&response));
  ExpectStatus(stream->Finish(), grpc::StatusCode::RESOURCE_EXHAUSTED, "n = 1000000 needs about");
  EXPECT_EQ(server_->memory_budget().in_use(), 0u);

  // What fits still runs.
  solve.set_n(100);
  grpc::ClientContext small_context;
  SetPatience(small_context);
  ASSERT_TRUE(stub_->Solve(&small_context, solve, &solved).ok());
  ASSERT_EQ(solved.outcome(), v1::SOLVED);
  ExpectSolutionExtending(ToColumns(solved.columns()), Columns(100, kEmptyRow));
}

TEST_F(MemoryLimitsTest, ACallThatDoesNotFitBesideAnotherFitsOnceThatOneIsCancelled) {
  StartServer(kStreamNeed + kStreamNeed / 2, absl::Seconds(30));

  // The first call: a stream that has sent its header and one chunk.
  grpc::ClientContext first_context;
  SetPatience(first_context);
  auto first = stub_->CompleteStream(&first_context);
  ASSERT_TRUE(first->Write(CompleteHeader(kN)));
  v1::CompleteStreamRequest chunk;
  chunk.mutable_chunk()->set_offset(0);
  chunk.mutable_chunk()->mutable_columns()->Add(0);
  ASSERT_TRUE(first->Write(chunk));
  ASSERT_TRUE(AwaitInUse(kStreamNeed));

  v1::CompleteResponse response;
  ExpectStatus(CompleteOneQueen(&response), grpc::StatusCode::RESOURCE_EXHAUSTED,
               "budget is free now; try again later");

  first_context.TryCancel();
  EXPECT_EQ(first->Finish().error_code(), grpc::StatusCode::CANCELLED);
  ASSERT_TRUE(AwaitInUse(0));

  const grpc::Status status = CompleteOneQueen(&response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.outcome(), v1::SOLVED);
  ExpectSolutionExtending(ToColumns(response.columns()), OneQueenBoard());
}

// The server ends an idle stream with CANCELLED: the sync API's blocked
// Read() can only be ended by cancelling the call.
TEST_F(MemoryLimitsTest, AnIdleStreamIsCutAndItsMemoryFreed) {
  StartServer(0, absl::Milliseconds(200));
  grpc::ClientContext context;
  SetPatience(context);
  auto stream = stub_->CompleteStream(&context);
  ASSERT_TRUE(stream->Write(CompleteHeader(kN)));
  ASSERT_TRUE(AwaitInUse(kStreamNeed));

  v1::CompleteStreamResponse response;
  EXPECT_FALSE(stream->Read(&response));
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(AwaitInUse(0));
}

TEST_F(MemoryLimitsTest, AStreamWithoutAHeaderIsCutToo) {
  StartServer(0, absl::Milliseconds(200));
  grpc::ClientContext context;
  SetPatience(context);
  v1::ValidateResponse response;
  auto stream = stub_->ValidateStream(&context, &response);
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(server_->memory_budget().in_use(), 0u);
}

}  // namespace
}  // namespace nqueens::testing

// The serving model through real servers on loopback: sequential calls are
// never refused, a full queue is refused naming its limit, small calls pass
// large ones, queued calls that are cancelled or expire leave the queue and
// free their memory, client limits are lowered to the server's maxima, and
// unparseable requests are INVALID_ARGUMENT.
//
// A "long" call here is a RANDOM Solve of 5 * 10^7 rows: over a second of
// work, which the test cancels once it has checked what it needs; every wait
// is on the server's own state (the pool's load, the memory budget), bounded.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <grpcpp/impl/codegen/sync_stream.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "server/limits/memory_estimate.h"
#include "server/server.h"
#include "test_boards.h"
#include "test_constants.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

absl::Time Patience() { return absl::Now() + kPatience; }

// A server that takes boards of up to kLongN rows.
std::unique_ptr<server::Server> StartLongBoardServer(server::ServerOptions options) {
  options.service.max_n = kLongN;
  return StartLoopbackServer(std::move(options));
}

// n = 100 with 22 free rows: 78 queens of a known solution.
v1::CompleteRequest SmallComposition() {
  const Columns solution = KnownSolution(100);
  v1::CompleteRequest request;
  request.set_n(100);
  for (uint32_t row = 0; row < 100; ++row) {
    request.add_columns(row % 9 < 2 && row < 99 ? kEmptyRow : solution[row]);
  }
  return request;
}

TEST(ServingTest, ASequentialClientIsNeverRefused) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  const v1::CompleteRequest request = SmallComposition();
  const Columns composition(request.columns().begin(), request.columns().end());
  for (int call = 0; call < 500; ++call) {
    grpc::ClientContext context;
    v1::CompleteResponse response;
    const grpc::Status status = stub->Complete(&context, request, &response);
    ASSERT_TRUE(status.ok()) << "call " << call << ": " << status.error_message();
    ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
    if (call % 100 == 0) ExpectSolutionExtending(ToColumns(response.columns()), composition);
  }
  EXPECT_EQ(server->counters().calls(absl::StatusCode::kResourceExhausted), 0u);
}

TEST(ServingTest, AFullQueueIsRefusedNamingItsLimitWhileSmallCallsStillRun) {
  server::ServerOptions options;
  options.service.workers = 1;
  options.service.max_queued = 0;
  std::unique_ptr<server::Server> server = StartLongBoardServer(options);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  BackgroundSolve running(*stub, kLongN);
  ASSERT_TRUE(server->pool().AwaitLoad(1, 0, Patience()));

  grpc::ClientContext context;
  v1::SolveRequest large;
  large.set_n(1'000'000);
  v1::SolveResponse response;
  ExpectStatus(stub->Solve(&context, large, &response), grpc::StatusCode::RESOURCE_EXHAUSTED,
               "(--max-queued)");
  EXPECT_EQ(server->counters().refusals("--max-queued"), 1u);

  // A small call takes the express lane beside the large one.
  grpc::ClientContext small_context;
  v1::CompleteRequest small = SmallComposition();
  v1::CompleteResponse completed;
  const grpc::Status status = stub->Complete(&small_context, small, &completed);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ExpectSolutionExtending(ToColumns(completed.columns()),
                          Columns(small.columns().begin(), small.columns().end()));

  running.Cancel();
  EXPECT_EQ(running.Wait().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(server->pool().AwaitLoad(0, 0, Patience()));
}

TEST(ServingTest, QueuedCallsThatAreCancelledOrExpireLeaveTheQueueAndFreeTheirMemory) {
  server::ServerOptions options;
  options.service.workers = 1;
  std::unique_ptr<server::Server> server = StartLongBoardServer(options);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  const uint64_t idle = server->memory_budget().in_use();
  BackgroundSolve running(*stub, kLongN);
  ASSERT_TRUE(server->pool().AwaitLoad(1, 0, Patience()));
  const uint64_t with_running = server->memory_budget().in_use();
  ASSERT_GT(with_running, idle);

  {
    BackgroundSolve cancelled(*stub, 1'000'000);
    ASSERT_TRUE(server->pool().AwaitLoad(1, 1, Patience()));
    EXPECT_GT(server->memory_budget().in_use(), with_running);
    cancelled.Cancel();
    EXPECT_EQ(cancelled.Wait().error_code(), grpc::StatusCode::CANCELLED);
    EXPECT_TRUE(server->pool().AwaitLoad(1, 0, Patience()));
    EXPECT_TRUE(server->memory_budget().AwaitInUse(with_running, Patience()));
  }
  {
    BackgroundSolve expiring(*stub, 1'000'000, absl::Milliseconds(300));
    EXPECT_EQ(expiring.Wait().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    EXPECT_TRUE(server->pool().AwaitLoad(1, 0, Patience()));
    EXPECT_TRUE(server->memory_budget().AwaitInUse(with_running, Patience()));
  }
  running.Cancel();
  EXPECT_EQ(running.Wait().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(server->memory_budget().AwaitInUse(idle, Patience()));
}

TEST(ServingTest, ClientLimitsAreLoweredToTheServersMaxima) {
  server::ServerOptions options;
  options.service.limits.max_exact_nodes = 1'000'000'000;
  std::unique_ptr<server::Server> server = StartLongBoardServer(options);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  v1::CompleteRequest request = SmallComposition();
  request.mutable_limits()->set_max_backtracks(std::numeric_limits<uint64_t>::max());
  request.mutable_limits()->set_max_restarts(std::numeric_limits<uint32_t>::max());
  request.mutable_limits()->set_max_exact_nodes(std::numeric_limits<uint64_t>::max());
  request.mutable_limits()->set_max_exact_seconds(1e9);
  grpc::ClientContext context;
  v1::CompleteResponse response;
  ASSERT_TRUE(stub->Complete(&context, request, &response).ok());
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  EXPECT_THAT(response.stats().lowered_limits(),
              ::testing::UnorderedElementsAre("max_backtracks=1000000 (--max-backtracks)",
                                              "max_restarts=1000 (--max-restarts)",
                                              "max_exact_nodes=1000000000 (--max-exact-nodes)",
                                              "max_exact_seconds=600 (--max-exact-seconds)"));
}

v1::CompleteRequest HardUnsolvableRequest(double max_exact_seconds) {
  const Columns board = test_boards::HardUnsolvableBoard();
  v1::CompleteRequest request;
  request.set_n(board.size());
  request.mutable_columns()->Assign(board.begin(), board.end());
  request.mutable_limits()->set_max_exact_seconds(max_exact_seconds);
  return request;
}

TEST(ServingTest, TheExactSearchStopsAtMaxExactSecondsAndSaysHowFarItGot) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  grpc::ClientContext context;
  v1::CompleteResponse response;
  ASSERT_TRUE(stub->Complete(&context, HardUnsolvableRequest(0.3), &response).ok());
  EXPECT_EQ(response.outcome(), v1::OUTCOME_UNDECIDED);
  EXPECT_GE(response.stats().exact_runs(), 1u);
  EXPECT_GT(response.stats().exact_nodes(), 0u);
  EXPECT_LT(response.stats().exact_explored(), 1.0);
}

TEST(ServingTest, NegativeMaxExactSecondsIsRefusedByName) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  grpc::ClientContext context;
  v1::CompleteResponse response;
  ExpectStatus(stub->Complete(&context, HardUnsolvableRequest(-1), &response),
               grpc::StatusCode::INVALID_ARGUMENT, "limits.max_exact_seconds must be at least 0");
}

// The library checks what the binary's flags check, naming the flag, before
// it opens anything.
TEST(ServingTest, StartRefusesOptionsOutOfRangeNamingTheirFlags) {
  struct Case {
    const char* flag;
    std::function<void(server::ServerOptions&)> spoil;
  };
  const std::vector<Case> cases = {
      {"--listen", [](server::ServerOptions& o) { o.listen_addresses.clear(); }},
      {"--grace", [](server::ServerOptions& o) { o.grace = absl::Seconds(-1); }},
      {"--max-n", [](server::ServerOptions& o) { o.service.max_n = 0; }},
      {"--workers", [](server::ServerOptions& o) { o.service.workers = -1; }},
      {"--max-call-seconds",
       [](server::ServerOptions& o) { o.service.limits.max_call_time = absl::ZeroDuration(); }},
      {"--max-exact-free-rows",
       [](server::ServerOptions& o) { o.service.limits.max_exact_free_rows = 65'537; }},
      {"--stream-idle-timeout",
       [](server::ServerOptions& o) { o.service.stream_idle_timeout = absl::ZeroDuration(); }},
      {"--max-concurrent-streams",
       [](server::ServerOptions& o) { o.connections.max_concurrent_streams = 0; }},
      {"--max-connection-age",
       [](server::ServerOptions& o) { o.connections.max_age = absl::ZeroDuration(); }},
  };
  for (const Case& test : cases) {
    server::ServerOptions options;
    options.listen_addresses = {"127.0.0.1:0"};
    test.spoil(options);
    absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
    ASSERT_FALSE(started.ok()) << test.flag;
    EXPECT_EQ(started.status().code(), absl::StatusCode::kInvalidArgument) << test.flag;
    EXPECT_THAT(std::string(started.status().message()), ::testing::HasSubstr(test.flag));
  }
}

TEST(ServingTest, ACallIsStoppedAtMaxCallSeconds) {
  server::ServerOptions options;
  options.service.limits.max_call_time = absl::Milliseconds(100);
  std::unique_ptr<server::Server> server = StartLongBoardServer(options);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  BackgroundSolve solve(*stub, kLongN);
  ExpectStatus(solve.Wait(), grpc::StatusCode::RESOURCE_EXHAUSTED,
               "this server's limit of 100ms (--max-call-seconds)");
}

TEST(ServingTest, AnUploadThatTricklesIsStoppedAtMaxCallSeconds) {
  server::ServerOptions options;
  options.service.limits.max_call_time = absl::Seconds(1);
  options.service.stream_idle_timeout = absl::Hours(1);
  std::unique_ptr<server::Server> server = StartLongBoardServer(options);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(Patience()));
  auto stream = stub->CompleteStream(&context);
  v1::CompleteStreamRequest header;
  header.mutable_header()->set_n(1000);
  ASSERT_TRUE(stream->Write(header));
  // A chunk every 20 ms, each with one row, for at most 10 s.
  v1::CompleteStreamRequest chunk;
  chunk.mutable_chunk()->add_columns(0);
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  for (uint32_t row = 0; row < 1000 && absl::Now() < give_up; ++row) {
    chunk.mutable_chunk()->set_offset(row);
    if (!stream->Write(chunk)) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  stream->WritesDone();
  v1::CompleteStreamResponse response;
  while (stream->Read(&response)) {
  }
  ExpectStatus(stream->Finish(), grpc::StatusCode::RESOURCE_EXHAUSTED, "(--max-call-seconds)");
}

// Large metadata is refused naming the limit, and the connection serves
// the next call; beyond four times the limit gRPC refuses it itself and may
// close the connection (a new one is served).
TEST(ServingTest, LargeMetadataIsRefusedNamingTheLimit) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  for (const size_t bytes : {20'000, 100'000}) {
    SCOPED_TRACE(bytes);
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(Patience()));
    context.AddMetadata("x-large", std::string(bytes, 'a'));
    v1::SolveRequest request;
    request.set_n(8);
    v1::SolveResponse response;
    const grpc::Status status = stub->Solve(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    if (bytes == 20'000) {
      EXPECT_THAT(status.error_message(),
                  ::testing::HasSubstr("more than this server's limit of 16.0 KiB per call"));
    }
    grpc::ClientContext next_context;
    next_context.set_deadline(absl::ToChronoTime(Patience()));
    grpc::ChannelArguments own_connection;
    own_connection.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    auto next_stub =
        bytes > 4 * server::kMaxCallMetadataBytes
            ? v1::NQueensService::NewStub(grpc::CreateCustomChannel(
                  server->address(), grpc::InsecureChannelCredentials(), own_connection))
            : nullptr;
    ASSERT_TRUE((next_stub ? *next_stub : *stub).Solve(&next_context, request, &response).ok());
    EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  }
}

// Bytes that are no protobuf message: a length-delimited field 1 whose
// length runs past the end.
grpc::ByteBuffer Garbage() {
  static const char kBytes[] = {0x0a, 0x7f, 0x01};
  grpc::Slice slice(kBytes, sizeof(kBytes));
  return grpc::ByteBuffer(&slice, 1);
}

TEST(ServingTest, AnUnparseableUnaryRequestIsInvalidArgument) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  const grpc::internal::RpcMethod method("/nqueens.v1.NQueensService/Complete",
                                         grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::ClientContext context;
  grpc::ByteBuffer response;
  const grpc::Status status = grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel.get(), method, &context, Garbage(), &response);
  ExpectStatus(status, grpc::StatusCode::INVALID_ARGUMENT,
               "the request could not be parsed as a nqueens.v1.CompleteRequest message");
}

TEST(ServingTest, AnUnparseableStreamMessageIsInvalidArgument) {
  std::unique_ptr<server::Server> server = StartLongBoardServer({});
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  const grpc::internal::RpcMethod method("/nqueens.v1.NQueensService/CompleteStream",
                                         grpc::internal::RpcMethod::BIDI_STREAMING);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(Patience()));
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream(
      grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::Create(
          channel.get(), method, &context));
  stream->Write(Garbage());
  stream->WritesDone();
  grpc::ByteBuffer response;
  EXPECT_FALSE(stream->Read(&response));
  ExpectStatus(stream->Finish(), grpc::StatusCode::INVALID_ARGUMENT,
               "message 1 of the stream could not be parsed as a "
               "nqueens.v1.CompleteStreamRequest message");
}

TEST(ServingTest, ASecondServerOnATakenAddressFailsNamingIt) {
  std::unique_ptr<server::Server> first = StartLongBoardServer({});
  ASSERT_NE(first, nullptr);
  server::ServerOptions options;
  options.listen_addresses = {first->address()};
  absl::StatusOr<std::unique_ptr<server::Server>> second = server::Server::Start(options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(second.status().message(), ::testing::HasSubstr(first->address()));
}

TEST(ServingTest, ServesOnEveryListenAddress) {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0", "[::1]:0"};
  options.grace = absl::Seconds(1);
  absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_EQ((*server)->addresses().size(), 2u);
  for (const std::string& address : (*server)->addresses()) {
    auto stub = v1::NQueensService::NewStub(
        grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    v1::SolveRequest request;
    request.set_n(8);
    v1::SolveResponse response;
    ASSERT_TRUE(stub->Solve(&context, request, &response).ok()) << address;
    ExpectSolutionExtending(ToColumns(response.columns()), Columns(8, kEmptyRow));
  }
}

}  // namespace
}  // namespace nqueens::testing

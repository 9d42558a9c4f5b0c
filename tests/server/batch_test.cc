// CompleteBatch against a real server on loopback: answers in the order of
// the requests, each checked with the validator; a bad item fails alone; a
// cancelled batch frees its memory.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "server.h"
#include "test_boards.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

constexpr absl::Duration kPatience = absl::Seconds(60);

std::unique_ptr<server::Server> StartServer() {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0"};
  options.grace = absl::Seconds(1);
  absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(options);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

v1::CompleteRequest Item(const Columns& composition) {
  v1::CompleteRequest request;
  request.set_n(composition.size());
  request.mutable_columns()->Assign(composition.begin(), composition.end());
  return request;
}

TEST(CompleteBatchTest, AnswersEveryItemInOrderAndABadItemFailsAlone) {
  std::unique_ptr<server::Server> server = StartServer();
  ASSERT_NE(server, nullptr);
  auto stub = v1::NQueens::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  // Compositions of random solutions, sizes 8 to 207; every 50th item has
  // two queens in one column, and item 7 too many rows for a batch.
  constexpr int kItems = 200;
  std::vector<Columns> items;
  for (int i = 0; i < kItems; ++i) {
    const uint32_t n = 8 + static_cast<uint32_t>(i);
    Columns composition =
        test_boards::RandomSubComposition(test_boards::RandomSolution(n, i), n / 3, i);
    if (i % 50 == 49) composition[0] = composition[1] = 1;
    items.push_back(composition);
  }
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kPatience));
  auto stream = stub->CompleteBatch(&context);
  std::thread writer([&] {
    for (int i = 0; i < kItems; ++i) {
      v1::CompleteRequest request = Item(items[i]);
      if (i == 7) request.set_n(70'000);
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  v1::CompleteBatchResponse answer;
  uint64_t expected_index = 0;
  while (stream->Read(&answer)) {
    ASSERT_EQ(answer.index(), expected_index);
    const int i = static_cast<int>(expected_index++);
    if (i == 7) {
      EXPECT_EQ(answer.error().code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_NE(answer.error().message().find("at most 65536 rows"), std::string::npos);
    } else if (i % 50 == 49) {
      EXPECT_EQ(answer.error().code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_NE(answer.error().message().find("attack"), std::string::npos);
    } else {
      ASSERT_TRUE(answer.has_response()) << i << ": " << answer.error().message();
      EXPECT_EQ(answer.response().outcome(), v1::SOLVED) << i;
      ExpectSolutionExtending(ToColumns(answer.response().columns()), items[i]);
    }
  }
  writer.join();
  EXPECT_EQ(expected_index, static_cast<uint64_t>(kItems));
  EXPECT_TRUE(stream->Finish().ok());
}

TEST(CompleteBatchTest, ACancelledBatchFreesItsMemory) {
  std::unique_ptr<server::Server> server = StartServer();
  ASSERT_NE(server, nullptr);
  const uint64_t idle = server->memory_budget().in_use();
  auto stub = v1::NQueens::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->CompleteBatch(&context);
  const Columns composition =
      test_boards::RandomSubComposition(test_boards::RandomSolution(1000, 1), 300, 1);
  ASSERT_TRUE(stream->Write(Item(composition)));
  v1::CompleteBatchResponse first;
  ASSERT_TRUE(stream->Read(&first));
  EXPECT_TRUE(first.has_response());
  // The batch holds its window's memory while it is open.
  EXPECT_GT(server->memory_budget().in_use(), idle);
  // Then the client stops reading: the server's window fills.
  for (int i = 0; i < 20 && stream->Write(Item(composition)); ++i) {
  }
  context.TryCancel();
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(server->memory_budget().AwaitInUse(idle, absl::Now() + kPatience));
  EXPECT_TRUE(server->pool().AwaitLoad(0, 0, absl::Now() + kPatience));
}

}  // namespace
}  // namespace nqueens::testing
